"""What a player may see of their own game: their sheet (class, HP, the states they know
of, whether they hold the grail) and what they have sent this phase. Nothing about any
other seat beyond the public table."""

from __future__ import annotations

from bot.core import table
from bot.core.errors import GameNotFoundError, NotInGameError, PhaseClosedError
from bot.core.table import Caller, Place
from bot.core.types import GameInfo, PlayerView, check_id, require_running
from bot.db import repositories as repo
from bot.db.session import Database


async def game_info(db: Database, place: Place, *, moderating: bool = False, caller: Caller | None = None) -> GameInfo:
    """The public view of the game ``place`` is about (a moderator's, ``moderating``)."""
    async with table.at(db, place, writing=False, moderating=moderating, caller=caller) as t:
        return await t.info()


async def view_at(db: Database, place: Place) -> PlayerView:
    """The caller's own view of the game ``place`` is about."""
    async with table.at(db, place, writing=False) as t:
        return await t.view()


async def player_view(db: Database, user_id: int, game_id: int | None = None, channel_id: int | None = None) -> PlayerView:
    """The caller's own view of ``game_id``; without it, of the live game of
    ``channel_id`` (a server channel) when it has one, else of their one live game."""
    async with table.at(db, Place.of(user_id, channel_id=channel_id, game_id=game_id), writing=False) as t:
        return await t.view()


async def require_open_for(db: Database, user_id: int, game_id: int, round_no: int, phase: str) -> None:
    """Refuse as :func:`player_view` then :meth:`PlayerView.require_open` would (no such
    game, not in it, not running, another phase open), from one read of the game's
    phase and the caller's place, without loading the game's state."""
    check_id(user_id, "user")
    async with db.read() as s:
        row = await repo.phase_and_place(s, check_id(game_id, "game"), user_id)
    if row is None:
        raise GameNotFoundError(game_id=game_id)
    if row.place is None or row.place in ("replaced", "removed"):
        raise NotInGameError(game_id=game_id)
    require_running(row)  # (its id and status)
    if (row.round, row.phase) != (round_no, phase):
        raise PhaseClosedError(round=round_no, phase=f"phase.{phase}")
