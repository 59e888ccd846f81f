"""Typed service errors. Each carries a message ``key`` and ``params``, never a sentence:
the words are the ``[svc]`` tables of the catalogues (``bot/i18n``), where ``error.x`` is
``svc.x``, and the user interface words them (``bot.render.refusals``: the Discord
layer's error handler, the command lines). A parameter is a plain value: a number, a
name, typed text, a phase's message key, a player by seat and name (:class:`NamedSeat`),
a list of these. Every refusal of the service derives from :class:`ServiceError`, here
or in the modules of one feature's refusals (``access_errors``, ``standby_errors``,
``stats_errors``).

When one is raised nothing has been written: every use case runs in one unit of work
that rolls back on the error.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot.i18n import has_key, refusal_text, t
from engine import RuleViolation
from engine.view import Sheet

SECTION = "svc."  # where a service error's key lives in the catalogues
FALLBACK = "error.service"  # the text of a key the catalogues do not have


def catalogue_key(key: str) -> str:
    """The catalogue key of the service error key ``key`` (``error.x`` is ``svc.x``)."""
    return SECTION + key.removeprefix("error.")


@dataclass(frozen=True)
class NamedSeat:
    """A player a refusal names: their seat and their name as they chose it, worded by the
    user interface ("#3 Alice", the seat alone when it has no name)."""

    seat: int
    name: str | None = None


class ServiceError(Exception):
    """A use case refused. ``key``/``params`` are for the translated reply; ``str()`` of
    it is the English catalogue text with the parameters as they are, for the log."""

    key = FALLBACK

    def __init__(self, key: str | None = None, **params: Any) -> None:
        self.key = key or type(self).key
        self.params = params
        super().__init__(self.logged())

    def logged(self) -> str:
        """The refusal in English for the log, its parameters shown as they are (a list
        or a :class:`NamedSeat` as Python shows it)."""
        key = catalogue_key(self.key)
        return t(key if has_key(key) else catalogue_key(FALLBACK), "en-US", **self.params)


class BadArgumentError(ServiceError):
    key = "error.bad_argument"


class SettingFixedError(BadArgumentError):
    """A rule setting (``field``) changed after the start."""

    key = "error.setting_fixed"


class MaxBelowJoinedError(BadArgumentError):
    key = "error.max_below_joined"


class GameNotFoundError(ServiceError):
    key = "error.game_not_found"


class NoActiveGameError(ServiceError):
    key = "error.no_active_game"


class ChannelHasGameError(ServiceError):
    key = "error.channel_has_game"


class AlreadyInGameError(ServiceError):
    key = "error.already_in_game"


class AlreadyJoinedError(AlreadyInGameError):
    """Joining the game one has already joined."""

    key = "error.already_joined"


class KickedFromLobbyError(ServiceError):
    """Joining a lobby a moderator has taken one out of."""

    key = "error.kicked_from_lobby"


class NewcomerBusyError(ServiceError):
    """The newcomer of a replacement is already in a game (said to the moderator)."""

    key = "error.newcomer_busy"


class NewcomerWasSeatedError(ServiceError):
    """The newcomer of a replacement held another seat of this game (removed, replaced or
    dead): they know its secrets, so they may not play a second one."""

    key = "error.newcomer_was_seated"


class LobbyFullError(ServiceError):
    key = "error.lobby_full"


class LobbyClosedError(ServiceError):
    key = "error.lobby_closed"


class NotEnoughPlayersError(ServiceError):
    key = "error.not_enough_players"


class NotInGameError(ServiceError):
    key = "error.not_in_game"


class GameNotRunningError(ServiceError):
    key = "error.not_running"


class GameNotOverError(ServiceError):
    """The replay or the full log of a game still in play (it would tell its secrets)."""

    key = "error.game_not_over"


class GameNeverPlayedError(ServiceError):
    """The replay of a lobby cancelled before the start: no step to show."""

    key = "error.game_never_played"


class GameNotStartedError(GameNotRunningError):
    key = "error.not_started"


class GamePausedError(GameNotRunningError):
    key = "error.game_paused"


class NotPausedError(ServiceError):
    key = "error.not_paused"


class ExtendAtLimitError(ServiceError):
    key = "error.extend_at_limit"


class GameFinishedError(GameNotRunningError):
    key = "error.game_finished"


class PhaseClosedError(ServiceError):
    key = "error.phase_closed"


class AlreadyAdvancedError(ServiceError):
    key = "error.already_advanced"


class ConcurrentChangeError(ServiceError):
    key = "error.concurrent_change"


class SeatNotFoundError(ServiceError):
    key = "error.seat_not_found"


class SeatGoneError(ServiceError):
    key = "error.seat_gone"


class RuleRefusedError(ServiceError):
    """The engine refused a submission. Carries the engine's own key and parameters, and
    is worded as the engine's refusals are (``bot.i18n.refusals``)."""

    key = "error.rule"

    def __init__(self, violation: RuleViolation) -> None:
        self.violation = violation
        super().__init__(violation.key, **violation.params)

    def logged(self) -> str:
        return refusal_text(self.violation, "en-US")


class WordedError(ServiceError):
    """A refusal whose ``key`` is the catalogue key itself (a ``reply.error.*`` the
    Discord layer's own refusals share)."""

    def logged(self) -> str:
        return t(self.key, "en-US", **self.params)


class ResolveError(WordedError):
    """What a player typed names nothing their view of the game resolves (no such
    player, skill or guess; several players match)."""


class ModerationRefusedError(WordedError):
    """A moderator's command the game does not allow now (an AI seat kicked from a lobby,
    a lobby cancelled after it started, a log asked for before the end)."""


class SwitchNotToggleError(ServiceError):
    """``/act skill`` with ``switch`` on a skill that is not a toggle (``skill``: its id,
    ``class_id``: the caller's class, for the Discord layer to name it)."""

    key = "error.switch_not_toggle"


class GuessRefusedError(RuleRefusedError):
    """A guess outside the class's identification rule, with the caller's ``sheet``: the
    reply quotes the rule itself."""

    def __init__(self, violation: RuleViolation, sheet: Sheet | None) -> None:
        super().__init__(violation)
        self.sheet = sheet
