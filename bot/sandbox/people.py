"""Scripted people: anyone who uses the bot as a person does (slash commands with
options, typed or completed, buttons, select menus and modals), with the time the bot
took to answer each; and the moderator who opens, starts and advances the game. The
players who decide from what they read are :mod:`bot.sandbox.players`."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from bot.features.moderation import cog_settings as game_settings
from bot.i18n import t
from bot.sandbox import play_reader as reader
from bot.sandbox.play_table import Tavern
from discord_emulator import InteractionFailed, InteractionResult, Message, User


@dataclass
class Stats:
    """What the scripted people measured (shared by all of them in a run)."""

    ack: list[float] = field(
        default_factory=list
    )  # seconds from dispatch to the bot's acknowledgement
    final: list[float] = field(default_factory=list)  # ... to the final answer
    interactions: int = 0
    by_kind: dict[str, int] = field(default_factory=dict)  # interactions per command or component
    failed: int = 0  # "This interaction failed": not acknowledged within 3 s
    late: int = 0  # acknowledged, but no final answer within the person's patience
    refusals: list[tuple[str, str, str]] = field(default_factory=list)  # (who, what, text)


@dataclass
class Reply:
    """The answer a person saw to one interaction."""

    result: InteractionResult | None
    messages: list[Message]
    text: str
    error: bool

    def find(self, prefix: str) -> tuple[Message, str] | None:
        """The message and custom id of the component whose id starts with ``prefix``."""
        for m in reversed(self.messages):
            for cid in m.custom_ids():
                if cid.startswith(prefix):
                    return m, cid
        return None


def command_path(path: str, locale: str) -> str:
    """The command as a speaker of ``locale`` types it: Chinese speakers use the
    localized names Discord shows them."""
    if not locale.startswith("zh"):
        return path
    return " ".join(t(f"cmd.name.{part}", locale) for part in path.split())


class Person:
    """Anyone who uses the bot: runs commands and presses components, and records how
    long the bot took to answer."""

    def __init__(
        self, tavern: Tavern, user: User, channel: Any, stats: Stats, *, in_dm: bool
    ) -> None:
        self.tavern = tavern
        self.emu = tavern.emu
        self.user = user
        self.channel = channel
        self.stats = stats
        self.in_dm = in_dm and not user.dms_closed
        self.locale = user.locale
        self.name = user.global_name or user.username
        self.journal: list[str] = []  # what this person did, in order (for reports and tests)
        self.answer_timeout = 15.0  # how long they wait for the answer once acknowledged

    def where(self, in_dm: bool | None = None) -> dict[str, Any]:
        dm = self.in_dm if in_dm is None else in_dm
        return {"dm": True} if dm else {"channel": self.channel}

    async def _answer(
        self, what: str, start: Callable[[], Awaitable[InteractionResult]], timeout: float
    ) -> Reply:
        t0 = time.perf_counter()
        result = await start()
        self.stats.interactions += 1
        kind = what.split(":")[1] if what.startswith("wh:") else what
        self.stats.by_kind[kind] = self.stats.by_kind.get(kind, 0) + 1
        with contextlib.suppress(TimeoutError):
            await self.tavern.watcher.until(
                lambda: result.acknowledged or result.failed, timeout, f"an answer to {what}"
            )
        if not result.acknowledged:
            # Discord would show "This interaction failed".
            self.stats.failed += 1
            self.journal.append("  no answer")
            return Reply(result, [], "", True)
        self.stats.ack.append(time.perf_counter() - t0)
        try:
            await self.tavern.watcher.until(
                result.is_final, self.answer_timeout, f"the answer to {what}"
            )
        except TimeoutError:
            self.stats.late += 1
            self.journal.append("  acknowledged, but no answer")
            return Reply(result, [], "", True)
        self.stats.final.append(time.perf_counter() - t0)
        messages: list[Message] = []
        for m in [result.message, *result.followups]:
            # After a deferral the first followup fills the original "thinking" message.
            if m is not None and all(m.id != x.id for x in messages):
                messages.append(m)
        text = "\n".join(reader.message_text(m) for m in messages)
        error = any(reader.is_error(m) for m in messages)
        if error:
            self.stats.refusals.append((self.name, what, text))
            self.journal.append(f"  refused: {text[:200]}")
        return Reply(result, messages, text, error)

    async def command(
        self,
        path: str,
        options: dict[str, Any] | None = None,
        *,
        in_dm: bool | None = None,
        timeout: float = 15.0,
    ) -> Reply:
        typed = command_path(path, self.locale)
        self.journal.append(f"/{typed} {options or ''}")
        return await self._answer(
            f"/{path}",
            lambda: self.emu.slash(self.user, typed, options or {}, **self.where(in_dm)),
            timeout,
        )

    async def click(self, message: Message, custom_id: str, timeout: float = 15.0) -> Reply:
        self.journal.append(f"click {custom_id}")
        return await self._answer(
            custom_id, lambda: self.emu.click(self.user, message, custom_id), timeout
        )

    async def select(
        self, message: Message, custom_id: str, values: list[str], timeout: float = 15.0
    ) -> Reply:
        self.journal.append(f"select {custom_id} {values}")
        return await self._answer(
            custom_id, lambda: self.emu.select(self.user, message, custom_id, values), timeout
        )

    async def submit_form(
        self, opened: Reply, values: dict[str, Any], timeout: float = 15.0
    ) -> Reply:
        result = opened.result
        assert result is not None
        self.journal.append(f"form {values}")
        return await self._answer(
            "modal",
            lambda: self.emu.submit_modal(self.user, result, values),
            timeout,
        )

    async def complete(
        self, path: str, focused: str, typed: str, options: dict[str, Any] | None = None
    ) -> list[dict[str, Any]]:
        """Type ``typed`` into an option and read the list the bot offers (empty if it
        offers none in time: the person then just types on)."""
        self.stats.interactions += 1
        self.stats.by_kind["autocomplete"] = self.stats.by_kind.get("autocomplete", 0) + 1
        t0 = time.perf_counter()
        try:
            choices = await self.emu.autocomplete(
                self.user,
                command_path(path, self.locale),
                focused=focused,
                value=typed,
                options=options or {},
                **self.where(),
            )
        except (InteractionFailed, TimeoutError):
            self.stats.failed += 1
            self.journal.append(f"  no list for {path} {focused}")
            return []
        self.stats.ack.append(time.perf_counter() - t0)
        self.stats.final.append(time.perf_counter() - t0)
        return choices


class Moderator(Person):
    """Opens the game, starts it, watches who has sent, and closes phases."""

    def __init__(self, tavern: Tavern, user: User, channel: Any, stats: Stats) -> None:
        super().__init__(tavern, user, channel, stats, in_dm=False)
        self.game_id: int | None = None

    async def create(self, **options: Any) -> Reply:
        """Open a game with ``options`` (settings by option name) as a moderator does:
        ``/mod create`` with those it offers, then, in the lobby, ``/mod settings`` and
        ``/mod house_rules`` with the rest. The ``/mod create`` answer, or the first
        refusal."""
        steps = game_settings.by_command(options)
        reply = await self.command("mod create", steps.pop(game_settings.CREATE, {}))
        if reply.error:
            return reply
        self.game_id = reader.game_id_of(reply.text)
        for command, chosen in steps.items():
            answer = await self.command(f"mod {command}", chosen)
            if answer.error:
                return answer
        return reply

    async def start(self) -> Reply:
        return await self.command("mod start")

    async def status(self) -> Reply:
        return await self.command("mod status")

    async def advance(self) -> Reply:
        """/phase advance; tried again if the bot did not even acknowledge it (a busy
        bot: the moderator presses again, and a repeat is refused as already done)."""
        for _ in range(3):
            reply = await self.command("phase advance")
            if reply.result is None or reply.result.acknowledged:
                break
        return reply
