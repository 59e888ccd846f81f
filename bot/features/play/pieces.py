"""Night orders and identifications a piece at a time.

Each is one submission for the engine (a night's ``Orders``, a Dusk's
``Identification``), but players send them piece by piece (``/act attack``, then
``/act skill``, then ``/identify``). A :class:`Piece` makes the whole from what the
player has stored this phase; ``bot.features.play.commands.handle`` reads it, adds the piece
and stores the whole again, all under the game's row lock: two pieces sent at the same
moment are applied one after the other, so neither is lost. The engine validates the
whole resulting submission; if it refuses, the piece is refused and the stored
submission stays as it was.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import engine
from bot.core.errors import BadArgumentError
from bot.db.models import Submission

# The engine accepts "let go of the one I grapple" only as the night's first action.
RELEASE = "release"

def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _checked_action(action: Any) -> engine.Action:
    if not isinstance(action, engine.Action):
        raise BadArgumentError(field="action", reason="not an action")
    if not isinstance(action.skill, str) or not 1 <= len(action.skill) <= 64:
        raise BadArgumentError(field="skill", reason="a skill id")
    targets = tuple(action.targets) if isinstance(action.targets, tuple | list) else None
    if targets is None or len(targets) > 15 or not all(_is_int(t) for t in targets):
        raise BadArgumentError(field="targets", reason="seat numbers")
    if action.amount is not None and not _is_int(action.amount):
        raise BadArgumentError(field="amount", reason="a whole number")
    return engine.Action(action.skill, targets, action.amount)


def _checked_guess(guess: Any) -> engine.Guess:
    if not isinstance(guess, engine.Guess):
        raise BadArgumentError(field="guess", reason="not a guess")
    if not _is_int(guess.target):
        raise BadArgumentError(field="target", reason="a seat number")
    if not isinstance(guess.what, str) or not isinstance(guess.value, str) or len(guess.value) > 64:
        raise BadArgumentError(field="guess", reason="a trait, class or faction")
    return guess


@dataclass(frozen=True, slots=True)
class Piece:
    """One piece of a Dusk's submission: ``build`` makes the whole from what is stored
    of ``empty``'s kind (``empty`` when nothing is)."""

    empty: engine.Orders | engine.Identification
    build: Callable[[Any], engine.Orders | engine.Identification]

    def whole(self, stored: list[Submission], seat: int) -> engine.Submission:
        """The submission ``seat`` sends with this piece added, from the phase's
        ``stored`` submissions."""
        row = next((r for r in stored if r.seat == seat and r.kind == self.empty.kind), None)
        current: Any = self.empty
        if row is not None:
            found = engine.submission_from_dict(row.payload)
            if isinstance(found, type(self.empty)):
                current = found
        return self.build(current)


def action_piece(action: engine.Action) -> Piece:
    """One action added to tonight's orders. Ordering a skill already in the orders
    replaces that action in its place; a new one goes last (``release``, which the rules
    accept only first, goes first). Toggles are kept."""
    piece = _checked_action(action)

    def build(current: engine.Orders) -> engine.Orders:
        actions = list(current.actions)
        same = next((i for i, a in enumerate(actions) if a.skill == piece.skill), None)
        if same is not None:
            actions[same] = piece
        elif piece.skill == RELEASE:
            actions.insert(0, piece)
        else:
            actions.append(piece)
        return engine.Orders(tuple(actions), current.toggles)

    return Piece(engine.Orders(), build)


def toggle_piece(skill: str, on: bool | None = None) -> Piece:
    """A toggle skill switched on (``on=True``) or off (``on=False``) for tonight, or
    flipped (``on=None``). The actions are kept."""
    if not isinstance(skill, str) or not 1 <= len(skill) <= 64:
        raise BadArgumentError(field="skill", reason="a skill id")
    if on is not None and not isinstance(on, bool):
        raise BadArgumentError(field="on", reason="true, false or none")

    def build(current: engine.Orders) -> engine.Orders:
        want = skill not in current.toggles if on is None else on
        toggles = current.toggles | {skill} if want else current.toggles - {skill}
        return engine.Orders(current.actions, frozenset(toggles))

    return Piece(engine.Orders(), build)


def guess_piece(guess: engine.Guess) -> Piece:
    """One guess ("seat ``target`` is ``value``") added to this Dusk's identifications;
    a guess of the same kind about the same seat is replaced in its place."""
    piece = _checked_guess(guess)

    def build(current: engine.Identification) -> engine.Identification:
        guesses = list(current.guesses)
        same = next((i for i, g in enumerate(guesses) if (g.target, g.what) == (piece.target, piece.what)), None)
        if same is not None:
            guesses[same] = piece
        else:
            guesses.append(piece)
        return engine.Identification(tuple(guesses))

    return Piece(engine.Identification(()), build)
