"""What an operator's tools read (``bot.features.ops``): the latest heartbeat of a
connected process and the outbox's stuck messages (``wolfhowl health``), the pending
messages and the live games by phase (the metrics' gauges), and the live and recent
games with what waits for each (``wolfhowl games``). Each a range of an index."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import func, or_, select
from sqlalchemy.ext.asyncio import AsyncSession

from bot.db.models import Game, GamePlayer, OutboxMessage, Process


async def last_connected_beat(session: AsyncSession, host: str | None = None) -> datetime | None:
    """The latest beat of a process (of ``host``, or any) while connected to Discord."""
    stmt = select(func.max(Process.connected_at))
    if host is not None:
        stmt = stmt.where(Process.host == host)
    found: datetime | None = (await session.execute(stmt)).scalar_one_or_none()
    return found


async def overdue_messages(session: AsyncSession, since: datetime) -> tuple[int, datetime | None]:
    """How many pending messages have been due since before ``since``, and the earliest
    such due time."""
    count, oldest = (
        await session.execute(
            select(func.count(), func.min(OutboxMessage.next_attempt_at)).where(
                OutboxMessage.status == "pending", OutboxMessage.next_attempt_at < since
            )
        )
    ).one()
    return int(count), oldest


async def pending_messages(session: AsyncSession) -> tuple[int, datetime | None]:
    """How many messages are pending, and when the oldest was written."""
    count, oldest = (
        await session.execute(select(func.count(), func.min(OutboxMessage.created_at)).where(OutboxMessage.status == "pending"))
    ).one()
    return int(count), oldest


async def live_games_by_phase(session: AsyncSession, statuses: Sequence[str]) -> list[tuple[str, str | None, int]]:
    """(status, phase, games) of the games in ``statuses``."""
    rows = await session.execute(
        select(Game.status, Game.phase, func.count()).where(Game.status.in_(statuses)).group_by(Game.status, Game.phase)
    )
    return [(status, phase, int(n)) for status, phase, n in rows.all()]


async def live_and_recent_games(session: AsyncSession, since: datetime) -> list[Game]:
    """Every live game, and those ended or created since ``since``; newest first."""
    rows = await session.execute(
        select(Game).where(or_(Game.active_channel_id.is_not(None), Game.ended_at >= since, Game.created_at >= since)).order_by(Game.id.desc())
    )
    return list(rows.scalars())


async def waiting_by_game(session: AsyncSession, game_ids: Sequence[int]) -> dict[int, tuple[int, Any]]:
    """For each of these games with pending messages: how many, and the earliest due time."""
    rows = await session.execute(
        select(OutboxMessage.game_id, func.count(), func.min(OutboxMessage.next_attempt_at))
        .where(OutboxMessage.status == "pending", OutboxMessage.game_id.in_(game_ids))
        .group_by(OutboxMessage.game_id)
    )
    return {gid: (n, oldest) for gid, n, oldest in rows.all() if gid is not None}  # (as the WHERE says)


async def players_by_game(session: AsyncSession, game_ids: Sequence[int]) -> dict[int, int]:
    """For each of these games: its players in the lobby or playing."""
    rows = await session.execute(
        select(GamePlayer.game_id, func.count())
        .where(GamePlayer.game_id.in_(game_ids), GamePlayer.status.in_(("lobby", "playing")))
        .group_by(GamePlayer.game_id)
    )
    return {gid: n for gid, n in rows.all()}
