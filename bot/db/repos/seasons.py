"""A server's seasons (``seasons``), the games counted in each (``season_games``) and what
a season's summary reads at its end: its seat records, its games and its board
(``bot.features.seasons.seasons``)."""

from __future__ import annotations

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from bot.db.models import Season, SeasonGame, SeasonStanding, SeatRecord


async def open_season(session: AsyncSession, guild_id: int) -> Season | None:
    """The server's open season, if any (at most one: a unique index)."""
    return (await session.execute(select(Season).where(Season.open_guild_id == guild_id))).scalar_one_or_none()


async def last_number(session: AsyncSession, guild_id: int) -> int | None:
    """The number of the server's latest season (None: it has had none)."""
    last: int | None = (await session.execute(select(func.max(Season.number)).where(Season.guild_id == guild_id))).scalar_one()
    return last


async def seasons_latest_first(session: AsyncSession, guild_id: int) -> list[Season]:
    return list((await session.execute(select(Season).where(Season.guild_id == guild_id).order_by(Season.number.desc()))).scalars())


async def season_numbered(session: AsyncSession, guild_id: int, number: int) -> Season | None:
    """The server's season ``number`` (0: its latest), if it has one."""
    q = select(Season).where(Season.guild_id == guild_id)
    q = q.order_by(Season.number.desc()).limit(1) if number == 0 else q.where(Season.number == number)
    return (await session.execute(q)).scalar_one_or_none()


async def summarised_seasons(session: AsyncSession) -> list[Season]:
    """Every season with a kept summary (every server's)."""
    return list((await session.execute(select(Season).where(Season.summary.is_not(None)))).scalars())


async def season_seat_records(session: AsyncSession, season_id: int) -> list[SeatRecord]:
    """The seat records of the games counted in the season."""
    rows = await session.execute(
        select(SeatRecord).join(SeasonGame, SeasonGame.game_id == SeatRecord.game_id).where(SeasonGame.season_id == season_id)
    )
    return list(rows.scalars())


async def season_games(session: AsyncSession, season_id: int) -> int:
    """How many games counted in the season."""
    return int((await session.execute(select(func.count()).select_from(SeasonGame).where(SeasonGame.season_id == season_id))).scalar_one())


async def season_board(session: AsyncSession, season_id: int) -> list[SeasonStanding]:
    """The season's standings by rating (then games, then user id), hidden profiles included."""
    rows = await session.execute(
        select(SeasonStanding)
        .where(SeasonStanding.season_id == season_id)
        .order_by(SeasonStanding.rating.desc(), SeasonStanding.games.desc(), SeasonStanding.user_id)
    )
    return list(rows.scalars())
