"""A lobby's start time: its members are reminded before it; at it the game starts (the
same step as /game start) with enough players, or is cancelled with a notice naming the
standby list; kept in the database, so a scheduler started afresh finds it; bad input
changes nothing."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import select

from bot.core.deadlines import next_wakeup, run_due
from bot.core.errors import BadArgumentError, LobbyClosedError
from bot.core.types import GameSettings
from bot.db import repositories as repo
from bot.db.models import OutboxMessage
from bot.db.session import Database
from bot.discord.loops.scheduler import Scheduler
from bot.features.lobby.games import create_game, get_game, start_game
from bot.features.moderation.moderation import update_settings
from tests.service.helpers import (
    CHANNEL,
    GUILD,
    MODERATOR,
    join_game,
    lobby,
    post_the_lobby,
    sees,
    take_due,
    user,
)


async def _lobby_starting_in(db: Database, seconds: int, players: int, **settings: object) -> int:
    info = await create_game(
        db, guild_id=GUILD, channel_id=CHANNEL, moderator=MODERATOR,
        settings=GameSettings.build(**settings), seed="lobby-clock-1", start_in=seconds,
    )  # fmt: skip
    await post_the_lobby(db, info.id)
    for i in range(1, players + 1):
        await join_game(db, info.id, user(i), await sees(db, info.id, user(i)))
    return info.id


async def test_members_are_reminded_then_the_game_starts_at_its_start_time(db: Database, clock):
    game_id = await _lobby_starting_in(db, 7200, 6, reminder_lead_seconds=1800)
    info = await get_game(db, game_id)
    assert info.start_at == db.now() + timedelta(hours=2)
    assert await next_wakeup(db) == db.now() + timedelta(minutes=90)  # the reminder
    report = await run_due(db)
    assert report.done.get("lobbies", []) == [] and report.reminded == []
    clock.advance(90 * 60)
    report = await run_due(db)
    assert report.reminded == [game_id]
    sent = await take_due(db)
    assert sorted(m.recipient_id for m in sent) == sorted(user(i).id for i in range(1, 7))
    assert {m.payload["type"] for m in sent} == {"lobby_reminder"}
    assert sent[0].payload["count"] == 6 and sent[0].payload["min"] == 6
    assert (await run_due(db)).reminded == []  # once
    assert await next_wakeup(db) == db.now() + timedelta(minutes=30)  # the start
    clock.advance(30 * 60)
    # Nothing in memory: a scheduler started now (after a restart) finds the start time.
    report = await Scheduler(db).tick()
    assert report.done.get("lobbies", []) == [game_id]
    info = await get_game(db, game_id)
    assert info.status == "running" and (info.round, info.phase) == (1, "day") and info.start_at is None
    kinds = [m.payload["type"] for m in await take_due(db)]
    assert kinds.count("sheet") == 6 and "game_started" in kinds and "phase_started" in kinds
    async with db.read() as s:
        assert [st.kind for st in await repo.steps(s, game_id)] == ["start"]
    assert (await run_due(db)).done.get("lobbies", []) == []


async def test_a_lobby_short_of_players_is_cancelled_at_its_start_time(db: Database, clock):
    game_id = await _lobby_starting_in(db, 3600, 4)
    clock.advance(3600)
    assert (await run_due(db)).done.get("lobbies", []) == [game_id]
    info = await get_game(db, game_id)
    assert info.status == "cancelled"
    notices = [m.payload for m in await take_due(db) if m.recipient_kind == "channel"]
    assert notices == [{"game_id": game_id, "type": "game_cancelled", "reason": "not_filled", "count": 4, "min": 6}]
    # The channel is free for another game, the players for other lobbies.
    other = await lobby(db, 6, seed="lobby-clock-2")
    assert other != game_id


async def test_a_reminder_due_with_the_start_is_not_sent(db: Database, clock):
    game_id = await _lobby_starting_in(db, 3600, 6, reminder_lead_seconds=600)
    clock.advance(2 * 86400)  # the bot was down through both
    report = await run_due(db)
    assert report.done.get("lobbies", []) == [game_id]
    assert "lobby_reminder" not in [m.payload["type"] for m in await take_due(db)]


async def test_start_time_in_the_settings_and_its_refusals(db: Database, clock):
    game_id = await lobby(db, 6, seed="lobby-clock-3")
    info = await update_settings(db, game_id, start_in=600)
    assert info.start_at == db.now() + timedelta(seconds=600)
    info = await update_settings(db, game_id, start_in=0)
    assert info.start_at is None
    for bad in (30, 31 * 86400, -5, True):
        with pytest.raises(BadArgumentError):
            await update_settings(db, game_id, start_in=bad)
    assert (await get_game(db, game_id)).start_at is None
    await update_settings(db, game_id, start_in=600)
    await start_game(db, game_id)  # by hand, before the time
    info = await get_game(db, game_id)
    assert info.start_at is None
    with pytest.raises(LobbyClosedError):
        await update_settings(db, game_id, start_in=600)
    clock.advance(3600)
    assert (await run_due(db)).done.get("lobbies", []) == []  # the started game is left alone
    async with db.read() as s:
        cancelled = (await s.execute(select(OutboxMessage).where(OutboxMessage.payload["type"].as_string() == "game_cancelled"))).scalars().all()
    assert cancelled == []


async def test_the_reminder_goes_to_the_humans_of_a_lobby_with_ai_seats(db: Database, clock):
    game_id = await _lobby_starting_in(db, 7200, 4, reminder_lead_seconds=1800, ai_seats=2)
    clock.advance(90 * 60)
    assert (await run_due(db)).reminded == [game_id]
    sent = await take_due(db)
    assert sorted(m.recipient_id for m in sent) == sorted(user(i).id for i in range(1, 5))
    assert {m.recipient_kind for m in sent} == {"user"}
    assert sent[0].payload["count"] == 6  # the AI seats count toward the table
    assert (await run_due(db)).reminded == []  # once
