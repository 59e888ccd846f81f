"""What a player sends, as commands, and the one road that stores it (:func:`handle`).

Each command is a frozen dataclass carrying what the player typed or picked: a grail
number, a vote's target, an action, a toggle, a guess, a whole submission (a panel's
form, a pass), or the withdrawal of what was sent. A target is a seat picked from a menu
(an ``int``) or what was typed for a player (a name, a mention, ``#3``); a skill or a
guess typed by name is resolved too. :func:`handle` opens one unit of work: it locks the
game (the one ``game_id`` names, else the live game of ``channel_id``, a server channel,
else the caller's one live game), checks the phase pinned by ``round_no`` (a panel knows
the phase it was drawn for), builds the caller's view when something typed needs
resolving, resolves it (a player with the pure functions of ``bot.core.resolve``, a
skill or a guess with the engine's ``parse_skill`` and ``parse_guess``), adds a piece
to what is stored (``engine.pieces``), validates the whole with the engine and stores
it. Whatever is refused is refused before anything is written.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, overload

import engine
from bot.core import table
from bot.core.errors import (
    BadArgumentError,
    GuessRefusedError,
    ResolveError,
    RuleRefusedError,
    SwitchNotToggleError,
)
from bot.core.resolve import seat_of, seats_of
from bot.core.table import Place
from bot.core.types import PlayerView, Receipt, check_expected, check_id
from bot.db import repositories as repo
from bot.db.models import Submission
from bot.db.session import Database
from bot.features.play.submissions import SUBMISSION_TYPES, refusal, seated, store_mine, validated
from bot.i18n import terms
from engine.errors import WrongPhaseError

# A player named by a seat picked from a menu, or by what was typed for them.
Target = str | int


@dataclass(frozen=True, slots=True)
class SendGrail:
    """Day: a whole number 1-100."""

    number: int


@dataclass(frozen=True, slots=True)
class SendVote:
    """Morning: the player voted for."""

    target: Target


@dataclass(frozen=True, slots=True)
class AddAction:
    """One action (by skill id: ``attack``, ``release``, a class's skill) added to
    tonight's orders; the same skill again replaces it."""

    skill: str
    targets: tuple[Target, ...] = ()
    amount: int | None = None


@dataclass(frozen=True, slots=True)
class ActSkill:
    """``/act skill`` as typed: the skill by id or name; a toggle is switched (``on``, or
    flipped when None), release and other skills are actions."""

    skill: str
    targets: tuple[Target, ...] = ()
    amount: int | None = None
    on: bool | None = None


@dataclass(frozen=True, slots=True)
class ToggleSkill:
    """A toggle skill (by id) switched on or off for tonight, or flipped (``on=None``)."""

    skill: str
    on: bool | None = None


@dataclass(frozen=True, slots=True)
class AddGuess:
    """"``target`` is ``guess``" added to this Dusk's identifications: the guess typed
    (``holy``, ``Cleric``, ``trait:holy``) or picked as (what, value)."""

    target: Target
    guess: str | tuple[str, str]


@dataclass(frozen=True, slots=True)
class SendSubmission:
    """A whole submission (an ``engine`` submission or its dict form) for its phase."""

    submission: Any


@dataclass(frozen=True, slots=True)
class Withdraw:
    """What was sent of ``kind`` (grail, identify, orders, vote) this phase, deleted."""

    kind: str


# What stores a submission; with a withdrawal, every command.
Sending = SendGrail | SendVote | AddAction | ActSkill | ToggleSkill | AddGuess | SendSubmission
Command = Sending | Withdraw


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _typed(target: Any) -> bool:
    return isinstance(target, str)


def needs_view(command: Command) -> bool:
    """Whether resolving ``command`` reads the caller's view (something typed)."""
    if isinstance(command, SendVote):
        return _typed(command.target)
    if isinstance(command, AddAction):
        return any(map(_typed, command.targets))
    if isinstance(command, AddGuess):
        return _typed(command.target) or _typed(command.guess)
    return isinstance(command, ActSkill)


def _checked_action(action: engine.Action) -> engine.Action:
    """``action`` with its targets a tuple, or a BadArgumentError when its parts are not
    a skill id, seat numbers and a whole number (what a caller built, unchecked)."""
    if not isinstance(action.skill, str) or not 1 <= len(action.skill) <= 64:
        raise BadArgumentError(field="skill", reason="a skill id")
    targets = tuple(action.targets) if isinstance(action.targets, tuple | list) else None
    if targets is None or len(targets) > 15 or not all(_is_int(t) for t in targets):
        raise BadArgumentError(field="targets", reason="seat numbers")
    if action.amount is not None and not _is_int(action.amount):
        raise BadArgumentError(field="amount", reason="a whole number")
    return engine.Action(action.skill, targets, action.amount)


def _toggle_piece(skill: Any, on: Any) -> engine.TogglePiece:
    """The piece that switches ``skill`` (``on``, or flipped when None), or a
    BadArgumentError when they are not a skill id and a yes, a no or none."""
    if not isinstance(skill, str) or not 1 <= len(skill) <= 64:
        raise BadArgumentError(field="skill", reason="a skill id")
    if on is not None and not isinstance(on, bool):
        raise BadArgumentError(field="on", reason="true, false or none")
    return engine.TogglePiece(skill, on)


def _checked_guess(guess: engine.Guess) -> engine.Guess:
    """``guess``, or a BadArgumentError when it is not about a seat number or its parts
    are not words."""
    if not _is_int(guess.target):
        raise BadArgumentError(field="target", reason="a seat number")
    if not isinstance(guess.what, str) or not isinstance(guess.value, str) or len(guess.value) > 64:
        raise BadArgumentError(field="guess", reason="a trait, class or faction")
    return guess


def _whole_submission(value: Any) -> engine.Submission:
    if isinstance(value, dict):
        try:
            return engine.submission_from_dict(value)
        except engine.RuleViolation as exc:
            raise RuleRefusedError(exc) from None
    if not isinstance(value, SUBMISSION_TYPES):
        raise BadArgumentError(field="submission", reason="not a submission")
    return value


def checked(command: Any) -> Command:
    """``command``, or a BadArgumentError when it is none (before anything is read)."""
    if isinstance(command, SendGrail) and not _is_int(command.number):
        raise BadArgumentError(field="number", reason="a whole number")
    if isinstance(command, SendVote) and not (_is_int(command.target) or _typed(command.target)):
        raise BadArgumentError(field="target", reason="a seat number")
    if isinstance(command, Withdraw) and command.kind not in engine.PHASE_OF_KIND:
        raise BadArgumentError(field="kind", reason="grail, identify, orders or vote")
    if not isinstance(command, Command):
        raise BadArgumentError(field="submission", reason="not a submission")
    return command


def kind_of(command: Command) -> str:
    """The kind of submission ``command`` sends (or withdraws)."""
    if isinstance(command, SendGrail):
        return "grail"
    if isinstance(command, SendVote):
        return "vote"
    if isinstance(command, AddGuess):
        return "identify"
    if isinstance(command, Withdraw):
        return command.kind
    if isinstance(command, SendSubmission):
        return _whole_submission(command.submission).kind
    return "orders"


def asked(command: Command, view: PlayerView | None) -> engine.Submission | engine.Piece:
    """What ``command`` sends, its typed names resolved against the caller's ``view``
    (present when :func:`needs_view`): a whole submission or a piece of a Dusk's
    (``engine.pieces``)."""
    players = view.game.players if view is not None else []
    if isinstance(command, SendGrail):
        return engine.GrailNumber(command.number)
    if isinstance(command, SendVote):
        return engine.Vote(seat_of(command.target, players))
    if isinstance(command, AddAction):
        return engine.ActionPiece(_checked_action(engine.Action(command.skill, seats_of(command.targets, players), command.amount)))
    if isinstance(command, ToggleSkill):
        return _toggle_piece(command.skill, command.on)
    if isinstance(command, AddGuess):
        seat = seat_of(command.target, players)
        what, value = _guess_named(command.guess) if isinstance(command.guess, str) else command.guess
        return engine.GuessPiece(_checked_guess(engine.Guess(seat, what, value)))  # type: ignore[arg-type]  # the engine checks ``what``
    if isinstance(command, ActSkill):
        return _skill(command, view)
    assert isinstance(command, SendSubmission)
    return _whole_submission(command.submission)


def _guess_named(text: str) -> tuple[str, str]:
    """The (what, value) ``text`` names (``engine.parse_guess``, with the catalogues'
    words for traits and factions), or a ResolveError."""
    found = engine.parse_guess(text, terms.typed_words)
    if found is None:
        raise ResolveError("reply.error.guess_unknown", text=(text or "").strip()[:50])
    return found


def _skill(command: ActSkill, view: PlayerView | None) -> engine.Piece:
    if view is None or view.sheet is None:
        raise ResolveError("reply.error.not_started")
    chosen = engine.parse_skill(command.skill, view.sheet["class_id"], terms.release_words())
    if chosen is None:
        raise ResolveError("reply.error.skill_unknown", skill=(command.skill or "")[:50])
    targets = seats_of(command.targets, view.game.players)
    if chosen == engine.RELEASE:
        return engine.ActionPiece(_checked_action(engine.Action(engine.RELEASE, targets, command.amount)))
    assert not isinstance(chosen, str)
    if chosen.mode == "toggle":
        return _toggle_piece(chosen.id, command.on)
    if command.on is not None:  # only a toggle is switched on or off
        raise SwitchNotToggleError(skill=chosen.id, class_id=view.sheet["class_id"])
    return engine.ActionPiece(_checked_action(engine.Action(chosen.id, targets, command.amount)))


def _sent(rows: list[Submission], seat: int, kind: str) -> engine.Submission | None:
    """What ``seat`` has stored of ``kind`` among the phase's ``rows``, if anything."""
    row = next((r for r in rows if r.seat == seat and r.kind == kind), None)
    return None if row is None else engine.submission_from_dict(row.payload)


@overload
async def handle(db: Database, command: Withdraw, user_id: int, channel_id: int | None = None, *, game_id: int | None = None, round_no: int | None = None) -> bool: ...
@overload
async def handle(db: Database, command: Sending, user_id: int, channel_id: int | None = None, *, game_id: int | None = None, round_no: int | None = None) -> Receipt: ...
async def handle(
    db: Database, command: Command, user_id: int, channel_id: int | None = None, *, game_id: int | None = None, round_no: int | None = None
) -> Receipt | bool:
    """Store what ``user_id`` sends with ``command`` for the open phase of their game,
    in one unit of work, and return the receipt (its ``view``: the caller's view just
    after); a :class:`Withdraw` returns whether something was withdrawn.

    The game: ``game_id``'s; else the live game of ``channel_id`` (a server channel)
    when it has one; else the caller's one live game. ``round_no`` pins the phase of the
    command's kind in that round (PhaseClosedError when another is open); without it, a
    command sent in the wrong phase gets the engine's "wrong phase" (or "phase closed"
    right after its phase closed). Raises RuleRefusedError when the rules refuse it, a
    ResolveError when something typed names nothing."""
    check_id(user_id, "user")
    if channel_id is not None:
        check_id(channel_id, "channel")
    command = checked(command)
    kind = kind_of(command)
    phase = engine.PHASE_OF_KIND[kind] if round_no is not None else None
    check_expected(round_no, phase)
    place = Place.of(user_id, channel_id=channel_id, game_id=game_id)
    async with table.at(db, place, writing=True, player_rows=True) as t:
        seat = (await seated(t, round_no, phase)).seat
        if isinstance(command, Withdraw):
            return await _withdraw(t, seat, command.kind)
        rows = await t.phase_rows()
        view = await t.view() if needs_view(command) else None
        what = asked(command, view)
        whole = what.added_to(_sent(rows, seat, what.kind)) if isinstance(what, engine.Piece) else what
        try:
            normal = validated(t.state, t.game, seat, whole)
        except RuleRefusedError as exc:
            if not isinstance(command, AddGuess) or exc.params.get("reason") != "reason.identify_rule":
                raise
            view = view or await t.view()  # the sheet, for the rule, only when it is needed
            raise GuessRefusedError(exc.violation, view.sheet) from None
        return await store_mine(t, seat, normal)


async def _withdraw(t: table.Table, seat: int, kind: str) -> bool:
    """Delete what the caller sent of ``kind`` in the open phase, so that it is not
    resolved and no longer counts as sent for the early advance (an early close already
    set stays: see ``close_early_if_all_sent``). Outside the kind's phase: "phase
    closed" if that phase has just closed, else the engine's "wrong phase". Once the
    deadline has passed the phase still closes at the next tick, with whatever is left:
    like any late change, the withdrawal counts if it came first."""
    game = t.game
    assert game.phase is not None
    if engine.PHASE_OF_KIND[kind] != game.phase:
        wrong = WrongPhaseError(expected=f"phase.{engine.PHASE_OF_KIND[kind]}", phase=f"phase.{game.phase}")
        raise refusal(wrong, game, kind)
    return await repo.delete_submission(t.session, game.id, game.round, game.phase, seat, kind)
