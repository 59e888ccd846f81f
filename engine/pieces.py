"""Tonight's orders and this Dusk's identification, a piece at a time.

Each is one submission for the rules (a night's :class:`~engine.submissions.Orders`, a
Dusk's :class:`~engine.submissions.Identification`), but players send them piece by
piece: an action, a toggle switched, a guess. A piece added to what the seat has sent of
its kind this phase makes the new whole (:meth:`added_to`); the whole is what
:func:`engine.validate` checks and what is stored, so a piece the rules refuse leaves the
stored submission as it was.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from engine.submissions import RELEASE, Action, Guess, Identification, Orders, Submission


@dataclass(frozen=True, slots=True)
class ActionPiece:
    """One action added to tonight's orders. An action of a skill already in the orders
    replaces it in its place; a new one goes last (:data:`~engine.submissions.RELEASE`,
    which the rules accept only as the first action, goes first). Toggles are kept."""

    action: Action
    kind: ClassVar[str] = "orders"

    def added_to(self, sent: Submission | None) -> Orders:
        """The orders ``sent`` (this phase's of the seat; None or another kind: none yet)
        with this action."""
        current = sent if isinstance(sent, Orders) else Orders()
        piece = self.action
        actions = list(current.actions)
        same = next((i for i, a in enumerate(actions) if a.skill == piece.skill), None)
        if same is not None:
            actions[same] = piece
        elif piece.skill == RELEASE:
            actions.insert(0, piece)
        else:
            actions.append(piece)
        return Orders(tuple(actions), current.toggles)


@dataclass(frozen=True, slots=True)
class TogglePiece:
    """A toggle skill switched on (``on=True``) or off (``on=False``) for tonight, or
    flipped (``on=None``). The actions are kept."""

    skill: str
    on: bool | None = None
    kind: ClassVar[str] = "orders"

    def added_to(self, sent: Submission | None) -> Orders:
        """The orders ``sent`` (this phase's of the seat; None or another kind: none yet)
        with the toggle switched."""
        current = sent if isinstance(sent, Orders) else Orders()
        want = self.skill not in current.toggles if self.on is None else self.on
        toggles = current.toggles | {self.skill} if want else current.toggles - {self.skill}
        return Orders(current.actions, frozenset(toggles))


@dataclass(frozen=True, slots=True)
class GuessPiece:
    """One guess ("seat ``target`` is ``value``") added to this Dusk's identification; a
    guess of the same kind (trait, class, faction) about the same seat is replaced in its
    place."""

    guess: Guess
    kind: ClassVar[str] = "identify"

    def added_to(self, sent: Submission | None) -> Identification:
        """The identification ``sent`` (this phase's of the seat; None or another kind:
        none yet) with this guess."""
        current = sent if isinstance(sent, Identification) else Identification(())
        piece = self.guess
        guesses = list(current.guesses)
        same = next((i for i, g in enumerate(guesses) if (g.target, g.what) == (piece.target, piece.what)), None)
        if same is not None:
            guesses[same] = piece
        else:
            guesses.append(piece)
        return Identification(tuple(guesses))


# A piece of a Dusk's submission.
Piece = ActionPiece | TogglePiece | GuessPiece
