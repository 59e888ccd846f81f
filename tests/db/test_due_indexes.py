"""The scheduler's and the dispatcher's queries find due work through an index, on SQLite
(EXPLAIN QUERY PLAN) and on PostgreSQL (EXPLAIN), over a table of a few thousand games
(most finished, 500 running, as the planner sees them after ANALYZE): no
statement scans the games. The AI seats' turns due and the next one are a range of the
turns' index, never a scan of the turns (most of them played long ago)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from sqlalchemy import String, event, insert, select, text, type_coerce

from bot.core.processes import STALE
from bot.db import repositories as repo
from bot.db.models import AiTurn, Game, OutboxMessage
from bot.db.repos import ai as ai_repo
from bot.db.repos import lobbies as lobbies_repo
from bot.db.repos import outbox as outbox_repo
from bot.db.session import Database

NOW = datetime(2026, 1, 1, tzinfo=UTC)


@contextmanager
def explaining(db: Database) -> Iterator[None]:
    """Every statement run meanwhile is explained instead of run."""
    prefix = "EXPLAIN QUERY PLAN " if db.dialect == "sqlite" else "EXPLAIN "

    def rewrite(conn: Any, cursor: Any, statement: str, parameters: Any, context: Any, executemany: bool) -> tuple[str, Any]:
        return prefix + statement, parameters

    event.listen(db.engine.sync_engine, "before_cursor_execute", rewrite, retval=True)
    try:
        yield
    finally:
        event.remove(db.engine.sync_engine, "before_cursor_execute", rewrite)


@pytest.fixture
async def games(db: Database) -> Database:
    """1,500 finished games, 500 running (deadlines and reminders over the next days),
    50 lobbies; statistics gathered."""
    rows = []
    for i in range(2050):
        status = "over" if i < 1500 else "running" if i < 2000 else "lobby"
        later = NOW + timedelta(minutes=7 * i)
        rows.append({
            "guild_id": 1 + i % 7, "channel_id": 10_000 + i, "moderator_id": 1, "settings": {}, "language": "en",
            "secret_seed": "s", "seed_sha256": "h", "status": status, "round": 1, "version": 1, "notice_seq": 0,
            "created_at": NOW, "phase_deadline": later if status == "running" else None,
            "reminder_due_at": later - timedelta(minutes=5) if status == "running" else None,
            "start_at": later if status == "lobby" else None, "start_reminder_at": later if status == "lobby" else None,
            "ended_at": NOW if status == "over" else None,
        })  # fmt: skip
    async with db.transaction() as s:
        await s.execute(insert(Game), rows)
        mail = [
            {"idempotency_key": f"k{i}", "game_id": None, "recipient_kind": "user", "recipient_id": 1 + i % 50, "locale": "en",
             "payload": {}, "status": "sent" if i >= 20 else "pending", "attempts": 1, "next_attempt_at": NOW, "created_at": NOW}
            for i in range(1500)
        ]  # fmt: skip
        await s.execute(insert(OutboxMessage), mail)
    async with db.engine.connect() as conn:
        await conn.execute(text("ANALYZE"))
        await conn.commit()
    return db


async def plan(db: Database, stmt: Any) -> str:
    async with db.read() as s:
        conn = await s.connection()
        with explaining(db):
            rows = (await conn.execute(stmt)).all()
    return "\n".join(" ".join(str(x) for x in r) for r in rows)


def scans_games(db: Database, text_plan: str) -> bool:
    if db.dialect == "sqlite":
        return "SCAN games" in text_plan
    return "Seq Scan on games" in text_plan


async def test_due_games_are_two_index_ranges(games: Database) -> None:
    db = games
    found = await plan(db, repo.due_statement(NOW))
    assert "ix_games_status_deadline" in found and "ix_games_status_reminder" in found, found
    assert not scans_games(db, found), found


async def test_the_next_wakeup_is_read_from_the_indexes(games: Database) -> None:
    db = games
    for held in ((), (1, 2, 3)):
        found = await plan(db, repo.next_times_statement(held))
        assert "ix_games_status_deadline" in found and "ix_games_status_reminder" in found, found
        assert not scans_games(db, found), found


async def test_the_lobbies_due_and_their_next_times_are_read_from_the_indexes(games: Database) -> None:
    db = games
    for stmt in lobbies_repo.due_statements(NOW):
        found = await plan(db, stmt)
        assert "ix_games_status_start" in found and not scans_games(db, found), found
    found = await plan(db, select(repo.earliest(Game.start_at, "lobby"), repo.earliest(Game.start_reminder_at, "lobby")))
    assert "ix_games_status_start " in found + " " and "ix_games_status_start_reminder" in found, found


async def test_the_due_outbox_is_read_from_its_index(games: Database) -> None:
    db = games
    found = await plan(db, outbox_repo.due_peek(NOW, timedelta(seconds=STALE)))
    assert "ix_outbox_due" in found, found
    assert "SCAN outbox" not in found and "Seq Scan on outbox" not in found, found


@pytest.fixture
async def turns(games: Database) -> Database:
    """Six AI turns per finished game, all played; per running game two played and two
    planned for the open phase, due over the next days."""
    db = games
    async with db.read() as s:
        rows = (await s.execute(select(Game.id, Game.status).where(Game.status.in_(("over", "running"))))).all()
    turns = []
    for n, (game_id, status) in enumerate(rows):
        for seat in range(1, 7 if status == "over" else 5):
            played = status == "over" or seat <= 2
            turns.append({
                "game_id": game_id, "seat": seat, "round": 1 if played else 2, "phase": "day",
                "due_at": NOW - timedelta(days=1) if played else NOW + timedelta(minutes=7 * n + seat),
                "played_at": NOW - timedelta(days=1) if played else None, "outcome": "sent" if played else None,
            })  # fmt: skip
    async with db.transaction() as s:
        await s.execute(insert(AiTurn), turns)
    async with db.engine.connect() as conn:
        await conn.execute(text("ANALYZE"))
        await conn.commit()
    return db


def scans_turns(db: Database, text_plan: str) -> bool:
    if db.dialect == "sqlite":
        return "SCAN ai_turns" in text_plan
    return "Seq Scan on ai_turns" in text_plan


async def test_the_ai_turns_due_and_the_next_are_read_from_their_index(turns: Database) -> None:
    db = turns
    # (the next one's time read as text: PostgreSQL's EXPLAIN rows are text, not a time)
    nexts = [select(type_coerce(ai_repo.next_turn_time(held), String)) for held in ((), (1, 2, 3))]
    for stmt in (ai_repo.due_turns_statement(NOW), *nexts):
        found = await plan(db, stmt)
        assert "ix_ai_turns_due" in found, found
        assert not scans_turns(db, found) and not scans_games(db, found), found


async def test_the_start_up_look_for_unplanned_turns_probes_their_unique_index(turns: Database) -> None:
    db = turns
    found = await plan(db, ai_repo.unplanned_statement())
    unique = "sqlite_autoindex_ai_turns" if db.dialect == "sqlite" else "uq_ai_turns_game_id_round_phase_seat"
    assert unique in found and not scans_turns(db, found), found
