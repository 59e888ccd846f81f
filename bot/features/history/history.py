"""A server's finished games, newest first, a page at a time (``/game history``).

Only games that are over are read: their winners and the players' names are the end's
public facts. A live game is never listed, so nothing here can tell its secrets. The
query runs on the ``(guild_id, status, ended_at)`` index of ``games``."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from bot.core import policy
from bot.core.errors import BadArgumentError
from bot.core.policy import Action, Standing
from bot.core.types import check_id
from bot.db.repos import games as games_repo
from bot.db.session import Database

PAGE_SIZE = 10


@dataclass(frozen=True, slots=True)
class FinishedGame:
    id: int
    ended_at: datetime | None
    rounds: int
    players: tuple[str, ...]  # by seat, as the end revealed them
    winners: tuple[str, ...]  # factions
    end_reason: str | None


@dataclass(frozen=True, slots=True)
class HistoryPage:
    games: tuple[FinishedGame, ...]
    page: int  # from 1
    pages: int  # at least 1
    total: int


async def game_history(db: Database, standing: Standing, guild_id: int, page: int = 1, per_page: int = PAGE_SIZE) -> HistoryPage:
    """Page ``page`` of the server's games that are over, the last ended first, for one
    the access policy lets see the server's board (``see_board``: a member, ``standing``
    being what Discord says of them there), whatever server id a button carried. A page
    beyond the last is refused (a stale button after games were deleted says so)."""
    check_id(guild_id, "server")
    policy.require(Action.SEE_BOARD, standing, policy.Server(guild_id))
    async with db.read() as s:
        total = await games_repo.finished_games_count(s, guild_id)
        pages = max(1, -(-total // per_page))
        if not 1 <= page <= pages:
            raise BadArgumentError(field="page", reason=f"1 to {pages}")
        rows = await games_repo.finished_games_page(s, guild_id, (page - 1) * per_page, per_page)
    games = tuple(
        FinishedGame(
            id=gid,
            ended_at=ended,
            rounds=rounds,
            players=tuple(str(p["name"]) for p in (state or {}).get("players", [])),
            winners=tuple((state or {}).get("winners", [])),
            end_reason=reason,
        )
        for gid, ended, rounds, state, reason in rows
    )
    return HistoryPage(games=games, page=page, pages=pages, total=total)
