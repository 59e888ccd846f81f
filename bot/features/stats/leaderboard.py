"""``/leaderboard``: a server's players ranked by rating, wins, win rate or games,
read from the standings (which only a game's end moves), a page at a time, all-time or
in one of the server's seasons (``bot.features.seasons.seasons``). Hidden profiles are left out;
the caller's own row comes with the page when it is elsewhere."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from bot.core import policy
from bot.core.errors import BadArgumentError
from bot.core.policy import Standing
from bot.core.types import check_id
from bot.db.models import PlayerStanding, SeasonStanding
from bot.db.repos import stats as stats_repo
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


def _min_games(sort: str, min_games: int) -> int | None:
    """The games a row needs to be on the board: ``min_games`` ranking by win rate, else none."""
    return min_games if sort == "win_rate" else None


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
        season_id, least = None if found_season is None else found_season.id, _min_games(sort, min_games)
        found, total = await stats_repo.board_page(
            s, guild_id, ORDERS[sort], season_id=season_id, min_games=least, page=page, page_size=PAGE_SIZE
        )
        pages = max(1, math.ceil(total / PAGE_SIZE))
        if not 1 <= page <= pages:
            raise PageOutOfRangeError(page=page, pages=pages)
        first = (page - 1) * PAGE_SIZE + 1
        rows = [_row(first + i, st, name) for i, (st, name) in enumerate(found)]
        own = None
        if viewer_id is not None and all(r.user_id != viewer_id for r in rows):
            mine = await stats_repo.board_row_of(s, guild_id, ORDERS[sort], viewer_id, season_id=season_id, min_games=least)
            if mine is not None:
                own = _row(1 + mine[2], mine[0], mine[1])
    return Board(guild_id, sort, min_games, page, pages, total, rows, own, found_season)


async def season_places(s: AsyncSession, guild_id: int, user_id: int) -> dict[int, int]:
    """The player's place on the rating board of each of the server's seasons they played
    in (season id -> rank, as the board shows it); none while their profile is hidden."""
    ahead = await stats_repo.ahead_in_each_season(s, guild_id, user_id, ORDERS["rating"])
    return {season_id: 1 + n for season_id, n in ahead.items()}


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
