"""The messages the service writes to the outbox, one frozen dataclass per kind, and the
one codec between them and the JSON an outbox row stores.

The stored shape is the one every release has written: ``{"type": <kind>, <field>: ...}``
(the outbox adds ``game_id``, which the row also carries). ``encode`` writes a message in
that shape, field by field in declaration order; a field whose metadata is ``OMIT_NONE``
or ``OMIT_FALSE`` is left out while it holds that value (as the writers always left it
out), one marked :func:`flat` spreads its own fields into the message. ``decode`` reads any row
back, older ones included: a field a row lacks takes its default, a key no field names
is dropped. A message of a class not declared here cannot be written
(:class:`UnknownMessageError`), and a row of a kind no class knows is refused on reading.

The Discord layer words each class with its own renderer (``bot.discord.outbound``).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, ClassVar, TypeVar

from engine import Event, view


class UnknownMessageError(TypeError):
    """A message of no declared kind: refused when written, reported when read."""


class MalformedMessageError(ValueError):
    """A stored message of a known kind that lacks a field its class requires."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Message:
    """What every outbox message is; each kind is a subclass declared with :func:`kind`."""

    KIND: ClassVar[str] = ""


M = TypeVar("M", bound=Message)
KINDS: dict[str, type[Message]] = {}


def kind(name: str) -> Callable[[type[M]], type[M]]:
    """Declare ``cls`` as the message stored with ``"type": name``."""

    def declare(cls: type[M]) -> type[M]:
        if name in KINDS:
            raise ValueError(f"two message classes for {name!r}")
        cls.KIND = name
        KINDS[name] = cls
        return cls

    return declare


# A field's metadata says how it is stored (see the module's docstring):
OMIT_NONE = {"omit": None}  # left out while None
OMIT_FALSE = {"omit": False}  # left out while False


def flat(cls: type[Any]) -> dict[str, Any]:
    """Metadata of a field (a ``cls`` dataclass or None) whose own fields are stored among
    the message's, and left out while it is None."""
    return {"flat": cls}


def converted(to_json: Callable[[Any], Any], from_json: Callable[[Any], Any]) -> dict[str, Any]:
    """Metadata of a field stored as ``to_json(value)`` and read back with ``from_json``."""
    return {"to_json": to_json, "from_json": from_json}


def _fields_json(value: Any) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for f in dataclasses.fields(value):
        v = getattr(value, f.name)
        meta = f.metadata
        if "omit" in meta and v == meta["omit"] and type(v) is type(meta["omit"]):
            continue
        if meta.get("flat"):
            if v is not None:
                out |= _fields_json(v)
        elif "to_json" in meta:
            out[f.name] = meta["to_json"](v)
        else:
            out[f.name] = v
    return out


def _from_json(cls: type[Any], raw: dict[str, Any]) -> Any:
    values: dict[str, Any] = {}
    for f in dataclasses.fields(cls):
        if f.metadata.get("flat"):
            inner = f.metadata["flat"]
            first = dataclasses.fields(inner)[0].name
            if first in raw:
                values[f.name] = _from_json(inner, raw)
        elif f.name in raw:
            v = raw[f.name]
            values[f.name] = f.metadata["from_json"](v) if "from_json" in f.metadata else v
        elif f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
            raise MalformedMessageError(f"{raw.get('type', cls.__name__)!r} without {f.name!r}")
    return cls(**values)


def encode(message: Message) -> dict[str, Any]:
    """The JSON an outbox row stores for ``message``."""
    cls = type(message)
    name = getattr(cls, "KIND", "")
    if not name or KINDS.get(name) is not cls:
        raise UnknownMessageError(f"{cls.__name__} is not an outbox message kind")
    return {"type": cls.KIND, **_fields_json(message)}


def decode(payload: dict[str, Any]) -> Message:
    """The message a stored row holds (written by this release or an earlier one)."""
    cls = KINDS.get(str(payload.get("type", "")))
    if cls is None:
        raise UnknownMessageError(f"no outbox message kind {payload.get('type')!r}")
    found: Message = _from_json(cls, payload)
    return found


def _events_json(events: tuple[Event, ...]) -> list[dict[str, Any]]:
    return [e.to_dict() for e in events]


def _events_of(raw: list[dict[str, Any]]) -> tuple[Event, ...]:
    return tuple(Event.from_dict(e) for e in raw)


# --- a game's steps ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ScoreHistory:
    """The closing scores of each round (``[{"round", "scores"}]``) and the game's
    winning score (None: none set): what the end-of-game chart draws."""

    score_history: list[dict[str, Any]]
    win_score: int | None


@kind("events")
@dataclass(frozen=True, slots=True, kw_only=True)
class StepEvents(Message):
    """The events of one step (``step``: advance, remove, replace, end): the public ones in
    the channel's post, or one seat's own in its holder's report. A post written before
    the outbox named the step is an advance's. The post that ends the game carries the
    scores round by round (``history``); the private news of that
    step is ``final``; a report that tells of a wound carries the coming roll
    (``wounded``)."""

    step: str = "advance"
    round: int
    phase: str
    seat: int | None = field(default=None, metadata=OMIT_NONE)
    events: tuple[Event, ...] = field(metadata=converted(_events_json, _events_of))
    final: bool = field(default=False, metadata=OMIT_FALSE)
    wounded: dict[str, Any] | None = field(default=None, metadata=OMIT_NONE)
    history: ScoreHistory | None = field(default=None, metadata=flat(ScoreHistory))


@kind("phase_started")
@dataclass(frozen=True, slots=True, kw_only=True)
class PhaseStarted(Message):
    """A phase is open, until ``deadline`` (ISO time; None: until a moderator advances)."""

    round: int
    phase: str
    deadline: str | None


@kind("phase_explained")
@dataclass(frozen=True, slots=True, kw_only=True)
class PhaseExplained(Message):
    """A practice game's first Day, Dusk or Morning: what the phase is for and the rule
    that matters in it (``phase``: day, dusk or morning)."""

    phase: str


@kind("game_started")
@dataclass(frozen=True, slots=True, kw_only=True)
class GameStarted(Message):
    """The table as dealt (seats and names) and the hash of the secret seed."""

    table: list[dict[str, Any]]
    seed_sha256: str


@kind("sheet")
@dataclass(frozen=True, slots=True, kw_only=True)
class Sheet(Message):
    """A seat's own sheet (``engine.view.sheet``), to whoever has just taken the seat."""

    sheet: view.Sheet
    # The holder's first game with the bot: a one-line tip comes with it.
    tip: bool = field(default=False, metadata=OMIT_FALSE)


@kind("seed_revealed")
@dataclass(frozen=True, slots=True, kw_only=True)
class SeedRevealed(Message):
    seed: str
    seed_sha256: str


@dataclass(frozen=True, slots=True)
class MissRun:
    """A private reminder's note on a run of misses: its length, how many more the
    absence policy waits for (None: it never acts), and what it does then."""

    in_row: int
    left: int | None
    action: str


@kind("reminder")
@dataclass(frozen=True, slots=True, kw_only=True)
class Reminder(Message):
    """A phase closes soon. In the channel: how many have not sent (``missing``). To a
    seat's holder: theirs is missing, with their wound's coming roll and their run of
    misses when they have one."""

    round: int
    phase: str
    deadline: str | None
    missing: int | None = field(default=None, metadata=OMIT_NONE)
    seat: int | None = field(default=None, metadata=OMIT_NONE)
    wounded: dict[str, Any] | None = field(default=None, metadata=OMIT_NONE)
    run: MissRun | None = field(default=None, metadata=flat(MissRun))


@kind("prompt")
@dataclass(frozen=True, slots=True, kw_only=True)
class PhasePrompt(Message):
    """To a living seat's holder when a phase opens: what they send in it, with its
    controls, until ``deadline`` (ISO time; None: until a moderator advances). ``sheet``:
    the seat's own sheet as the phase opened (``engine.view.sheet``), from which the
    controls are drawn (a wounded seat gets no night orders); ``wounded``: the coming
    roll, as a reminder carries it (see ``common.wound_note``); ``tip``: the phase comes
    for the first time in the holder's first game, and a one-line tip explains it;
    ``zone``: the holder's own time zone, in which the deadline's hour is also said."""

    round: int
    phase: str
    deadline: str | None
    seat: int
    sheet: view.Sheet
    wounded: dict[str, Any] | None = field(default=None, metadata=OMIT_NONE)
    tip: bool = field(default=False, metadata=OMIT_FALSE)
    zone: str | None = field(default=None, metadata=OMIT_NONE)  # the holder's own time zone, when set


@kind("ending")
@dataclass(frozen=True, slots=True, kw_only=True)
class Ending(Message):
    """A player's own ending: their seat, class and faction, the result and its reason,
    the scores, their points, (when rated) their rating ``{"before", "after"}`` and the
    head starts in the scores (house rule uneven_tables: faction -> points)."""

    seat: int
    class_id: str
    faction: str
    alive: bool
    result: str
    reason: str | None
    round: int
    scores: dict[str, int]
    winners: list[str]
    points: dict[str, int]
    rating: dict[str, float | None] | None = field(default=None, metadata=OMIT_NONE)
    head_starts: dict[str, int] | None = field(default=None, metadata=OMIT_NONE)


@kind("recap")
@dataclass(frozen=True, slots=True, kw_only=True)
class RecapPart(Message):
    """One part (of ``parts``) of a newcomer's catch-up on ``seat``: recap entries as
    ``RecapEntry.to_dict`` stores them."""

    seat: int
    part: int
    parts: int
    entries: list[dict[str, Any]]


@kind("gallery_truth")
@dataclass(frozen=True, slots=True, kw_only=True)
class GalleryTruth(Message):
    """In the gallery only (the dead's channel, with its spectators): the hidden truth of
    one step of the game log, as the replay tells it: its events of every audience and
    its rolls, and for the start (``step`` "start") the deal, each seat's class and
    faction. ``late``: posted one whole round after it happened (the game's setting
    ``gallery``: late), else as it happened (open)."""

    step: str
    round: int
    phase: str
    events: tuple[Event, ...] = field(metadata=converted(_events_json, _events_of))
    rolls: list[dict[str, Any]] = field(default_factory=list)
    deal: list[dict[str, Any]] | None = field(default=None, metadata=OMIT_NONE)
    late: bool = field(default=False, metadata=OMIT_FALSE)


@kind("predictions_open")
@dataclass(frozen=True, slots=True, kw_only=True)
class PredictionsOpened(Message):
    """In the gallery only: the round's menu of predictions (the winning faction), open
    until the round's Dusk closes."""

    round: int


@kind("prediction_scores")
@dataclass(frozen=True, slots=True, kw_only=True)
class PredictionScores(Message):
    """In the gallery only, at the end: the winners and each forecaster's Brier score
    (``scores``: ``{"user", "rounds", "brier"}``, best first)."""

    winners: list[str]
    scores: list[dict[str, Any]]


@kind("season_ended")
@dataclass(frozen=True, slots=True, kw_only=True)
class SeasonEnded(Message):
    """In the channel a moderator ended a season from: its summary, the games and
    players it counted, the top of its board (``top``: ``{"name", "rating", "games",
    "wins"}``, best first) and its awards (``awards``: ``{"key", "names", "value",
    "out_of"}``, as ``bot.features.seasons.awards`` computes them)."""

    number: int
    name: str | None
    started_at: str  # ISO times
    ended_at: str
    games: int
    players: int
    top: list[dict[str, Any]]
    awards: list[dict[str, Any]]


# --- a moderator's hand -----------------------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class PhaseNotice(Message):
    """A channel notice about the open phase (not a kind itself)."""

    round: int
    phase: str


@kind("game_paused")
@dataclass(frozen=True, slots=True, kw_only=True)
class GamePaused(PhaseNotice):
    """The clock has stopped."""


@kind("game_resumed")
@dataclass(frozen=True, slots=True, kw_only=True)
class GameResumed(PhaseNotice):
    """The clock runs again."""


@kind("deadline_extended")
@dataclass(frozen=True, slots=True, kw_only=True)
class DeadlineExtended(PhaseNotice):
    """The phase closes later: at ``deadline`` (ISO time)."""

    deadline: str


@kind("player_replaced")
@dataclass(frozen=True, slots=True, kw_only=True)
class PlayerReplaced(Message):
    """In the channel: ``new_name`` holds ``seat`` now."""

    seat: int
    old_name: str
    new_name: str


@kind("seat_handed_over")
@dataclass(frozen=True, slots=True, kw_only=True)
class SeatHandedOver(Message):
    """To the seat's former holder: ``new_name`` holds it now."""

    seat: int
    new_name: str


@kind("target_removed")
@dataclass(frozen=True, slots=True, kw_only=True)
class TargetRemoved(Message):
    """Your submission (``what``: its kind) named ``seat``, which a moderator removed."""

    what: str
    seat: int
    name: str
    round: int


@kind("game_cancelled")
@dataclass(frozen=True, slots=True, kw_only=True)
class GameCancelled(Message):
    """A game cancelled (``reason``). In the channel, a lobby short of players at its
    start time says how many came (``count``, ``min``). By DM, when its channel is gone:
    the ``game``, and once it had started its seed."""

    reason: str
    game: int | None = field(default=None, metadata=OMIT_NONE)
    seed: str | None = field(default=None, metadata=OMIT_NONE)
    seed_sha256: str | None = field(default=None, metadata=OMIT_NONE)
    count: int | None = field(default=None, metadata=OMIT_NONE)
    min: int | None = field(default=None, metadata=OMIT_NONE)


# --- the lobby --------------------------------------------------------------------------


@kind("lobby")
@dataclass(frozen=True, slots=True, kw_only=True)
class LobbyPost(Message):
    """The lobby's post, worded from the game as it stands when it is sent."""


@kind("lobby_kicked")
@dataclass(frozen=True, slots=True, kw_only=True)
class LobbyKicked(Message):
    """To one taken out of a lobby by a moderator."""


@kind("lobby_reminder")
@dataclass(frozen=True, slots=True, kw_only=True)
class LobbyReminder(Message):
    """To a lobby's member: the game starts at ``start_at`` (with ``count`` of ``min``)."""

    start_at: str
    count: int
    min: int
    channel_id: int


# --- absence and standbys ---------------------------------------------------------------


@kind("absence_warning")
@dataclass(frozen=True, slots=True, kw_only=True)
class AbsenceWarning(Message):
    """To one who missed a phase: the run, the total, what follows (see :class:`MissRun`)."""

    round: int
    phase: str
    seat: int
    in_row: int
    total: int
    left: int | None
    action: str


@kind("absence_moderator")
@dataclass(frozen=True, slots=True, kw_only=True)
class AbsenceModerator(Message):
    """To the moderator: a seat's run of misses reached the limit; ``action`` was taken."""

    game: int
    seat: int
    name: str
    in_row: int
    total: int
    action: str


@kind("offers_exhausted")
@dataclass(frozen=True, slots=True, kw_only=True)
class OffersExhausted(Message):
    """To the moderator: no standby took ``seat`` (``removed``: so it was removed)."""

    game: int
    seat: int
    name: str
    removed: bool


@kind("seat_offer")
@dataclass(frozen=True, slots=True, kw_only=True)
class SeatOffered(Message):
    """To a standby: seat ``seat`` of ``game`` is theirs if they take ``offer`` before
    ``expires``."""

    offer: int
    game: int
    seat: int
    expires: str
    channel: int

