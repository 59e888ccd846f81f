"""Games read as a list, past the rows of one game (``bot.db.repositories``): a server's
finished games, a page at a time (``/game history``, on ``ix_games_history``), the live
games' places (server and channel, without their state), and the servers a moderator's
DM command asks Discord about."""

from __future__ import annotations

from typing import Any

from sqlalchemy import Select, case, func, select, union
from sqlalchemy.ext.asyncio import AsyncSession

from bot.db.models import Game, GamePlayer, SeatRecord


def finished_games_statement(guild_id: int) -> Select[Any]:
    """The server's finished games, newest first (on the index ``ix_games_history``):
    id, ended at, round, state, end reason."""
    return (
        select(Game.id, Game.ended_at, Game.round, Game.state, Game.end_reason)
        .where(Game.guild_id == guild_id, Game.status == "over")
        .order_by(Game.ended_at.desc(), Game.id.desc())
    )


async def finished_games_count(session: AsyncSession, guild_id: int) -> int:
    count = select(func.count()).select_from(Game).where(Game.guild_id == guild_id, Game.status == "over")
    return int((await session.execute(count)).scalar_one())


async def finished_games_page(session: AsyncSession, guild_id: int, offset: int, limit: int) -> list[Any]:
    """``limit`` of :func:`finished_games_statement`'s rows from ``offset``."""
    return list((await session.execute(finished_games_statement(guild_id).limit(limit).offset(offset))).all())


async def live_game_places(session: AsyncSession, guild_id: int | None = None, guild_ids: list[int] | None = None) -> list[Any]:
    """(id, server, channel) of every live game, oldest first; of one server, or of these."""
    stmt = select(Game.id, Game.guild_id, Game.channel_id).where(Game.active_channel_id.is_not(None))
    if guild_id is not None:
        stmt = stmt.where(Game.guild_id == guild_id)
    if guild_ids is not None:
        stmt = stmt.where(Game.guild_id.in_(guild_ids))
    return list((await session.execute(stmt.order_by(Game.id))).all())


async def servers_with_others_live_games(session: AsyncSession, user_id: int, limit: int) -> list[int]:
    """At most ``limit`` servers with a live game someone else than ``user_id`` created:
    those where the user has played or moderated a game (now or ever) first, then the
    others by their newest live game."""
    known = union(
        select(Game.guild_id).join(GamePlayer, GamePlayer.game_id == Game.id).where(GamePlayer.user_id == user_id),
        select(Game.guild_id).where(Game.moderator_id == user_id),
        select(SeatRecord.guild_id).where(SeatRecord.user_id == user_id),
    ).subquery()
    first = case((Game.guild_id.in_(select(known.c.guild_id)), 0), else_=1)
    stmt = (
        select(Game.guild_id)
        .where(Game.active_channel_id.is_not(None), Game.moderator_id != user_id, Game.guild_id.is_not(None))
        .group_by(Game.guild_id)
        .order_by(func.min(first), func.max(Game.id).desc())
        .limit(limit)
    )
    return [int(g) for g in (await session.scalars(stmt)).all() if g is not None]
