"""``/leaderboard``: a server's players ranked by rating, wins, win rate or games,
read from the standings (which only a game's end moves), a page at a time. Hidden
profiles are left out; the caller's own row comes with the page when it is elsewhere."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from sqlalchemy import and_, false, func, or_, select
from sqlalchemy.orm import aliased
from sqlalchemy.sql.elements import ColumnElement

from bot.db.models import PlayerProfile, PlayerStanding, User
from bot.db.session import Database
from bot.service import policy, predictions
from bot.service.common import check_id
from bot.service.errors import BadArgumentError
from bot.service.policy import Standing
from bot.service.stats_errors import PageOutOfRangeError

PAGE_SIZE = 10
DEFAULT_MIN_GAMES = 5  # to be ranked by win rate
MAX_MIN_GAMES = 1000
# The last page asked for: a million players on one server's board. A page beyond it
# would only be refused after a query, and one of 20 digits overflows SQLite's integers
# in the OFFSET.
MAX_PAGE = 100_000
S = PlayerStanding
# Each order: (column, descending), last the user id so that every rank is decided.
ORDERS: dict[str, tuple[tuple[Any, bool], ...]] = {
    "rating": ((S.rating, True), (S.games, True), (S.user_id, False)),
    "wins": ((S.wins, True), (S.games, False), (S.user_id, False)),
    "win_rate": ((S.win_rate, True), (S.games, True), (S.user_id, False)),
    "games": ((S.games, True), (S.wins, True), (S.user_id, False)),
}
# ``predictions``: the gallery's forecasters by their mean Brier score over their scored
# games (bot.service.predictions), from ``min_games`` games on.
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


def _check(sort: Any, page: Any, min_games: Any) -> None:
    if sort not in SORTS:
        raise BadArgumentError(field="sort", reason=", ".join(SORTS))
    if not isinstance(page, int) or isinstance(page, bool) or page > MAX_PAGE:
        raise BadArgumentError(field="page", reason=f"1 to {MAX_PAGE}")
    if not isinstance(min_games, int) or isinstance(min_games, bool) or not 1 <= min_games <= MAX_MIN_GAMES:
        raise BadArgumentError(field="min_games", reason=f"1 to {MAX_MIN_GAMES}")


def _eligible(guild_id: int, sort: str, min_games: int, standing: Any = S, profile: Any = PlayerProfile) -> list[ColumnElement[bool]]:
    shown = or_(profile.hidden.is_(None), profile.hidden == false())
    where = [standing.guild_id == guild_id, shown]
    if sort == "win_rate":
        where.append(standing.games >= min_games)
    return where


def _total(where: list[ColumnElement[bool]]) -> Any:
    return select(func.count()).select_from(S).outerjoin(PlayerProfile, PlayerProfile.user_id == S.user_id).where(*where)


def _base(where: list[ColumnElement[bool]]) -> Any:
    return (
        select(S, User.display_name)
        .outerjoin(PlayerProfile, PlayerProfile.user_id == S.user_id)
        .outerjoin(User, User.id == S.user_id)
        .where(*where)
    )


def _row(rank: int, standing: PlayerStanding, name: str | None) -> BoardRow:
    return BoardRow(rank, standing.user_id, name or str(standing.user_id), standing.games, standing.wins, standing.win_rate, standing.rating)


def _ahead_of_row(guild_id: int, sort: str, min_games: int) -> Any:
    """How many eligible rows come before the row of the outer query's ``S`` in the
    order: a correlated count, so that the caller's row and its place are one statement."""
    other, profile = aliased(PlayerStanding), aliased(PlayerProfile)
    ahead = []
    equal: list[ColumnElement[bool]] = []
    for column, desc in ORDERS[sort]:
        theirs, mine = getattr(other, column.key), getattr(S, column.key)
        ahead.append(and_(*equal, theirs > mine if desc else theirs < mine))
        equal.append(theirs == mine)
    return (
        select(func.count())
        .select_from(other)
        .outerjoin(profile, profile.user_id == other.user_id)
        .where(*_eligible(guild_id, sort, min_games, other, profile), or_(*ahead))
        .correlate(S)
        .scalar_subquery()
    )


async def leaderboard(
    db: Database,
    guild_id: int,
    sort: str = "rating",
    page: int = 1,
    *,
    min_games: int = DEFAULT_MIN_GAMES,
    viewer_id: int | None = None,
) -> Board:
    """Page ``page`` (from 1) of the server's board ordered by ``sort`` (rating, wins,
    win_rate, games; ranking by win rate needs ``min_games`` games). A page beyond the
    last is PageOutOfRangeError; an empty board has one empty page."""
    check_id(guild_id, "guild")
    _check(sort, page, min_games)
    if sort == "predictions":
        return await _forecasters_board(db, guild_id, page, min_games, viewer_id)
    where = _eligible(guild_id, sort, min_games)
    async with db.read() as s:
        # The page and the board's size in one statement (the count is computed once,
        # not per row); an empty page (beyond the last, or an empty board) counts alone.
        order = [c.desc() if desc else c.asc() for c, desc in ORDERS[sort]]
        q = _base(where).add_columns(_total(where).scalar_subquery()).order_by(*order).limit(PAGE_SIZE).offset(max(0, page - 1) * PAGE_SIZE)
        found = (await s.execute(q)).all() if page >= 1 else []
        total = int(found[0][2]) if found else int((await s.execute(_total(where))).scalar_one())
        pages = max(1, math.ceil(total / PAGE_SIZE))
        if not 1 <= page <= pages:
            raise PageOutOfRangeError(page=page, pages=pages)
        first = (page - 1) * PAGE_SIZE + 1
        rows = [_row(first + i, st, name) for i, (st, name, _) in enumerate(found)]
        own = None
        if viewer_id is not None and all(r.user_id != viewer_id for r in rows):
            mine = _base([*where, S.user_id == viewer_id]).add_columns(_ahead_of_row(guild_id, sort, min_games))
            row = (await s.execute(mine)).first()
            if row is not None:
                own = _row(1 + int(row[2]), row[0], row[1])
    return Board(guild_id, sort, min_games, page, pages, total, rows, own)


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


async def board_for(db: Database, standing: Standing, guild_id: int, sort: str = "rating", page: int = 1, *, min_games: int = DEFAULT_MIN_GAMES) -> Board:
    """:func:`leaderboard` for one who asked on Discord (the command, its page
    buttons): a server's board is for its members (the access policy's ``see_board``),
    whatever server id a button carried."""
    check_id(guild_id, "guild")
    policy.require_board(standing, guild_id)
    return await leaderboard(db, guild_id, sort, page, min_games=min_games, viewer_id=standing.user_id)
