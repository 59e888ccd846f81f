"""The interactions the bot is answering right now, so that a stop (a deploy's SIGTERM)
lets them finish: a player who was shown "thinking…" gets the answer before the
connection closes, instead of "The application did not respond" and no way to know
whether what they sent was kept."""

from __future__ import annotations

import asyncio
from typing import Any

from bot.discord import metering


class Answering:
    def __init__(self) -> None:
        self._tasks: set[asyncio.Task[Any]] = set()

    def hold(self) -> None:
        """The current task is answering an interaction: a stop waits for it."""
        task = asyncio.current_task()
        if task is not None and task not in self._tasks:
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def settle(self, timeout: float) -> int:
        """Wait up to ``timeout`` seconds until every interaction in hand (those that
        arrive meanwhile too) is answered; how many are still busy then."""
        loop = asyncio.get_running_loop()
        until = loop.time() + timeout
        me = asyncio.current_task()
        while True:
            busy = {t for t in self._tasks if t is not me and not t.done()}
            left = until - loop.time()
            if not busy or left <= 0:
                return len(busy)
            await asyncio.wait(busy, timeout=left)


def hold(interaction: Any) -> None:
    """Count the interaction being handled by the current task as in hand (a client
    that keeps no count, as in some tests, is left alone); its clock starts for the
    metrics and the task's log lines name it (``bot.discord.metering``)."""
    metering.seen(interaction)
    answering = getattr(interaction.client, "answering", None)
    if isinstance(answering, Answering):
        answering.hold()
