"""What a moderator does, as commands, and the one road that does it (:func:`moderate`).

Each command is a frozen dataclass carrying the game it is about (``game_id``; a new
game: the server and channel it opens in) and what the moderator typed or picked: a
player as typed (a seat, a name, a mention: resolved here from the game's table with
``bot.core.resolve``), a length in seconds, the settings to change. :func:`moderate`
asks the access policy's ``moderate`` of the caller's :class:`~bot.core.policy.Standing`
(what Discord says of them in the game's server), then hands the command to the handler
registered for its class: every road (a slash command, a confirmation button) is checked
here, once. What a handler changes is one use case of the service, in one unit of work
(a player typed is resolved just before, from a read of the game's table as the
moderator saw it; the change checks the seat again under the game's lock).

A new moderator command: a dataclass here (``ModeratorCommand[Result]``), a handler
taking ``(db, command)``, and one ``HANDLERS.add`` line; the Discord layer makes the
command from what was typed and renders the result.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar, cast

from bot.core import policy
from bot.core.advance import advance_phase
from bot.core.common import check_id
from bot.core.errors import GameNotFoundError, ModerationRefusedError
from bot.core.policy import Action, Standing
from bot.core.resolve import parse_player
from bot.core.types import GameInfo, GameSettings, PhaseStatus, SeatInfo, StepResult, UserRef
from bot.core.views import phase_status
from bot.db import repositories as repo
from bot.db.session import Database
from bot.features.lobby.games import create_game, get_game, kick_from_lobby, start_game
from bot.features.moderation.moderation import (
    cancel_game,
    end_game,
    extend_deadline,
    pause_game,
    remove_player,
    replace_player,
    resume_game,
    update_settings,
)
from bot.features.replay.export import export_game
from bot.features.seasons.seasons import SeasonInfo, Summary, end_season, start_season
from bot.features.standbys.standbys import offer_seat

R = TypeVar("R", covariant=True)


class ModeratorCommand(Generic[R]):
    """A moderator's command whose handler returns an ``R``."""


@dataclass(frozen=True, slots=True)
class GameCommand(ModeratorCommand[R]):
    """A command about an existing game."""

    game_id: int


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
class EndGame(GameCommand[StepResult]):
    """``/mod end``'s confirmation for a running or paused game: it ends now, scored."""


@dataclass(frozen=True, slots=True)
class CancelGame(GameCommand[GameInfo]):
    """``/mod end``'s confirmation for a lobby: it is cancelled, if still a lobby."""


@dataclass(frozen=True, slots=True)
class AskToEnd(GameCommand[EndGame | CancelGame]):
    """``/mod end`` before its confirmation: nothing changes; the command the
    confirmation will run (a lobby is cancelled, a running or paused game ends scored)."""


@dataclass(frozen=True, slots=True)
class ShowStatus(GameCommand[PhaseStatus]):
    """``/mod status``: who has sent what this phase, as ``viewer_id`` may see it."""

    viewer_id: int


@dataclass(frozen=True, slots=True)
class ExportLog(GameCommand[dict[str, Any]]):
    """``/mod log``: the whole log of a game that has ended."""


C = TypeVar("C", bound=ModeratorCommand[Any])
Handler = Callable[[Database, C], Awaitable[Any]]


class Handlers:
    """The handler of each command class (``add`` ties a handler to its class for mypy)."""

    def __init__(self) -> None:
        self._by_class: dict[type[Any], Handler[Any]] = {}

    def add(self, cls: type[C], handler: Handler[C]) -> None:
        self._by_class[cls] = handler

    def of(self, command: ModeratorCommand[Any]) -> Handler[Any]:
        return self._by_class[type(command)]

    def __contains__(self, cls: type[Any]) -> bool:
        return cls in self._by_class


HANDLERS = Handlers()


async def moderate(db: Database, command: ModeratorCommand[R], standing: Standing) -> R:
    """Do what a moderator asks with ``command``, once the access policy's ``moderate``
    allows the caller (``standing``: what Discord says of them in the game's server; a
    game's creator moderates it while still a member there), and return its result.
    A new game, or a command about a server (its seasons), asks that the caller
    moderate that server.

    The check reads only what never changes once a game exists (its server, channel and
    creator), so it is asked before the handler's own unit of work. Raises
    NotModeratorError, GameNotFoundError, or whatever the handler refuses."""
    if isinstance(command, CreateGame | ServerCommand):
        policy.require(Action.CREATE, standing, policy.Server(command.guild_id))
    else:
        assert isinstance(command, GameCommand)
        async with db.read() as s:
            game = await repo.get_game(s, check_id(command.game_id, "game"))
            if game is None:
                raise GameNotFoundError(game_id=command.game_id)
            policy.require(Action.MODERATE, standing, game)
    return cast(R, await HANDLERS.of(command)(db, command))


async def _create(db: Database, c: CreateGame) -> GameInfo:
    return await create_game(db, guild_id=c.guild_id, channel_id=c.channel_id, moderator=c.moderator, settings=c.settings, start_in=c.start_in)


async def _settings(db: Database, c: ChangeSettings) -> GameInfo:
    if not c.changes and c.start_in is None:
        return await get_game(db, c.game_id)
    return await update_settings(db, c.game_id, start_in=c.start_in, **c.changes)


async def _lineup(db: Database, c: ChooseLineup) -> GameInfo:
    if c.lineup is None:
        return await get_game(db, c.game_id)
    return await update_settings(db, c.game_id, lineup=c.lineup)


async def _player(db: Database, game_id: int, typed: str, *, lobby: bool = False) -> SeatInfo:
    """The player ``typed`` names at the game's table (a ResolveError when none)."""
    return parse_player(typed, (await get_game(db, game_id)).players, lobby=lobby)


async def _offer(db: Database, c: OfferSeat) -> Offered:
    target = await _player(db, c.game_id, c.player)
    assert target.seat is not None
    return Offered(target, await offer_seat(db, c.game_id, target.seat))


async def _replace(db: Database, c: ReplacePlayer) -> SeatInfo:
    target = await _player(db, c.game_id, c.player)
    assert target.seat is not None
    await replace_player(db, c.game_id, target.seat, c.newcomer, c.standing)
    return target


async def _kick(db: Database, c: KickFromLobby) -> SeatChanged:
    """Before the start the player leaves the lobby and may not join it again; an AI
    seat is not kicked (the lobby's settings say how many there are)."""
    target = await _player(db, c.game_id, c.player, lobby=True)
    if not target.user_id:
        raise ModerationRefusedError("reply.error.ai_seat_kick", name=target.name)
    return SeatChanged(target, await kick_from_lobby(db, c.game_id, target.user_id))


async def _remove(db: Database, c: RemovePlayer) -> SeatChanged:
    target = await _player(db, c.game_id, c.player)
    assert target.seat is not None
    await remove_player(db, c.game_id, target.seat)
    return SeatChanged(target, await get_game(db, c.game_id))


async def _cancel(db: Database, c: CancelGame) -> GameInfo:
    """Once started, the lobby's confirmation no longer stands: ``/mod end`` must be
    confirmed again, as a scored end."""
    if (await get_game(db, c.game_id)).status in ("running", "paused"):
        raise ModerationRefusedError("reply.error.end_started", game=c.game_id)
    return await cancel_game(db, c.game_id, "cancelled")


async def _ask_to_end(db: Database, c: AskToEnd) -> EndGame | CancelGame:
    lobby = (await get_game(db, c.game_id)).status == "lobby"
    return CancelGame(c.game_id) if lobby else EndGame(c.game_id)


async def _log(db: Database, c: ExportLog) -> dict[str, Any]:
    log = await export_game(db, c.game_id)
    if not log["complete"]:
        raise ModerationRefusedError("reply.error.log_not_ready")
    return log


HANDLERS.add(CreateGame, _create)
HANDLERS.add(StartSeason, lambda db, c: start_season(db, c.guild_id, c.moderator, c.name, c.language))
HANDLERS.add(EndSeason, lambda db, c: end_season(db, c.guild_id, c.moderator, c.channel_id))
HANDLERS.add(StartGame, lambda db, c: start_game(db, c.game_id))
HANDLERS.add(ChangeSettings, _settings)
HANDLERS.add(ChooseLineup, _lineup)
HANDLERS.add(AdvancePhase, lambda db, c: advance_phase(db, c.game_id, expected_round=c.expected_round, expected_phase=c.expected_phase))
HANDLERS.add(ExtendDeadline, lambda db, c: extend_deadline(db, c.game_id, c.seconds, expected_round=c.expected_round, expected_phase=c.expected_phase))
HANDLERS.add(PauseGame, lambda db, c: pause_game(db, c.game_id))
HANDLERS.add(ResumeGame, lambda db, c: resume_game(db, c.game_id))
HANDLERS.add(OfferSeat, _offer)
HANDLERS.add(ReplacePlayer, _replace)
HANDLERS.add(KickFromLobby, _kick)
HANDLERS.add(RemovePlayer, _remove)
HANDLERS.add(EndGame, lambda db, c: end_game(db, c.game_id))
HANDLERS.add(CancelGame, _cancel)
HANDLERS.add(AskToEnd, _ask_to_end)
HANDLERS.add(ShowStatus, lambda db, c: phase_status(db, c.game_id, c.viewer_id))
HANDLERS.add(ExportLog, _log)
