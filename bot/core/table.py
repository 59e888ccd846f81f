"""One request's table: the game a request is about, found once and locked once, and what
its use cases read of it (the state, the seats, the phase's submissions, the caller's
row), each read once and kept for the rest of the unit of work.

A request names a :class:`Place`: who asks, from which server and channel (none: a DM),
and the game when it names one (a button's, ``/mod log 12``). :func:`at` opens one unit
of work on the game the place is about: the named game; else the live game of the server
channel; else, for a player, their one live game, and for a moderator in a DM the one
live game they moderate. What only Discord can say of the caller (a
:class:`~bot.core.policy.Standing`) comes with the place when the request was sent in the
game's own server (the interaction itself carries it: no request to Discord), else from
the :class:`Caller` the Discord layer hands over, asked at most once per request.

Use cases receive the :class:`Table` and never look the game up again. In a writing unit
the game row is locked first (the concurrency rule of the whole service: see
``bot.db.repositories``) and the players are entities a use case may change; a read
takes rows, which cost a fraction of an entity.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Protocol

from sqlalchemy.ext.asyncio import AsyncSession

import engine
import engine.view
from bot import log_context
from bot.core import lineup_odds
from bot.core.errors import (
    GameNotFoundError,
    GameNotRunningError,
    NoActiveGameError,
    NotInGameError,
    WordedError,
)
from bot.core.outbox import Mail
from bot.core.policy import Action, GameLike, Standing, require
from bot.core.rules import decode_state
from bot.core.types import (
    GameInfo,
    GameSettings,
    PlayerView,
    SeatInfo,
    UserRef,
    check_id,
)
from bot.db import repositories as repo
from bot.db.models import GamePlayer
from bot.db.repos import games as games_repo
from bot.db.session import Database

# At most this many servers are asked about one moderator's command sent from a DM (each
# may be a request to Discord): see ``repos.games.servers_with_others_live_games``.
SERVERS_ASKED_FROM_A_DM = 25


@dataclass(frozen=True, slots=True)
class Place:
    """Where a request comes from and what it names: who asks; the server and channel it
    was sent in (``guild_id`` None: a DM, or a practice game's); the game it names, when
    it names one; and ``here``, what the interaction itself says of the caller in
    ``guild_id`` (a member, whether they see ``channel_id``, whether they moderate), when
    it was sent in a server."""

    user: UserRef
    guild_id: int | None = None
    channel_id: int | None = None
    game_id: int | None = None
    here: Standing | None = None

    @classmethod
    def of(cls, user_id: int, *, channel_id: int | None = None, game_id: int | None = None, guild_id: int | None = None) -> Place:
        """A place known by ids alone (a tool's, a test's)."""
        return cls(UserRef(user_id, str(user_id)), guild_id, channel_id, game_id)


class Caller(Protocol):
    """What only Discord can say of the caller, asked by the table when the request was
    not sent in the game's own server (a DM), at most once per request."""

    async def standing(self, game: GameLike) -> Standing:
        """The caller's standing in ``game``'s server and channel."""
        ...

    async def moderates_in(self, guild_ids: Sequence[int]) -> frozenset[int]:
        """Those of ``guild_ids`` where the caller is a moderator."""
        ...


@dataclass(slots=True, eq=False)
class Table:
    """The game one request is about, with what its use cases read of it, each read once.
    ``writing``: the game row is locked and its players are entities; else rows."""

    session: AsyncSession
    game: Any  # a Game entity (writing) or a read-only row of its columns
    now: datetime
    place: Place | None = None
    writing: bool = False
    caller: Caller | None = None
    unread: int = 0  # the caller's unread inbox count, when asked with the game
    # The players as read-only rows even in a writing unit (one that changes no player).
    player_rows: bool = False
    _state: engine.GameState | None = field(default=None, init=False)
    _settings: GameSettings | None = field(default=None, init=False)
    _players: list[Any] | None = field(default=None, init=False)
    _phase_rows: list[Any] | None = field(default=None, init=False)
    _standing: Standing | None = field(default=None, init=False)
    _locales: dict[int, str | None] | None = field(default=None, init=False)

    def __post_init__(self) -> None:
        # An interaction being answered is about this game from now on: its log lines name it.
        log_context.note_game(self.game.id)

    @property
    def id(self) -> int:
        return int(self.game.id)

    # -- what the game holds, decoded once ------------------------------------------------

    @property
    def state(self) -> engine.GameState:
        """The game's state (GameNotRunningError in the lobby)."""
        if self._state is None:
            if self.game.state is None:
                raise GameNotRunningError(game_id=self.game.id)
            self._state = decode_state(self.game)
        return self._state

    @property
    def dealt(self) -> bool:
        return self.game.state is not None

    @property
    def settings(self) -> GameSettings:
        if self._settings is None:
            self._settings = GameSettings.model_validate(self.game.settings)
        return self._settings

    def apply(self, state: engine.GameState) -> None:
        """The game moves to ``state`` (the table's decoded state with it)."""
        self.game.state = state.to_dict()
        self.game.round = state.round
        self.game.phase = state.phase.value
        self._state = state

    def settings_changed(self) -> None:
        """The game's settings were written anew."""
        self._settings = None

    # -- the players, read once --------------------------------------------------------

    async def players(self) -> list[Any]:
        """Every player row of the game (lobby, seated, replaced, removed…), in id order:
        entities in a writing unit, read-only rows else."""
        if self._players is None:
            if self.writing and not self.player_rows:
                self._players = list(await repo.game_players(self.session, self.game.id))
            else:
                self._players = list(await repo.game_players(self.session, self.game.id, rows=True))
        return self._players

    def joined(self, player: GamePlayer) -> None:
        """A player row the unit of work added (a join, a newcomer, an AI seat)."""
        self.session.add(player)
        if self._players is not None:
            self._players.append(player)

    async def left(self, player: GamePlayer) -> None:
        """A player row the unit of work deletes (one who left the lobby)."""
        await self.session.delete(player)
        if self._players is not None:
            self._players.remove(player)

    async def holders(self) -> dict[int, Any]:
        """Seat -> the player holding it now."""
        return {p.seat: p for p in await self.players() if p.seat is not None}

    async def lobby(self) -> list[Any]:
        """The lobby's members in the order they joined (which becomes the seat order)."""
        return sorted((p for p in await self.players() if p.status == "lobby"), key=lambda p: (p.joined_at, p.id))

    async def member(self, user_id: int) -> Any | None:
        """``user_id``'s row in the game, if any."""
        return next((p for p in await self.players() if p.user_id == user_id), None)

    async def caller_row(self) -> Any | None:
        """The caller's row in the game, if any."""
        return None if self.place is None else await self.member(self.place.user.id)

    async def has_played(self, user_id: int) -> bool:
        """Whether ``user_id`` holds or has held a seat of the game (replaced or removed
        since): a player, who may learn of the other seats only what the table learns."""
        row = await self.member(user_id)
        return row is not None and (row.seat is not None or row.former_seat is not None)

    async def locales(self) -> dict[int, str | None]:
        """The recorded language of each person holding a seat."""
        if self._locales is None:
            ids = [p.user_id for p in (await self.holders()).values() if p.user_id is not None]
            self._locales = await repo.user_locales(self.session, ids)
        return self._locales

    # -- the open phase --------------------------------------------------------------------

    async def phase_rows(self) -> list[Any]:
        """Every submission stored in the open phase (read-only rows), in seat then kind order."""
        if self._phase_rows is None:
            game = self.game
            if game.status in ("running", "paused") and game.phase:
                self._phase_rows = list(await repo.phase_submissions(self.session, game.id, game.round, game.phase, rows=True))
            else:
                self._phase_rows = []
        return self._phase_rows

    def phase_rows_changed(self) -> None:
        """A submission of the open phase was written or deleted."""
        self._phase_rows = None

    async def done_seats(self) -> set[int]:
        """The seats that have sent all the open phase asks of them (``engine.done_seats``)."""
        sent = {(r.seat, r.kind) for r in await self.phase_rows()}
        return engine.done_seats(self.state, str(self.game.phase), sent)

    # -- who asks ----------------------------------------------------------------------

    async def standing(self) -> Standing:
        """What Discord says of the caller in this game's server and channel
        (:func:`standing_in`), asked once."""
        if self._standing is None:
            assert self.place is not None
            self._standing = await standing_in(self.place, self.game, self.caller)
        return self._standing

    async def require(self, action: Action, *, newcomer: str | None = None) -> None:
        """The access policy's ``action`` for the caller (their standing and their row)."""
        require(action, await self.standing(), self.game, await self.caller_row(), newcomer=newcomer)

    # -- what a request answers with -------------------------------------------------------

    async def info(self) -> GameInfo:
        """The public view of the game (no classes, no factions, no seed before the end),
        as it stands now; a lobby's with its line-up and the odds stored for it."""
        game = self.game
        players = await self.players()
        if game.state is not None:
            state = self.state
            holders = {m.seat: m for m in players if m.seat is not None}
            if len(holders) < len(state.players):  # a seat a moderator emptied: who left it
                removed = [m for m in players if m.status == "removed" and m.former_seat is not None]
                holders = {m.former_seat: m for m in removed if m.former_seat is not None} | holders
            unannounced = state.unannounced()  # departed, but the table has not been told
            seats = tuple(
                SeatInfo(p.seat, (holders[p.seat].user_id or 0) if p.seat in holders else 0, p.name, p.alive or p.seat in unannounced)
                for p in state.players
            )
            winners = tuple(state.winners)
            rules_version = state.settings.rules_version
        else:
            rules_version = engine.rules.CURRENT  # a lobby is dealt under the newest
            lobby = sorted((m for m in players if m.status == "lobby"), key=lambda m: (m.joined_at, m.id))
            seats = tuple(SeatInfo(None, m.user_id or 0, m.display_name) for m in lobby)
            winners = ()
        odds = None
        if game.status == "lobby":
            settings = self.settings
            odds = await lineup_odds.with_stored(self.session, lineup_odds.odds_for(settings, lineup_odds.table_size(settings, len(players))))
        return GameInfo(
            id=game.id,
            guild_id=game.guild_id,
            channel_id=game.channel_id,
            moderator_id=game.moderator_id,
            status=game.status,
            round=game.round,
            phase=game.phase,
            deadline=game.phase_deadline,
            paused_remaining=game.paused_remaining,
            version=game.version,
            seed_sha256=game.seed_sha256,
            settings=self.settings,
            players=seats,
            winners=winners,
            start_at=game.start_at if game.status == "lobby" else None,
            odds=odds,
            rules_version=rules_version,
        )

    async def view(self, stored: dict[str, dict[str, Any]] | None = None) -> PlayerView:
        """The caller's own view of the game: their sheet and what they have sent this
        phase (with ``stored``: what this unit has stored since it read the phase, by
        kind). NotInGameError when they hold no place in it."""
        row = await self.caller_row()
        if row is None or row.status in ("replaced", "removed"):
            raise NotInGameError(game_id=self.game.id)
        info = await self.info()
        if self.game.state is None or row.seat is None:
            return PlayerView(info, None, None, {})
        mine = {r.kind: r.payload for r in await self.phase_rows() if r.seat == row.seat} | (stored or {})
        sent = dict(sorted(mine.items()))  # in kind order, as a fresh read gives them
        sheet = engine.view.sheet(self.state, row.seat)
        return PlayerView(info, row.seat, sheet, sent, self.unread, (row.misses_in_row, row.misses_total))

    async def mail(self, *, seq: int | None, round_no: int, phase: str) -> Mail:
        """A Mail for one step of the game log (``seq``) or, with ``seq`` None, for a notice
        outside it (a pause, a reminder…), knowing each seat holder's language."""
        game = self.game
        if seq is None:
            game.notice_seq += 1
            tag = f"n{game.notice_seq}"
        else:
            tag = str(seq)
        return Mail(self.session, game, tag=tag, round_no=round_no, phase=phase, now=self.now, locales=dict(await self.locales()))


async def standing_in(place: Place, game: GameLike, caller: Caller | None) -> Standing:
    """What Discord says of the caller of ``place`` in ``game``'s server and channel: the
    place's own when the request was sent in that channel (or, with nobody to ask, in
    that server), else the caller's, else a stranger's. A standing about another server
    counts for nothing here."""
    here = place.here
    ours = here is not None and here.guild_id == game.guild_id
    if here is not None and ours and (place.channel_id == game.channel_id or caller is None):
        return here
    if caller is not None and game.guild_id is not None:
        return await caller.standing(game)
    return Standing.stranger(place.user.id, game.guild_id)


# -- finding the game a place is about ---------------------------------------------------


async def find(
    session: AsyncSession,
    place: Place,
    now: datetime,
    *,
    writing: bool,
    moderating: bool = False,
    caller: Caller | None = None,
    player_rows: bool = False,
) -> Table:
    """The table of the game ``place`` is about (see the module's docstring), in one
    statement (two when a server channel has no game and the caller's own is looked for),
    locked when ``writing``, with the caller's unread inbox count."""
    user_id = check_id(place.user.id, "user")
    found = None
    if place.game_id is not None:
        found = await repo.find_game(session, game_id=check_id(place.game_id, "game"), unread_of=user_id, lock=writing)
        if found is None:
            raise GameNotFoundError(game_id=place.game_id)
    else:
        # A server channel's game; a DM's is a practice game, its person's (a moderator's
        # command from a DM looks among all they moderate).
        if place.channel_id is not None and (place.guild_id is not None or not moderating):
            found = await repo.find_game(session, channel_id=check_id(place.channel_id, "channel"), unread_of=user_id, lock=writing)
        if found is None and moderating:
            if place.guild_id is not None:
                await _no_game_here(session, place.guild_id)
            game_id = await _moderated_from_afar(session, user_id, caller)
            if game_id is not None:
                found = await repo.find_game(session, game_id=game_id, unread_of=user_id, lock=writing)
        if found is None:
            found = await repo.find_game(session, user_id=user_id, unread_of=user_id, lock=writing)
        if found is None:
            raise NoActiveGameError()
    game, unread = found
    return Table(session, game, now, place, writing, caller, unread, player_rows)


def _channels(places: Sequence[tuple[int, int]]) -> list[str]:
    return [f"<#{channel}>" for _, channel in places]


async def _no_game_here(session: AsyncSession, guild_id: int) -> None:
    """A moderator's command in a server channel without a game: none is guessed
    (advancing the wrong game cannot be undone); the refusal names the channels of the
    server's live games."""
    elsewhere = [(i, c) for i, _, c in await games_repo.live_game_places(session, guild_id)]
    if elsewhere:
        raise WordedError("reply.error.no_game_here_elsewhere", channels=_channels(elsewhere))
    raise WordedError("reply.error.no_game_here")


async def _moderated_from_afar(session: AsyncSession, user_id: int, caller: Caller | None) -> int | None:
    """The one live game a moderator's command sent from a DM is about: among those the
    caller created and those in servers where Discord says they moderate (at most
    ``SERVERS_ASKED_FROM_A_DM`` servers asked, those where they have played or moderated
    first: a DM carries no server); with several, none is guessed (the refusal names their
    channels). None when they moderate none: the game they play in is taken, whose
    moderator check then refuses them."""
    mine = await repo.live_places_moderated_by(session, user_id)
    guild_ids = await games_repo.servers_with_others_live_games(session, user_id, SERVERS_ASKED_FROM_A_DM) if caller is not None else []
    moderates = await caller.moderates_in(guild_ids) if caller is not None and guild_ids else frozenset()
    found = dict(mine) | {i: c for i, _, c in await games_repo.live_game_places(session, guild_ids=sorted(moderates))} if moderates else dict(mine)
    if len(found) > 1:
        raise WordedError("reply.error.several_games", channels=_channels(sorted(found.items())))
    return next(iter(found), None)


@asynccontextmanager
async def at(
    db: Database, place: Place, *, writing: bool, moderating: bool = False, caller: Caller | None = None, player_rows: bool = False
) -> AsyncIterator[Table]:
    """One unit of work on the game ``place`` is about (see :func:`find`): a transaction
    with the game locked when ``writing``, else a read. ``player_rows``: a writing unit
    that changes no player reads them as rows."""
    async with (db.transaction() if writing else db.read()) as s:
        yield await find(s, place, db.now(), writing=writing, moderating=moderating, caller=caller, player_rows=player_rows)


@asynccontextmanager
async def of(db: Database, game_id: int, *, writing: bool) -> AsyncIterator[Table]:
    """One unit of work on game ``game_id`` (the scheduler's, a tool's): locked when
    ``writing``."""
    async with (db.transaction() if writing else db.read()) as s:
        yield await locked(s, game_id, db.now()) if writing else await read(s, game_id, db.now())


async def locked(session: AsyncSession, game_id: int, now: datetime) -> Table:
    """The table of ``game_id`` in a writing unit, its row locked (GameNotFoundError)."""
    found = await repo.find_game(session, game_id=check_id(game_id, "game"), lock=True)
    if found is None:
        raise GameNotFoundError(game_id=game_id)
    return Table(session, found[0], now, writing=True)


async def read(session: AsyncSession, game_id: int, now: datetime) -> Table:
    """The table of ``game_id`` in a read (GameNotFoundError)."""
    found = await repo.find_game(session, game_id=check_id(game_id, "game"))
    if found is None:
        raise GameNotFoundError(game_id=game_id)
    return Table(session, found[0], now)
