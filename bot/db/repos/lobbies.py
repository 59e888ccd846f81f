"""A lobby's start time and its reminder (``games.start_at``, ``games.start_reminder_at``:
``bot.features.lobby.clock``): the lobbies due at a scheduler tick and the earliest of
each time, which the scheduler sleeps on. Each a range of its (status, time) index."""

from __future__ import annotations

from collections.abc import Collection
from datetime import datetime
from typing import Any

from sqlalchemy import bindparam, select
from sqlalchemy.ext.asyncio import AsyncSession

from bot.db import repositories as repo
from bot.db.models import Game

# Asked at every scheduler tick, so built once.
_STARTS = select(Game.id).where(Game.status == "lobby", Game.start_at <= bindparam("now")).order_by(Game.start_at, Game.id)
_REMINDERS = (
    select(Game.id)
    .where(Game.status == "lobby", Game.start_reminder_at <= bindparam("now"))
    .order_by(Game.start_reminder_at, Game.id)
)


def due_statements(now: datetime) -> tuple[Any, Any]:
    """The statements :func:`due_lobbies` runs, with ``now`` bound (to explain them)."""
    return _STARTS.params(now=now), _REMINDERS.params(now=now)


async def due_lobbies(session: AsyncSession, now: datetime) -> tuple[list[int], list[int]]:
    """The lobbies whose start time has come and those whose reminder is due at ``now``,
    earliest first."""
    at = {"now": now}
    return list((await session.execute(_STARTS, at)).scalars()), list((await session.execute(_REMINDERS, at)).scalars())


def next_times(held: Collection[int] = ()) -> tuple[Any, Any]:
    """The earliest lobby start time and reminder, as scalar subqueries for a scheduler's
    sleep (``bot.core.deadlines.wakeup_statement``); the games in ``held`` left out."""
    return repo.earliest(Game.start_at, "lobby", held), repo.earliest(Game.start_reminder_at, "lobby", held)
