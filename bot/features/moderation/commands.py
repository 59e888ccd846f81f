"""What a moderator does, as commands, and the one road that does it (:func:`moderate`).

Each command is a frozen dataclass carrying what the moderator typed or picked (the
game it is about when it names one, ``game_id``; a new game: the server and channel it
opens in): a
player as typed (a seat, a name, a mention: resolved here from the game's table with
``bot.core.resolve``), a length in seconds, the settings to change. :func:`moderate`
asks the access policy's ``moderate`` of the caller's :class:`~bot.core.policy.Standing`
(what Discord says of them in the game's server), then hands the command to the handler
registered for its class: every road (a slash command, a confirmation button) is checked
here, once, in the one unit of work that finds and locks the game and does what the
command asks (a player typed is resolved from the game's table).

A new moderator command: a dataclass here (``ModeratorCommand[Result]``), a handler
taking ``(table, command)`` (a new game's or a server's: ``(db, command)``), and one
``HANDLERS.on_table`` (or ``HANDLERS.add``) line; the Discord layer makes the command
from what was typed and renders the result.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Generic, TypeVar, cast

from bot.core import policy, table
from bot.core.advance import advance_now
from bot.core.errors import ModerationRefusedError
from bot.core.policy import Action, Standing
from bot.core.resolve import parse_player
from bot.core.table import Caller, Place, Table
from bot.core.types import (
    GameInfo,
    GameSettings,
    PhaseStatus,
    SeatInfo,
    StepResult,
    UserRef,
)
from bot.db.session import Database
from bot.features.lobby.games import create_game, kick, start
from bot.features.moderation.moderation import (
    cancel,
    change_settings,
    end,
    extend,
    hand_over_seat,
    pause,
    remove_seat,
    resume,
)
from bot.features.moderation.seats import check_seat_argument, held_seat
from bot.features.moderation.status import status_of
from bot.features.replay.export import log_of
from bot.features.seasons.seasons import SeasonInfo, Summary, end_season, start_season
from bot.features.standbys.standbys import offer

R = TypeVar("R", covariant=True)


class ModeratorCommand(Generic[R]):
    """A moderator's command whose handler returns an ``R``."""


@dataclass(frozen=True, slots=True)
class GameCommand(ModeratorCommand[R]):
    """A command about an existing game: the one ``game_id`` names (a button's,
    ``/mod log 12``), else the one the request's place is about (``bot.core.table``).
    ``writes``: whether its handler changes the game (else it reads it)."""

    game_id: int | None = field(default=None, kw_only=True)
    writes = True


@dataclass(frozen=True, slots=True)
class CreateGame(ModeratorCommand[GameInfo]):
    """``/mod create``: a lobby in ``channel_id`` of ``guild_id`` (the caller must
    moderate that server), with its settings and start time (seconds from now, 0: none)."""

    guild_id: int
    channel_id: int
    moderator: UserRef
    settings: GameSettings
    start_in: int = 0


@dataclass(frozen=True, slots=True)
class ServerCommand(ModeratorCommand[R]):
    """A command about a server rather than one game (its seasons): the caller must
    moderate that server."""

    guild_id: int
    moderator: UserRef


@dataclass(frozen=True, slots=True)
class StartSeason(ServerCommand[SeasonInfo]):
    """``/mod season start [name]``: the server's next season, its summary to be posted
    in ``language``."""

    name: str | None = None
    language: str = "en-US"


@dataclass(frozen=True, slots=True)
class EndSeason(ServerCommand[Summary]):
    """``/mod season end``: the open season closed, its summary posted in ``channel_id``."""

    channel_id: int = 0


@dataclass(frozen=True, slots=True)
class StartGame(GameCommand[GameInfo]):
    """``/mod start``: deal the classes and open Day 1."""


@dataclass(frozen=True, slots=True)
class ChangeSettings(GameCommand[GameInfo]):
    """``/mod settings``: the settings given (``GameSettings`` field names) and the
    lobby's new start time; nothing given: the game as it is."""

    changes: Mapping[str, Any] = field(default_factory=dict)
    start_in: int | None = None


@dataclass(frozen=True, slots=True)
class ChooseLineup(GameCommand[GameInfo]):
    """``/mod lineup``: a preset or classes typed; None: the game as it is."""

    lineup: str | None = None


@dataclass(frozen=True, slots=True)
class AdvancePhase(GameCommand[StepResult]):
    """``/phase advance``: close the open phase now; the phase the moderator saw pins it."""

    expected_round: int | None = None
    expected_phase: str | None = None


@dataclass(frozen=True, slots=True)
class ExtendDeadline(GameCommand[GameInfo]):
    """``/phase extend``: ``seconds`` more for the phase the moderator saw."""

    seconds: int
    expected_round: int | None = None
    expected_phase: str | None = None


@dataclass(frozen=True, slots=True)
class PauseGame(GameCommand[GameInfo]):
    """``/phase pause``: stop the clock."""


@dataclass(frozen=True, slots=True)
class ResumeGame(GameCommand[GameInfo]):
    """``/phase resume``: restart the clock."""


@dataclass(frozen=True, slots=True)
class SeatChanged:
    """The player a command named, as resolved, and the game just after."""

    player: SeatInfo
    game: GameInfo


@dataclass(frozen=True, slots=True)
class Offered:
    """The seat offered to the standby list, and the name of the standby asked first."""

    player: SeatInfo
    asked: str


@dataclass(frozen=True, slots=True)
class OfferSeat(GameCommand[Offered]):
    """``/mod replace`` with nobody named: the seat of ``player`` (as typed) goes to the
    first eligible standby."""

    player: str


@dataclass(frozen=True, slots=True)
class ReplacePlayer(GameCommand[SeatInfo]):
    """``/mod replace``: ``newcomer`` takes over the seat of ``player`` (as typed);
    ``standing``: what Discord says of the newcomer in the game's server."""

    player: str
    newcomer: UserRef
    standing: Standing


@dataclass(frozen=True, slots=True)
class KickFromLobby(GameCommand[SeatChanged]):
    """``/mod kick`` before the start: ``player`` (as typed) leaves the lobby for good."""

    player: str


@dataclass(frozen=True, slots=True)
class RemovePlayer(GameCommand[SeatChanged]):
    """``/mod kick`` once dealt: the seat of ``player`` (as typed) leaves the game."""

    player: str


@dataclass(frozen=True, slots=True)
class KickPlayer(GameCommand[SeatChanged]):
    """``/mod kick``: ``player`` (as typed) leaves the lobby for good, or, once dealt,
    their seat leaves the game (``KickFromLobby``, ``RemovePlayer``)."""

    player: str


@dataclass(frozen=True, slots=True)
class EndGame(GameCommand[StepResult]):
    """``/mod end``'s confirmation for a running or paused game: it ends now, scored."""


@dataclass(frozen=True, slots=True)
class CancelGame(GameCommand[GameInfo]):
    """``/mod end``'s confirmation for a lobby: it is cancelled, if still a lobby."""


@dataclass(frozen=True, slots=True)
class AskToEnd(GameCommand[EndGame | CancelGame]):
    """``/mod end`` before its confirmation: nothing changes; the command the
    confirmation will run (a lobby is cancelled, a running or paused game ends scored)."""

    writes = False


@dataclass(frozen=True, slots=True)
class ShowStatus(GameCommand[PhaseStatus]):
    """``/mod status``: who has sent what this phase, as ``viewer_id`` may see it."""

    writes = False

    viewer_id: int


@dataclass(frozen=True, slots=True)
class ExportLog(GameCommand[dict[str, Any]]):
    """``/mod log``: the whole log of a game that has ended."""

    writes = False


C = TypeVar("C", bound=ModeratorCommand[Any])
G = TypeVar("G", bound=GameCommand[Any])
Handler = Callable[[Database, C], Awaitable[Any]]
GameHandler = Callable[[Table, G], Awaitable[Any]]


class Handlers:
    """The handler of each command class (``add`` ties a handler to its class for mypy):
    a command about a game is handled on its table, one about a server or a new game
    with the database handle."""

    def __init__(self) -> None:
        self._by_class: dict[type[Any], Any] = {}

    def add(self, cls: type[C], handler: Handler[C]) -> None:
        self._by_class[cls] = handler

    def on_table(self, cls: type[G], handler: GameHandler[G]) -> None:
        self._by_class[cls] = handler

    def of(self, command: ModeratorCommand[Any]) -> Any:
        return self._by_class[type(command)]

    def __contains__(self, cls: type[Any]) -> bool:
        return cls in self._by_class


HANDLERS = Handlers()


async def moderate(db: Database, place: Place, command: ModeratorCommand[R], caller: Caller | None = None) -> R:
    """Do what a moderator asks with ``command`` from ``place``, once the access
    policy's ``moderate`` allows the caller, and return its result: in one unit of work
    on the game the command names or the place is about (``table.at``, a moderator's:
    from a DM, the one game they moderate), the caller's standing there asked once (the
    place's own when the request was sent in the game's server, else ``caller``'s; a
    game's creator moderates it while still a member there). A new game, or a command
    about a server (its seasons), asks that the caller moderate that server (the
    place's standing). Raises NotModeratorError, GameNotFoundError, or whatever the
    handler refuses."""
    if isinstance(command, CreateGame | ServerCommand):
        here = place.here or Standing.stranger(place.user.id)
        policy.require(Action.CREATE, here, policy.Server(command.guild_id))
        return cast(R, await HANDLERS.of(command)(db, command))
    assert isinstance(command, GameCommand)
    at = place if command.game_id is None else replace(place, game_id=command.game_id)
    if isinstance(command, AdvancePhase | ExtendDeadline) and command.expected_round is None:
        # The phase open when the command came in is the one it means: if the deadline
        # closes it meanwhile, the command is refused rather than acting on the next.
        async with table.at(db, at, writing=False, moderating=True, caller=caller) as seen:
            if seen.game.round >= 1:
                command = cast(ModeratorCommand[R], replace(command, expected_round=seen.game.round, expected_phase=seen.game.phase))
            at = replace(at, game_id=seen.id)
    assert isinstance(command, GameCommand)
    async with table.at(db, at, writing=command.writes, moderating=True, caller=caller) as t:
        await t.require(Action.MODERATE)
        return cast(R, await HANDLERS.of(command)(t, command))


async def _create(db: Database, c: CreateGame) -> GameInfo:
    return await create_game(db, guild_id=c.guild_id, channel_id=c.channel_id, moderator=c.moderator, settings=c.settings, start_in=c.start_in)


async def _settings(t: Table, c: ChangeSettings) -> GameInfo:
    if not c.changes and c.start_in is None:
        return await t.info()
    return await change_settings(t, start_in=c.start_in, **c.changes)


async def _lineup(t: Table, c: ChooseLineup) -> GameInfo:
    if c.lineup is None:
        return await t.info()
    return await change_settings(t, lineup=c.lineup)


async def _player(t: Table, typed: str, *, lobby: bool = False) -> SeatInfo:
    """The player ``typed`` names at the game's table (a ResolveError when none)."""
    return parse_player(typed, (await t.info()).players, lobby=lobby)


async def _offer(t: Table, c: OfferSeat) -> Offered:
    target = await _player(t, c.player)
    assert target.seat is not None
    return Offered(target, await offer(t, target.seat))


async def _replace(t: Table, c: ReplacePlayer) -> SeatInfo:
    target = await _player(t, c.player)
    assert target.seat is not None
    check_seat_argument(target.seat)
    await hand_over_seat(t, target.seat, c.newcomer.checked(), c.standing, named=True)
    return target


async def _kick(t: Table, c: KickFromLobby) -> SeatChanged:
    """Before the start the player leaves the lobby and may not join it again; an AI
    seat is not kicked (the lobby's settings say how many there are)."""
    target = await _player(t, c.player, lobby=True)
    if not target.user_id:
        raise ModerationRefusedError("reply.error.ai_seat_kick", name=target.name)
    return SeatChanged(target, await kick(t, target.user_id))


async def _remove(t: Table, c: RemovePlayer) -> SeatChanged:
    target = await _player(t, c.player)
    assert target.seat is not None
    check_seat_argument(target.seat)
    await held_seat(t, target.seat)
    await remove_seat(t, target.seat)
    return SeatChanged(target, await t.info())


async def _cancel(t: Table, c: CancelGame) -> GameInfo:
    """Once started, the lobby's confirmation no longer stands: ``/mod end`` must be
    confirmed again, as a scored end."""
    if t.game.status in ("running", "paused"):
        raise ModerationRefusedError("reply.error.end_started", game=t.id)
    return await cancel(t, "cancelled")


async def _ask_to_end(t: Table, c: AskToEnd) -> EndGame | CancelGame:
    return CancelGame(game_id=t.id) if t.game.status == "lobby" else EndGame(game_id=t.id)


async def _log(t: Table, c: ExportLog) -> dict[str, Any]:
    log = await log_of(t)
    if not log["complete"]:
        raise ModerationRefusedError("reply.error.log_not_ready")
    return log


HANDLERS.add(CreateGame, _create)
HANDLERS.add(StartSeason, lambda db, c: start_season(db, c.guild_id, c.moderator, c.name, c.language))
HANDLERS.add(EndSeason, lambda db, c: end_season(db, c.guild_id, c.moderator, c.channel_id))
HANDLERS.on_table(StartGame, lambda t, c: start(t))
HANDLERS.on_table(ChangeSettings, _settings)
HANDLERS.on_table(ChooseLineup, _lineup)
HANDLERS.on_table(AdvancePhase, lambda t, c: advance_now(t, expected_round=c.expected_round, expected_phase=c.expected_phase))
HANDLERS.on_table(ExtendDeadline, lambda t, c: extend(t, c.seconds, expected_round=c.expected_round, expected_phase=c.expected_phase))
HANDLERS.on_table(PauseGame, lambda t, c: pause(t))
HANDLERS.on_table(ResumeGame, lambda t, c: resume(t))
HANDLERS.on_table(OfferSeat, _offer)
HANDLERS.on_table(ReplacePlayer, _replace)
HANDLERS.on_table(KickFromLobby, _kick)
HANDLERS.on_table(RemovePlayer, _remove)
HANDLERS.on_table(KickPlayer, lambda t, c: _kick(t, KickFromLobby(c.player)) if t.game.status == "lobby" else _remove(t, RemovePlayer(c.player)))
HANDLERS.on_table(EndGame, lambda t, c: end(t))
HANDLERS.on_table(CancelGame, _cancel)
HANDLERS.on_table(AskToEnd, _ask_to_end)
HANDLERS.on_table(ShowStatus, lambda t, c: status_of(t, c.viewer_id))
HANDLERS.on_table(ExportLog, _log)
