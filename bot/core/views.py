"""What a player may see of their own game: their sheet (class, HP, the states they know
of, whether they hold the grail) and what they have sent this phase. Nothing about any
other seat beyond the public table. And what a moderator may see of the open phase: who
has sent which kinds of submission, never what."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

import engine.view
from bot.core.common import check_id, has_played, info_of, require_running, seats_done, state_of
from bot.core.errors import GameNotFoundError, NoActiveGameError, NotInGameError, PhaseClosedError
from bot.core.rules import decode_state
from bot.core.types import GameInfo, PhaseStatus
from bot.db import repositories as repo
from bot.db.models import Game, GamePlayer
from bot.db.repositories import PlayerRow
from bot.db.session import Database
from bot.features.standbys.queue import standby_list
from engine.view import Sheet


@dataclass(frozen=True, slots=True)
class PlayerView:
    """``sheet`` is None in the lobby. ``sent``: this phase's submissions by kind.
    ``unread``: the player's messages waiting unread in ``/inbox`` (their DMs failed)."""

    game: GameInfo
    seat: int | None
    sheet: Sheet | None
    sent: dict[str, dict[str, Any]]
    unread: int = 0
    # Phases this seat missed: in a row, in all (bot.features.absence.absence).
    misses: tuple[int, int] = (0, 0)

    @property
    def hp(self) -> int | None:
        return None if self.sheet is None else int(self.sheet["hp"])

    @property
    def known_states(self) -> list[str]:
        return [] if self.sheet is None else list(self.sheet["known_states"])

    @property
    def holds_grail(self) -> bool:
        return bool(self.sheet and self.sheet["holds_grail"])

    def require_open(self, round_no: int, phase: str) -> None:
        """Refuse, as the submission itself would be, a menu drawn for ``phase`` of
        ``round_no`` once that phase is no longer open (the game paused or over, or the
        phase closed): a menu that leads to another menu says so at its first step."""
        require_running(self.game)
        if (self.game.round, self.game.phase) != (round_no, phase):
            raise PhaseClosedError(round=round_no, phase=f"phase.{phase}")


async def player_view(db: Database, user_id: int, game_id: int | None = None) -> PlayerView:
    """The caller's own view of ``game_id``, or of their one live game."""
    check_id(user_id, "user")
    async with db.read() as s:
        if game_id is None:
            found = await repo.live_game_of_user_with_unread(s, user_id)
            if found is None:
                raise NoActiveGameError()
        else:
            found = await repo.game_with_unread(s, check_id(game_id, "game"), user_id)
            if found is None:
                raise GameNotFoundError(game_id=game_id)
        return await seat_view(s, *found, user_id)


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


async def player_view_here(db: Database, user_id: int, channel_id: int | None) -> PlayerView:
    """The caller's own view of the game a command is about, in one read: the live game
    of ``channel_id`` (a server channel) when it has one, else the caller's one live game
    (NoActiveGameError when none). The same answer as looking the game up and then
    calling :func:`player_view`, without loading the game twice."""
    check_id(user_id, "user")
    async with db.read() as s:
        found = None
        if channel_id is not None:
            found = await repo.live_game_in_channel_with_unread(s, check_id(channel_id, "channel"), user_id)
        if found is None:
            found = await repo.live_game_of_user_with_unread(s, user_id)
        if found is None:
            raise NoActiveGameError()
        return await seat_view(s, *found, user_id)


async def game_here(s: AsyncSession, user_id: int, channel_id: int | None) -> tuple[Game, GamePlayer | None]:
    """The game a command is about and the caller's place in it: the live game of
    ``channel_id`` (a server channel) when it has one, else the caller's one live game
    (NoActiveGameError when none)."""
    game = None
    if channel_id is not None:
        game = await repo.live_game_in_channel(s, check_id(channel_id, "channel"))
    if game is None:
        m = await repo.live_membership(s, user_id)
        if m is None:
            raise NoActiveGameError()
        game = await repo.get_game(s, m.game_id)
        assert game is not None
        return game, m
    return game, await repo.member(s, game.id, user_id)


async def seat_view(
    s: AsyncSession,
    game: Game | Any,
    unread: int,
    user_id: int,
    *,
    players: Sequence[PlayerRow] | None = None,
    state: engine.GameState | None = None,
    sent: dict[str, dict[str, Any]] | None = None,
) -> PlayerView:
    """The view of ``game`` (an entity or a read-only row) for ``user_id`` (``unread``:
    their unread inbox count), from one read of the game's players and one of the seat's
    submissions (read-only rows). A writing unit of work that has already read or decoded
    some of it passes it: ``players`` (every player row of the game), ``state`` (the
    decoded state), ``sent`` (this phase's submissions of the caller's seat by kind)."""
    if players is None:
        players = await repo.game_players(s, game.id, rows=True)
    m = next((p for p in players if p.user_id == user_id), None)
    if m is None or m.status in ("replaced", "removed"):
        raise NotInGameError(game_id=game.id)
    if state is None and game.state is not None:
        state = decode_state(game)
    info = await info_of(s, game, state, players)
    if state is None or m.seat is None:
        return PlayerView(info, None, None, {})
    if sent is None:
        sent = {}
        if game.status in ("running", "paused") and game.phase:
            for row in await repo.phase_submissions(s, game.id, game.round, game.phase, seat=m.seat, rows=True):
                sent[row.kind] = row.payload
    return PlayerView(info, m.seat, engine.view.sheet(state, m.seat), sent, unread, (m.misses_in_row, m.misses_total))


async def phase_status(db: Database, game_id: int, viewer_id: int | None = None) -> PhaseStatus:
    """The public view of ``game_id`` and, for a running or paused game, the kinds of
    submission each seat has sent in the open phase (kinds only, never their content);
    ``viewer_played``: ``viewer_id`` holds or has held a seat in it (replaced or removed
    since), so knows a seat's class and faction."""
    async with db.read() as s:
        game = await repo.get_game(s, check_id(game_id, "game"))
        if game is None:
            raise GameNotFoundError(game_id=game_id)
        info = await info_of(s, game)
        played = viewer_id is not None and await has_played(s, game.id, check_id(viewer_id, "user"))
        sent: dict[int, list[str]] = {}
        done: set[int] = set()
        if game.status in ("running", "paused") and game.phase:
            for row in await repo.phase_submissions(s, game.id, game.round, game.phase):
                sent.setdefault(row.seat, []).append(row.kind)
            done = await seats_done(s, game.id, game.round, game.phase, state_of(game))
        # AI seats (no user) never miss: only the people at the table are listed.
        misses = {seat: (h.misses_in_row, h.misses_total) for seat, h in (await repo.seat_holders(s, game.id)).items() if h.user_id is not None}
        standbys: tuple[str, ...] = ()
        if game.status in ("lobby", "running", "paused"):
            standbys = tuple(await standby_list(s, game.id))
        return PhaseStatus(
            info, {seat: tuple(kinds) for seat, kinds in sent.items()}, frozenset(done), played, misses, standbys
        )
