"""``/leaderboard``: a server's players ranked by rating, wins, win rate or games,
read from the standings (which only a game's end moves), a page at a time. Hidden
profiles are left out; the caller's own row comes with the page when it is elsewhere."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from sqlalchemy import and_, false, func, or_, select
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.sql.elements import ColumnElement

from bot.db.models import PlayerProfile, PlayerStanding, User
from bot.db.session import Database
from bot.service.common import check_id
from bot.service.errors import BadArgumentError
from bot.service.stats_errors import PageOutOfRangeError

PAGE_SIZE = 10
DEFAULT_MIN_GAMES = 5  # to be ranked by win rate
MAX_MIN_GAMES = 1000
S = PlayerStanding
# Each order: (column, descending), last the user id so that every rank is decided.
ORDERS: dict[str, tuple[tuple[Any, bool], ...]] = {
    "rating": ((S.rating, True), (S.games, True), (S.user_id, False)),
    "wins": ((S.wins, True), (S.games, False), (S.user_id, False)),
    "win_rate": ((S.win_rate, True), (S.games, True), (S.user_id, False)),
    "games": ((S.games, True), (S.wins, True), (S.user_id, False)),
}
SORTS = tuple(ORDERS)


@dataclass(frozen=True)
class BoardRow:
    rank: int
    user_id: int
    name: str
    games: int
    wins: int
    win_rate: float
    rating: float


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
    if sort not in ORDERS:
        raise BadArgumentError(field="sort", reason=", ".join(SORTS))
    if not isinstance(page, int) or isinstance(page, bool):
        raise BadArgumentError(field="page", reason="a page number")
    if not isinstance(min_games, int) or isinstance(min_games, bool) or not 1 <= min_games <= MAX_MIN_GAMES:
        raise BadArgumentError(field="min_games", reason=f"1 to {MAX_MIN_GAMES}")


def _eligible(guild_id: int, sort: str, min_games: int) -> list[ColumnElement[bool]]:
    shown = or_(PlayerProfile.hidden.is_(None), PlayerProfile.hidden == false())
    where = [S.guild_id == guild_id, shown]
    if sort == "win_rate":
        where.append(S.games >= min_games)
    return where


def _base(where: list[ColumnElement[bool]]) -> Any:
    return (
        select(S, User.display_name)
        .outerjoin(PlayerProfile, PlayerProfile.user_id == S.user_id)
        .outerjoin(User, User.id == S.user_id)
        .where(*where)
    )


def _row(rank: int, standing: PlayerStanding, name: str | None) -> BoardRow:
    return BoardRow(rank, standing.user_id, name or str(standing.user_id), standing.games, standing.wins, standing.win_rate, standing.rating)


async def _rank_of(s: AsyncSession, where: list[ColumnElement[bool]], sort: str, mine: PlayerStanding) -> int:
    """1 + how many eligible rows come before ``mine`` in the order."""
    ahead = []
    equal: list[ColumnElement[bool]] = []
    for column, desc in ORDERS[sort]:
        value = getattr(mine, column.key)
        ahead.append(and_(*equal, column > value if desc else column < value))
        equal.append(column == value)
    q = (
        select(func.count())
        .select_from(S)
        .outerjoin(PlayerProfile, PlayerProfile.user_id == S.user_id)
        .where(*where, or_(*ahead))
    )
    return 1 + int((await s.execute(q)).scalar_one())


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
    where = _eligible(guild_id, sort, min_games)
    async with db.read() as s:
        total = int(
            (
                await s.execute(
                    select(func.count()).select_from(S).outerjoin(PlayerProfile, PlayerProfile.user_id == S.user_id).where(*where)
                )
            ).scalar_one()
        )
        pages = max(1, math.ceil(total / PAGE_SIZE))
        if not 1 <= page <= pages:
            raise PageOutOfRangeError(page=page, pages=pages)
        order = [c.desc() if desc else c.asc() for c, desc in ORDERS[sort]]
        q = _base(where).order_by(*order).limit(PAGE_SIZE).offset((page - 1) * PAGE_SIZE)
        first = (page - 1) * PAGE_SIZE + 1
        rows = [_row(first + i, st, name) for i, (st, name) in enumerate((await s.execute(q)).all())]
        own = None
        if viewer_id is not None and all(r.user_id != viewer_id for r in rows):
            found = (await s.execute(_base([*where, S.user_id == viewer_id]))).first()
            if found is not None:
                own = _row(await _rank_of(s, where, sort, found[0]), found[0], found[1])
    return Board(guild_id, sort, min_games, page, pages, total, rows, own)
