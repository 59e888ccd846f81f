"""What players send: grail numbers, identifications, night orders and votes.

Each submission is a frozen value with ``to_dict``/``from_dict`` so the service can store
it the moment it arrives. A later submission of the same kind in the same phase replaces
the earlier one.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from engine.errors import MalformedSubmissionError

GuessKind = Literal["trait", "class", "faction"]
# The action that lets go of the one a grappler holds: no class's skill, any grappler's
# free action, taken only as the night's first (RULES: Grappled).
RELEASE = "release"


@dataclass(frozen=True, slots=True)
class GrailNumber:
    number: int
    kind: str = field(default="grail", init=False)

    def to_dict(self) -> dict[str, Any]:
        return {"kind": "grail", "number": self.number}


@dataclass(frozen=True, slots=True)
class Guess:
    """"Seat ``target`` is ``value``", where value is a trait, class id or faction."""

    target: int
    what: GuessKind
    value: str

    def to_dict(self) -> dict[str, Any]:
        return {"target": self.target, "what": self.what, "value": self.value}


@dataclass(frozen=True, slots=True)
class Identification:
    guesses: tuple[Guess, ...]
    kind: str = field(default="identify", init=False)

    def to_dict(self) -> dict[str, Any]:
        return {"kind": "identify", "guesses": [g.to_dict() for g in self.guesses]}


@dataclass(frozen=True, slots=True)
class Action:
    """One night action: ``skill`` is a skill id of the actor's class, ``attack`` or
    :data:`RELEASE`.

    ``amount`` carries a number some skills take (spell points)."""

    skill: str
    targets: tuple[int, ...] = ()
    amount: int | None = None

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"skill": self.skill, "targets": list(self.targets)}
        if self.amount is not None:
            d["amount"] = self.amount
        return d


@dataclass(frozen=True, slots=True)
class Orders:
    """A player's whole night: actions in the order given, and toggles switched on."""

    actions: tuple[Action, ...] = ()
    toggles: frozenset[str] = frozenset()
    kind: str = field(default="orders", init=False)

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": "orders",
            "actions": [a.to_dict() for a in self.actions],
            "toggles": sorted(self.toggles),
        }


@dataclass(frozen=True, slots=True)
class Vote:
    target: int
    kind: str = field(default="vote", init=False)

    def to_dict(self) -> dict[str, Any]:
        return {"kind": "vote", "target": self.target}


Submission = GrailNumber | Identification | Orders | Vote


def seats_named(sub: Submission) -> frozenset[int]:
    """The seats a submission names: its targets, the seats it guesses about, its vote."""
    if isinstance(sub, Vote):
        return frozenset((sub.target,))
    if isinstance(sub, Orders):
        return frozenset(t for a in sub.actions for t in a.targets)
    if isinstance(sub, Identification):
        return frozenset(g.target for g in sub.guesses)
    return frozenset()


def _whole(value: Any) -> int:
    """A stored whole number; anything else (a float, which ``int`` would cut down) is
    refused."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"not a whole number: {value!r}")
    return value


def submission_from_dict(d: dict[str, Any]) -> Submission:
    """Rebuild a stored submission; a malformed one raises MalformedSubmissionError."""
    try:
        kind = d["kind"]
        if kind == "grail":
            return GrailNumber(_whole(d["number"]))
        if kind == "identify":
            return Identification(
                tuple(Guess(int(g["target"]), g["what"], str(g["value"])) for g in d["guesses"])
            )
        if kind == "orders":
            return Orders(
                tuple(
                    Action(
                        str(a["skill"]),
                        tuple(int(t) for t in a.get("targets", ())),
                        None if a.get("amount") is None else int(a["amount"]),
                    )
                    for a in d.get("actions", ())
                ),
                frozenset(str(t) for t in d.get("toggles", ())),
            )
        if kind == "vote":
            return Vote(int(d["target"]))
    except (KeyError, TypeError, ValueError) as exc:
        raise MalformedSubmissionError(reason=str(exc)) from exc
    raise MalformedSubmissionError(reason=f"unknown kind {d.get('kind')!r}")
