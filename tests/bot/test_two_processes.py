"""Two bot processes connected with the same token, as in a deploy's overlap (the old bot
still running while the new one starts): Discord sends every interaction to both, the
first to respond to it answers, and the other leaves it alone."""

from __future__ import annotations

import asyncio
import contextlib
import logging

import pytest

from bot.db import repositories as repo
from bot.db.session import Database
from bot.discord import first_response
from bot.discord.client import WolfBot
from tests.bot.conftest import Table, reply_text, start_bot, started_game
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


async def test_a_submission_both_processes_answer_at_once_is_stored_once_and_answered_once(
    table: Table, sqlite_url: str, clock: FakeClock, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A grail number is sent with no acknowledgement first (bot.discord.first_response):
    both processes store it before Discord takes one answer, which is harmless because the
    same number stored twice is the number stored once."""
    monkeypatch.setattr(first_response, "PROMPT_S", 60.0)  # each answer quick, however busy the machine
    game_id = await started_game(table)
    second = WolfBot(table.bot.config, db=Database(sqlite_url, clock=clock))
    task = await start_bot(second, table.emu.token)
    try:
        caplog.set_level(logging.DEBUG, logger="wolfhowl")
        sent = await table.run(table.players[1], "grail", {"number": 42})
        await table.emu.wait_for(
            lambda: any("answered by another process" in r.getMessage() for r in caplog.records) or None,
            10,
            "the other process to stand down",
        )
        assert sent.response_type == 4 and sent.followups == []  # the answer was the first response
        assert [e.code for e in sent.rejected] == [40060]  # the other process's answer
        assert "42" in reply_text(sent)
        async with table.db.read() as session:
            stored = await repo.phase_submissions(session, game_id, 1, "day")
        assert len(stored) == 1 and 42 in stored[0].payload.values()
        problems = [r.getMessage() for r in caplog.records if r.name.startswith("wolfhowl") and r.levelno >= logging.WARNING]
        assert problems == []
    finally:
        await second.close()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(task, 5)
