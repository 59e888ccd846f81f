"""``/leaderboard``: a server's players ranked by rating, wins, win rate or games,
read from the standings (which only a game's end moves), a page at a time, all-time or
in one of the server's seasons (``bot.features.seasons.seasons``). Hidden profiles are left out;
the caller's own row comes with the page when it is elsewhere."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from sqlalchemy import and_, false, func, or_, select
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import aliased
from sqlalchemy.sql.elements import ColumnElement

from bot.core import policy
from bot.core.errors import BadArgumentError
from bot.core.policy import Standing
from bot.core.types import check_id
from bot.db.models import PlayerProfile, PlayerStanding, SeasonStanding, User
from bot.db.session import Database
from bot.features.gallery import predictions
from bot.features.seasons.seasons import SeasonInfo, season_numbered
from bot.features.stats.errors import PageOutOfRangeError

PAGE_SIZE = 10
DEFAULT_MIN_GAMES = 5  # to be ranked by win rate
MAX_MIN_GAMES = 1000
# The last page asked for: a million players on one server's board. A page beyond it
# would only be refused after a query, and one of 20 digits overflows SQLite's integers
# in the OFFSET.
MAX_PAGE = 100_000
# Each order: (column, descending), last the user id so that every rank is decided.
ORDERS: dict[str, tuple[tuple[str, bool], ...]] = {
    "rating": (("rating", True), ("games", True), ("user_id", False)),
    "wins": (("wins", True), ("games", False), ("user_id", False)),
    "win_rate": (("win_rate", True), ("games", True), ("user_id", False)),
    "games": (("games", True), ("wins", True), ("user_id", False)),
}
# ``predictions``: the gallery's forecasters by their mean Brier score over their scored
# games (bot.features.gallery.predictions), from ``min_games`` games on.
SORTS = (*ORDERS, "predictions")


@dataclass(frozen=True)
class BoardRow:
    rank: int
    user_id: int
    name: str
    games: int
    wins: int
    win_rate: float
    rating: float
    brier: float | None = None  # the predictions board's mean Brier score


@dataclass(frozen=True)
class Board:
    guild_id: int
    sort: str
    min_games: int
    page: int
    pages: int
    total: int
    rows: list[BoardRow]
    own: BoardRow | None  # the caller's row when it is not on this page
    season: SeasonInfo | None = None  # None: all-time


def _check(sort: Any, page: Any, min_games: Any) -> None:
    if sort not in SORTS:
        raise BadArgumentError(field="sort", reason=", ".join(SORTS))
    if not isinstance(page, int) or isinstance(page, bool) or page > MAX_PAGE:
        raise BadArgumentError(field="page", reason=f"1 to {MAX_PAGE}")
    if not isinstance(min_games, int) or isinstance(min_games, bool) or not 1 <= min_games <= MAX_MIN_GAMES:
        raise BadArgumentError(field="min_games", reason=f"1 to {MAX_MIN_GAMES}")


@dataclass(frozen=True)
class _Table:
    """The standings a board reads: a server's all-time ones, or one season's."""

    model: Any  # PlayerStanding or SeasonStanding (or an alias of one)
    guild_id: int
    season_id: Any = None  # a season's id, or its column, to compare each row with its own

    def aliased(self) -> _Table:
        return _Table(aliased(self.model), self.guild_id, self.season_id)

    def col(self, name: str) -> Any:
        return getattr(self.model, name)

    def order(self, sort: str) -> list[Any]:
        return [self.col(c).desc() if desc else self.col(c).asc() for c, desc in ORDERS[sort]]

    def eligible(self, sort: str, min_games: int, profile: Any = PlayerProfile) -> list[ColumnElement[bool]]:
        shown = or_(profile.hidden.is_(None), profile.hidden == false())
        where = [self.col("guild_id") == self.guild_id, shown]
        if self.season_id is not None:
            where.append(self.col("season_id") == self.season_id)
        if sort == "win_rate":
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

    def ahead_of_row(self, sort: str, min_games: int) -> Any:
        """How many eligible rows come before the row of the outer query in the order: a
        correlated count, so that the caller's row and its place are one statement."""
        other, profile = self.aliased(), aliased(PlayerProfile)
        ahead = []
        equal: list[ColumnElement[bool]] = []
        for column, desc in ORDERS[sort]:
            theirs, mine = other.col(column), self.col(column)
            ahead.append(and_(*equal, theirs > mine if desc else theirs < mine))
            equal.append(theirs == mine)
        return (
            select(func.count())
            .select_from(other.model)
            .outerjoin(profile, profile.user_id == other.col("user_id"))
            .where(*other.eligible(sort, min_games, profile), or_(*ahead))
            .correlate(self.model)
            .scalar_subquery()
        )


def _row(rank: int, standing: PlayerStanding | SeasonStanding, name: str | None) -> BoardRow:
    return BoardRow(rank, standing.user_id, name or str(standing.user_id), standing.games, standing.wins, standing.win_rate, standing.rating)


async def leaderboard(
    db: Database,
    guild_id: int,
    sort: str = "rating",
    page: int = 1,
    *,
    min_games: int = DEFAULT_MIN_GAMES,
    viewer_id: int | None = None,
    season: int | None = None,
) -> Board:
    """Page ``page`` (from 1) of the server's board ordered by ``sort`` (rating, wins,
    win_rate, games; ranking by win rate needs ``min_games`` games), all-time or (with
    ``season``: its number, 0 for the latest) in one season. A page beyond the last is
    PageOutOfRangeError; an empty board has one empty page."""
    check_id(guild_id, "guild")
    _check(sort, page, min_games)
    if sort == "predictions":
        if season is not None:
            raise BadArgumentError(field="season", reason="the predictions board is all-time")
        return await _forecasters_board(db, guild_id, page, min_games, viewer_id)
    async with db.read() as s:
        found_season = None if season is None else SeasonInfo.of(await season_numbered(s, guild_id, season))
        table = _Table(PlayerStanding, guild_id) if found_season is None else _Table(SeasonStanding, guild_id, found_season.id)
        where = table.eligible(sort, min_games)
        # The page and the board's size in one statement (the count is computed once,
        # not per row); an empty page (beyond the last, or an empty board) counts alone.
        q = table.base(where).add_columns(table.total(where).scalar_subquery()).order_by(*table.order(sort))
        q = q.limit(PAGE_SIZE).offset(max(0, page - 1) * PAGE_SIZE)
        found = (await s.execute(q)).all() if page >= 1 else []
        total = int(found[0][2]) if found else int((await s.execute(table.total(where))).scalar_one())
        pages = max(1, math.ceil(total / PAGE_SIZE))
        if not 1 <= page <= pages:
            raise PageOutOfRangeError(page=page, pages=pages)
        first = (page - 1) * PAGE_SIZE + 1
        rows = [_row(first + i, st, name) for i, (st, name, _) in enumerate(found)]
        own = None
        if viewer_id is not None and all(r.user_id != viewer_id for r in rows):
            mine = table.base([*where, table.col("user_id") == viewer_id]).add_columns(table.ahead_of_row(sort, min_games))
            row = (await s.execute(mine)).first()
            if row is not None:
                own = _row(1 + int(row[2]), row[0], row[1])
    return Board(guild_id, sort, min_games, page, pages, total, rows, own, found_season)


async def season_places(s: AsyncSession, guild_id: int, user_id: int) -> dict[int, int]:
    """The player's place on the rating board of each of the server's seasons they played
    in (season id -> rank, as the board shows it); none while their profile is hidden."""
    # One statement: each of their season rows ranked on its own season's board (the
    # season compared with the row's own, a correlated column rather than a number).
    table = _Table(SeasonStanding, guild_id, SeasonStanding.season_id)
    where = [*table.eligible("rating", 1), SeasonStanding.user_id == user_id]
    found = await s.execute(table.base(where).add_columns(table.ahead_of_row("rating", 1)))
    return {standing.season_id: 1 + int(ahead) for standing, _, ahead in found.all()}


async def _forecasters_board(db: Database, guild_id: int, page: int, min_games: int, viewer_id: int | None) -> Board:
    """The predictions board: ranked in Python from the predictions of the server's
    finished games (a read model over stored rows, as the standings are)."""
    async with db.read() as s:
        ranked = await predictions.forecasters(s, guild_id, min_games)
    rows = [BoardRow(i, u, name or f"<@{u}>", games, 0, 0.0, 0.0, brier) for i, (u, name, games, brier) in enumerate(ranked, 1)]
    total = len(rows)
    pages = max(1, math.ceil(total / PAGE_SIZE))
    if not 1 <= page <= pages:
        raise PageOutOfRangeError(page=page, pages=pages)
    shown = rows[(page - 1) * PAGE_SIZE : page * PAGE_SIZE]
    own = next((r for r in rows if r.user_id == viewer_id and r not in shown), None)
    return Board(guild_id, "predictions", min_games, page, pages, total, shown, own)


async def board_for(
    db: Database, standing: Standing, guild_id: int, sort: str = "rating", page: int = 1, *,
    min_games: int = DEFAULT_MIN_GAMES, season: int | None = None,
) -> Board:  # fmt: skip
    """:func:`leaderboard` for one who asked on Discord (the command, its page
    buttons): a server's board is for its members (the access policy's ``see_board``),
    whatever server id a button carried."""
    check_id(guild_id, "guild")
    policy.require(policy.Action.SEE_BOARD, standing, policy.Server(guild_id))
    return await leaderboard(db, guild_id, sort, page, min_games=min_games, viewer_id=standing.user_id, season=season)
