"""Two bot processes connected with the same token, as in a deploy's overlap (the old bot
still running while the new one starts): Discord sends every interaction to both, the
first to acknowledge it answers, and the other leaves it alone."""

from __future__ import annotations

import asyncio
import contextlib
import logging

import pytest

from bot.db.session import Database
from bot.discord.client import WolfBot
from tests.bot.conftest import Table, reply_text, start_bot
from tests.conftest import FakeClock


async def test_an_interaction_both_processes_receive_is_answered_once_and_logs_no_error(
    table: Table, sqlite_url: str, clock: FakeClock, caplog: pytest.LogCaptureFixture
) -> None:
    second = WolfBot(table.bot.config, db=Database(sqlite_url, clock=clock))
    task = await start_bot(second, table.emu.token)
    try:
        caplog.set_level(logging.DEBUG, logger="wolfhowl")
        created = await table.run(table.mod, "mod create", {"day": "2h"})
        await table.delivered()
        helped = await table.run(table.players[1], "help", dm=True)
        lobby = next(m for m in table.emu.channel_messages(table.channel, include_ephemeral=False) if m.custom_ids())
        joined = await table.emu.click(table.players[1], lobby, next(c for c in lobby.custom_ids() if c.startswith("wh:join:")))
        await joined.wait(10)

        def elsewhere() -> int:
            return sum(1 for r in caplog.records if "answered by another process" in r.getMessage())

        await table.emu.wait_for(lambda: elsewhere() == 3 or None, 10, "the other process to stand down thrice")
        assert "Game #1 is open" in reply_text(created)
        assert "Wolf Howl Tavern" in reply_text(helped)
        assert "joined" in reply_text(joined)
        for result in (created, helped, joined):
            assert result.rejected and all(e.code == 40060 for e in result.rejected)  # the other process's try
        problems = [r.getMessage() for r in caplog.records if r.name.startswith("wolfhowl") and r.levelno >= logging.WARNING]
        assert problems == []
        assert elsewhere() == 3
    finally:
        await second.close()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(task, 5)
