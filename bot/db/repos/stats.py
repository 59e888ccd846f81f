"""What ``/stats`` and ``/leaderboard`` read: a player's seat records added up, their last
games, their seasons' standings, and a server's boards (the all-time standings or one
season's, a page at a time, with the caller's own row and its place).

Only the finished games' records and the standings (which only a game's end moves) are
read. A board's order is the use case's (``bot.features.stats.leaderboard.ORDERS``),
given here as plain values: the columns in order, each descending or not, the last one
deciding every rank.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Integer, and_, case, false, func, null, or_, select
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import aliased
from sqlalchemy.sql.elements import ColumnElement

from bot.db.models import PlayerProfile, PlayerStanding, Season, SeasonStanding, SeatRecord, User

# A board's order: (column, descending) in order, the last one deciding every rank.
Order = Sequence[tuple[str, bool]]

R = SeatRecord


def _counted(user_id: int, guild_id: int | None) -> list[Any]:
    """The records that count (``ratings.counts``) of one player, in one server or all."""
    where = [R.user_id == user_id, R.ai == false(), R.fate != "replaced"]
    return where if guild_id is None else [*where, R.guild_id == guild_id]


async def records_by_faction_and_class(session: AsyncSession, user_id: int, guild_id: int | None) -> list[Any]:
    """The player's counted records in ``guild_id`` (None: every server) added up by
    faction and class, in the database: a few dozen rows however many games. Each row:
    whether the profile is hidden, the rating in ``guild_id`` (None for every server),
    then faction, class, games, wins, survived, kills, teamkills, steals, grails (the
    first two the same on every row; no row when the player has no record there)."""
    won = func.sum(case((R.result != "loss", 1), else_=0)).cast(Integer)
    survived = func.sum(case((R.fate == "survived", 1), else_=0)).cast(Integer)
    hidden = select(PlayerProfile.hidden).where(PlayerProfile.user_id == user_id).scalar_subquery()
    rating: Any = (
        select(PlayerStanding.rating).where(PlayerStanding.guild_id == guild_id, PlayerStanding.user_id == user_id).scalar_subquery()
        if guild_id is not None
        else null()
    )
    q = (
        select(
            hidden, rating, R.faction, R.class_id, func.count(), won, survived,
            func.sum(R.kills), func.sum(R.teamkills), func.sum(R.steals), func.sum(R.grails),
        )
        .where(*_counted(user_id, guild_id))
        .group_by(R.faction, R.class_id)
    )  # fmt: skip
    return list((await session.execute(q)).all())


async def last_games(session: AsyncSession, user_id: int, guild_id: int | None, limit: int) -> list[Any]:
    """The player's last ``limit`` counted games, newest first: (game id, ended at,
    class, faction, result, fate)."""
    q = (
        select(R.game_id, R.ended_at, R.class_id, R.faction, R.result, R.fate)
        .where(*_counted(user_id, guild_id))
        .order_by(R.ended_at.desc(), R.game_id.desc())
        .limit(limit)
    )
    return list((await session.execute(q)).all())


async def season_standings_of(session: AsyncSession, user_id: int, guild_id: int) -> list[tuple[SeasonStanding, Season]]:
    """The player's standing in each season of the server they played in, with the
    season, the latest first."""
    rows = await session.execute(
        select(SeasonStanding, Season)
        .join(Season, Season.id == SeasonStanding.season_id)
        .where(SeasonStanding.user_id == user_id, Season.guild_id == guild_id)
        .order_by(Season.number.desc())
    )
    return [(standing, season) for standing, season in rows.all()]


@dataclass(frozen=True)
class _Board:
    """The standings a board reads: a server's all-time ones, or one season's."""

    model: Any  # PlayerStanding or SeasonStanding (or an alias of one)
    guild_id: int
    season_id: Any = None  # a season's id, or its column, to compare each row with its own

    def aliased(self) -> _Board:
        return _Board(aliased(self.model), self.guild_id, self.season_id)

    def col(self, name: str) -> Any:
        return getattr(self.model, name)

    def order(self, order: Order) -> list[Any]:
        return [self.col(c).desc() if desc else self.col(c).asc() for c, desc in order]

    def eligible(self, min_games: int | None, profile: Any = PlayerProfile) -> list[ColumnElement[bool]]:
        shown = or_(profile.hidden.is_(None), profile.hidden == false())
        where = [self.col("guild_id") == self.guild_id, shown]
        if self.season_id is not None:
            where.append(self.col("season_id") == self.season_id)
        if min_games is not None:
            where.append(self.col("games") >= min_games)
        return where

    def total(self, where: list[ColumnElement[bool]]) -> Any:
        return (
            select(func.count())
            .select_from(self.model)
            .outerjoin(PlayerProfile, PlayerProfile.user_id == self.col("user_id"))
            .where(*where)
        )

    def base(self, where: list[ColumnElement[bool]]) -> Any:
        return (
            select(self.model, User.display_name)
            .outerjoin(PlayerProfile, PlayerProfile.user_id == self.col("user_id"))
            .outerjoin(User, User.id == self.col("user_id"))
            .where(*where)
        )

    def ahead_of_row(self, order: Order, min_games: int | None) -> Any:
        """How many eligible rows come before the row of the outer query in the order: a
        correlated count, so that the caller's row and its place are one statement."""
        other, profile = self.aliased(), aliased(PlayerProfile)
        ahead = []
        equal: list[ColumnElement[bool]] = []
        for column, desc in order:
            theirs, mine = other.col(column), self.col(column)
            ahead.append(and_(*equal, theirs > mine if desc else theirs < mine))
            equal.append(theirs == mine)
        return (
            select(func.count())
            .select_from(other.model)
            .outerjoin(profile, profile.user_id == other.col("user_id"))
            .where(*other.eligible(min_games, profile), or_(*ahead))
            .correlate(self.model)
            .scalar_subquery()
        )


def _board(guild_id: int, season_id: int | None) -> _Board:
    return _Board(PlayerStanding, guild_id) if season_id is None else _Board(SeasonStanding, guild_id, season_id)


async def board_page(
    session: AsyncSession, guild_id: int, order: Order, *, season_id: int | None = None, min_games: int | None = None,
    page: int, page_size: int,
) -> tuple[list[tuple[Any, str | None]], int]:  # fmt: skip
    """Page ``page`` (from 1) of the server's board in ``order`` (all-time, or the season
    ``season_id``'s; with ``min_games``, only the rows of that many games), hidden profiles
    left out: each row's standing and the player's name, and the board's size. The page
    and the size are one statement (the count computed once, not per row); an empty page
    (beyond the last, an empty board, or a ``page`` below 1) counts alone."""
    board = _board(guild_id, season_id)
    where = board.eligible(min_games)
    found: list[Any] = []
    if page >= 1:
        q = board.base(where).add_columns(board.total(where).scalar_subquery()).order_by(*board.order(order))
        q = q.limit(page_size).offset((page - 1) * page_size)
        found = list((await session.execute(q)).all())
    total = int(found[0][2]) if found else int((await session.execute(board.total(where))).scalar_one())
    return [(standing, name) for standing, name, _ in found], total


async def board_row_of(
    session: AsyncSession, guild_id: int, order: Order, user_id: int, *, season_id: int | None = None, min_games: int | None = None,
) -> tuple[Any, str | None, int] | None:  # fmt: skip
    """The player's row of the board :func:`board_page` reads, and how many rows come
    before it, in one statement; None when they are not on it."""
    board = _board(guild_id, season_id)
    where = board.eligible(min_games)
    mine = board.base([*where, board.col("user_id") == user_id]).add_columns(board.ahead_of_row(order, min_games))
    row = (await session.execute(mine)).first()
    return None if row is None else (row[0], row[1], int(row[2]))


async def ahead_in_each_season(session: AsyncSession, guild_id: int, user_id: int, order: Order) -> dict[int, int]:
    """For each of the server's seasons the player has a shown standing in: how many rows
    come before theirs on that season's board in ``order`` (season id -> count). One
    statement: each of their season rows ranked on its own season's board (the season
    compared with the row's own, a correlated column rather than a number)."""
    board = _Board(SeasonStanding, guild_id, SeasonStanding.season_id)
    where = [*board.eligible(None), SeasonStanding.user_id == user_id]
    found = await session.execute(board.base(where).add_columns(board.ahead_of_row(order, None)))
    return {standing.season_id: int(ahead) for standing, _, ahead in found.all()}
