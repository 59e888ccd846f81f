"""Which games' Discord side lags their state (``games.effects_due``, counted up by every
change: ``bot.db.effects``), for the bot's reconciler (``bot.core.effects``): the games
due whose channel posts are all out, their marks cleared as of a count, and marks set
on purpose."""

from __future__ import annotations

from collections.abc import Collection, Sequence

from sqlalchemy import exists, func, select, tuple_, update
from sqlalchemy.ext.asyncio import AsyncSession

from bot.db.models import Game, OutboxMessage


async def games_due(session: AsyncSession, limit: int, skip: Collection[int] = ()) -> list[tuple[int, int]]:
    """Up to ``limit`` (game id, changes) marked and with no channel post pending, in id
    order, the games in ``skip`` left out. One indexed read."""
    waiting = exists().where(
        OutboxMessage.game_id == Game.id,
        OutboxMessage.status == "pending",
        OutboxMessage.recipient_kind == "channel",
    )
    stmt = select(Game.id, Game.effects_due).where(Game.effects_due.is_not(None), ~waiting)
    if skip:
        stmt = stmt.where(Game.id.not_in(list(skip)))
    stmt = stmt.order_by(Game.id).limit(limit)
    return [(g, n) for g, n in (await session.execute(stmt)).all() if n is not None]  # (as the WHERE says)


async def clear_marks(session: AsyncSession, done: Sequence[tuple[int, int]]) -> int:
    """Clear the mark of each (game id, changes) whose count is still that; how many were
    cleared. One statement."""
    res = await session.execute(
        update(Game)
        .where(tuple_(Game.id, Game.effects_due).in_(done))
        .values(effects_due=None)
        .execution_options(synchronize_session=False)
    )
    return int(getattr(res, "rowcount", 0) or 0)


async def count_up_marks(session: AsyncSession, game_ids: list[int]) -> list[tuple[int, int | None]]:
    """Count up these games' marks; (game id, mark) of each as it is now."""
    stmt = (
        update(Game)
        .where(Game.id.in_(game_ids))
        .values(effects_due=func.coalesce(Game.effects_due, 0) + 1)
        .returning(Game.id, Game.effects_due)
        .execution_options(synchronize_session=False)
    )
    return [(g, n) for g, n in (await session.execute(stmt)).all()]


async def mark_due(session: AsyncSession, game_ids: list[int] | None) -> int:
    """Count up the marks of these games (None: of every live one); how many."""
    stmt = update(Game).values(effects_due=func.coalesce(Game.effects_due, 0) + 1)
    stmt = stmt.where(Game.id.in_(game_ids)) if game_ids is not None else stmt.where(Game.active_channel_id.is_not(None))
    res = await session.execute(stmt)
    return int(getattr(res, "rowcount", 0) or 0)
