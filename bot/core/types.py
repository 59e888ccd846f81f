"""Values the service takes and returns: who is calling, a game's settings, receipts and
summaries. Plain frozen values; the Discord layer renders them."""

from __future__ import annotations

import zoneinfo
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal, Protocol, TypeGuard

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

import engine
from bot.core.errors import (
    BadArgumentError,
    GameFinishedError,
    GameNotRunningError,
    GameNotStartedError,
    GamePausedError,
    PhaseClosedError,
)
from bot.i18n import refusal_text
from engine import lineup as lineups
from engine.view import Sheet

LANGUAGES = ("en-US", "zh-CN", "zh-TW")
MAX_PHASE_SECONDS = 7 * 86400
# Settings that decide how the engine resolves phases (or who may sit): fixed once the
# classes are dealt. The others (lengths, reminders, early advance, language) may change.
RULE_SETTINGS = frozenset(
    {"max_players", "vote_tie_rule", "reveal_on_death", "win_score", "killing_blow", "departures", "vote_damage", "uneven_tables", "ai_seats", "fill_to", "lineup"}
)
# The house rules a moderator may choose, each with its choices (the first is the default).
HOUSE_RULES = {rule: tuple(choice.value for choice in kind) for rule, kind in engine.HOUSE_RULES.items()}


def is_id(value: object) -> TypeGuard[int]:
    """A Discord snowflake or a database id: a positive 63-bit integer (not a bool)."""
    return isinstance(value, int) and not isinstance(value, bool) and 0 < value < 2**63


def check_id(value: Any, field: str) -> int:
    """``value`` if it is an id (see :func:`is_id`), else BadArgumentError naming ``field``."""
    if not is_id(value):
        raise BadArgumentError(field=field, reason="not a valid id")
    return value


@dataclass(frozen=True, slots=True)
class UserRef:
    """A Discord user as the command saw them: snowflake, display name, client locale."""

    id: int
    name: str
    locale: str | None = None

    def checked(self) -> UserRef:
        if not is_id(self.id):
            raise BadArgumentError(field="user", reason="not a Discord id")
        name = (self.name or "").strip()
        if not name or len(name) > 100:
            raise BadArgumentError(field="name", reason="1 to 100 characters")
        locale = self.locale if self.locale in LANGUAGES else None
        return UserRef(self.id, name, locale)


class GameSettings(BaseModel):
    """What a moderator chooses when creating a game."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    max_players: int = Field(default=engine.MAX_PLAYERS, ge=engine.MIN_PLAYERS, le=engine.MAX_PLAYERS)
    day_seconds: int = Field(default=86400, ge=60, le=MAX_PHASE_SECONDS)
    dusk_seconds: int = Field(default=86400, ge=60, le=MAX_PHASE_SECONDS)
    morning_seconds: int = Field(default=43200, ge=60, le=MAX_PHASE_SECONDS)
    reminder_lead_seconds: int = Field(default=3600, ge=0, le=MAX_PHASE_SECONDS)
    vote_tie_rule: Literal["roll", "nobody", "all"] = "roll"
    reveal_on_death: bool = False
    early_advance: bool = True
    # Dusk orders arrive a piece at a time (/act, /identify): when everyone has sent, the
    # Dusk still waits this long so the last player can finish theirs.
    dusk_grace_seconds: int = Field(default=60, ge=0, le=3600)
    # A private prompt with the phase's controls to each living player when a phase
    # opens (bot.features.prompts.prompts); a player's own /settings prompts wins over it.
    prompts: bool = True
    language: Literal["en-US", "zh-CN", "zh-TW"] = "en-US"
    # What the gallery (the dead's channel, with its spectators: bot.features.gallery.gallery) is
    # shown besides the dead's chat: the truth of each round ("late": one whole round after
    # it happened; "open": as it happens), or nothing more ("chat").
    gallery: Literal["chat", "late", "open"] = "chat"
    win_score: int = Field(default=15, ge=1, le=100)
    # House rules (engine.Settings): a killing blow on the grail carrier, when the night's
    # departures are announced, whether the vote's damage is named, whether a faction
    # dealt a seat fewer starts with a head start (engine.uneven).
    killing_blow: Literal["steal", "killer_takes"] = "steal"
    departures: Literal["dawn", "morning"] = "dawn"
    vote_damage: Literal["public", "private"] = "public"
    uneven_tables: Literal["compensate", "off"] = "compensate"
    # The absence policy (bot.features.absence.absence): after this many phases missed in a row
    # (0: never) the seat is offered to the standbys, falling back to removal when none
    # takes it ("replace"), removed at once ("remove"), handed to the AI ("ai", as
    # ``ai_seats.seat_to_ai``), or the moderator only is told
    # ("notify"). New games get the configuration's (2, replace: ``from_config``); 0 here
    # so that a game stored before the policy existed goes on without one.
    absence_misses: int = Field(default=0, ge=0, le=10)
    absence_action: Literal["replace", "remove", "ai", "notify"] = "replace"
    # How long a standby has to accept a seat offered to them before the next is asked.
    offer_seconds: int = Field(default=600, ge=60, le=86400)
    # A slow game's deadline hours (bot.core.time_zones): each phase closes at the
    # round's hour of the day in ``deadline_zone`` (round 1 the first, round 2 the next…)
    # instead of after its length; empty: after its length.
    deadline_hours: tuple[int, ...] = Field(default=(), max_length=6)
    deadline_zone: str = "UTC"
    # The reliability a player needs to join, in percent (0: none; bot.features.records.reliability):
    # a join of the lobby or the standby list below it is refused; a new player is let in.
    min_reliability: int = Field(default=0, ge=0, le=100)
    # Seats the baseline AI fills beside the humans (bot.features.ai_seats.ai_seats).
    ai_seats: int = Field(default=0, ge=0, le=engine.MAX_PLAYERS - 1)
    # Or (0: off) the AI fills the lobby up to this many players as humans come and go.
    fill_to: int = Field(default=0, ge=0, le=engine.MAX_PLAYERS)
    # The line-up (engine.lineup): a preset's name ("random": dealt by lot, the rules'
    # way) or the canonical text of the classes of each faction, which fixes the table's
    # size (max_players is that size).
    lineup: str = "random"

    @field_validator("lineup")
    @classmethod
    def _lineup(cls, v: str) -> str:
        try:
            return lineups.normalize(v)
        except engine.RuleViolation as exc:
            raise ValueError(refusal_text(exc, "en-US")) from None

    @field_validator("deadline_hours")
    @classmethod
    def _hours(cls, v: tuple[int, ...]) -> tuple[int, ...]:
        if any(not 0 <= h <= 23 for h in v):
            raise ValueError("hours of the day are 0 to 23")
        return v

    @field_validator("deadline_zone")
    @classmethod
    def _zone(cls, v: str) -> str:
        try:
            zoneinfo.ZoneInfo(v)
        except (ValueError, zoneinfo.ZoneInfoNotFoundError):
            raise ValueError(f"no time zone {v[:60]!r}") from None
        return v

    @model_validator(mode="after")
    def _lineup_fits(self) -> GameSettings:
        size = lineups.fixed_size(self.lineup)
        if size is not None and size != self.max_players:
            raise ValueError(f"the line-up seats {size} players, max_players is {self.max_players}")
        return self

    @classmethod
    def build(cls, **values: Any) -> GameSettings:
        """Validate user-chosen settings, raising BadArgumentError naming the field."""
        try:
            return cls(**values)
        except ValidationError as exc:
            first = exc.errors()[0]
            where = ".".join(str(p) for p in first["loc"]) or "settings"
            raise BadArgumentError(field=where, reason=first["msg"]) from None

    @classmethod
    def from_config(cls, config: Any, **overrides: Any) -> GameSettings:
        """Defaults from the bot's configuration (``bot.config.Config``), then overrides."""
        base = {
            "day_seconds": config.day_seconds,
            "dusk_seconds": config.dusk_seconds,
            "morning_seconds": config.morning_seconds,
            "reminder_lead_seconds": config.reminder_lead_seconds,
            "language": config.language,
            "absence_misses": config.absence_misses,
            "absence_action": config.absence_action,
            "offer_seconds": config.offer_seconds,
        }
        return cls.build(**(base | overrides))

    def engine_settings(self, players: int | None = None) -> engine.Settings:
        """The engine's settings; for a table of ``players``, with the line-up dealt
        (LineupError when a custom line-up seats another number)."""
        return engine.Settings(
            lineup=None if players is None else lineups.resolve(self.lineup, players),
            vote_tie_rule=engine.VoteTieRule(self.vote_tie_rule),
            reveal_on_death=self.reveal_on_death,
            win_score=self.win_score,
            killing_blow=engine.KillingBlowRule(self.killing_blow),
            departures=engine.DeparturesRule(self.departures),
            vote_damage=engine.VoteDamageRule(self.vote_damage),
            uneven_tables=engine.UnevenTablesRule(self.uneven_tables),
        )

    def seconds_for(self, phase: str) -> int:
        return int(getattr(self, f"{phase}_seconds"))


@dataclass(frozen=True, slots=True)
class SeatInfo:
    """A seat as the table sees it (``seat`` None in the lobby). ``user_id``: who holds
    it, or, for a seat a moderator emptied, who was removed from it (so a mention of them
    names a player who has left, as their seat number does)."""

    seat: int | None
    user_id: int
    name: str
    alive: bool = True


@dataclass(frozen=True, slots=True)
class GameInfo:
    """A game as anyone at the table may see it (no secrets)."""

    id: int
    guild_id: int | None  # None: a practice game, played in its person's DM (``channel_id``)
    channel_id: int
    moderator_id: int
    status: str
    round: int
    phase: str | None
    deadline: datetime | None
    paused_remaining: int | None
    version: int
    seed_sha256: str
    settings: GameSettings
    players: tuple[SeatInfo, ...]
    winners: tuple[str, ...] = ()
    # A lobby's start time, when it has one.
    start_at: datetime | None = None
    # A lobby's line-up as it would be dealt now, and its simulated odds once known.
    odds: LineupOdds | None = None
    # The rules version it is played by (engine.rules; a lobby: the one it will be dealt under).
    rules_version: int = engine.rules.CURRENT

    @property
    def practice(self) -> bool:
        """A game without a server: one person against AI seats, in their DM."""
        return self.guild_id is None


@dataclass(frozen=True, slots=True)
class LineupOdds:
    """A lobby's line-up at the size it would start with (``lineup``: the canonical text,
    None when dealt by lot), the key its simulation is stored under, and the result once
    the background simulation has stored it (``games`` 0 until then)."""

    players: int
    lineup: str | None
    key: str
    rules: dict[str, Any] = field(default_factory=dict)
    games: int = 0
    wins: dict[str, int] = field(default_factory=dict)
    median_rounds: float = 0.0

    @property
    def known(self) -> bool:
        return self.games > 0


@dataclass(frozen=True, slots=True)
class PhaseStatus:
    """Who has sent which kinds of submission in the open phase: ``sent`` maps a seat to
    the kinds it has sent (``"grail"``, ``"orders"``...), never their content; ``done``:
    the seats that count as having sent, as the early close and the reminders count
    them (``common.seats_done``). Empty outside a running or paused game.
    ``viewer_played``: the one asking holds or held a seat in this game."""

    game: GameInfo
    sent: dict[int, tuple[str, ...]]
    done: frozenset[int] = frozenset()
    viewer_played: bool = False
    # Each held seat's phases missed (in a row, in all), and the standby list in order:
    # for moderators (bot.features.absence.absence).
    misses: dict[int, tuple[int, int]] = field(default_factory=dict)
    standbys: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Receipt:
    """What a player gets back for a submission. ``replaced``: an earlier submission of
    the same kind this phase was overwritten. ``all_sent``: everyone has now sent.
    ``deadline_moved``: this submission brought the deadline forward (early advance)."""

    game_id: int
    round: int
    phase: str
    seat: int
    kind: str
    submission: dict[str, Any]
    replaced: bool
    revision: int
    all_sent: bool
    deadline: datetime | None
    deadline_moved: bool = False
    # What was stored of this kind before this submission replaced it (None: nothing was),
    # so that the receipt can say what changed.
    before: dict[str, Any] | None = None
    # The player's own view of their game just after this submission, read in its unit
    # of work, so the answer (a receipt, a redrawn panel) needs no second read.
    view: PlayerView | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True, slots=True)
class StepResult:
    """One state change of a running game (an advance, a removal, a replacement, a
    moderator's end): ``kind`` is the step's kind in the game log. ``events``: the public
    events only, safe to show anyone."""

    game_id: int
    seq: int
    kind: str
    closed_round: int
    closed_phase: str
    round: int
    phase: str
    status: str
    deadline: datetime | None
    messages: int
    events: list[dict[str, Any]] = field(default_factory=list)
    over: bool = False  # the step ended the game


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


def check_expected(round_no: Any, phase: Any) -> None:
    """The (round, phase) a caller says it is answering, when it says one."""
    if round_no is not None and (not isinstance(round_no, int) or isinstance(round_no, bool) or round_no < 1):
        raise BadArgumentError(field="round", reason="a round number")
    if phase is not None and phase not in engine.PHASE_ORDER:
        raise BadArgumentError(field="phase", reason="day, dusk or morning")


class HasStatus(Protocol):
    """What :func:`require_running` reads of a game (an entity, a ``GameInfo``, or the
    two columns of a row)."""

    @property
    def id(self) -> int: ...

    @property
    def status(self) -> str: ...


def require_running(game: HasStatus, *, paused: str | None = None) -> None:
    """Refuse unless the game is running; ``paused``: the message key for a paused game
    (a moderator's action words it for them, a player's submission uses the default)."""
    if game.status == "running":
        return
    if game.status == "paused":
        raise GamePausedError(paused, game_id=game.id)
    if game.status in ("over", "cancelled"):
        raise GameFinishedError(game_id=game.id)
    if game.status == "lobby":
        raise GameNotStartedError(game_id=game.id)
    raise GameNotRunningError(game_id=game.id)
