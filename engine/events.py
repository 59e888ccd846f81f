"""Events: what happened, and who may learn of it.

An event's ``kind`` is a past-tense name (``GrailStolen``); the renderer turns
``kind`` + ``data`` into localized text. ``audience`` decides who sees it:
``public`` (the game channel), ``private`` (one seat), or ``audit`` (moderators and the
game log after the end). The rules' secrecy is enforced here: an event is built with the
narrowest audience that the rules allow.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any


class Audience(StrEnum):
    PUBLIC = "public"
    PRIVATE = "private"
    AUDIT = "audit"


@dataclass(frozen=True, slots=True)
class Event:
    kind: str
    audience: Audience
    seat: int | None = None  # the recipient, for private events
    data: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "audience": self.audience.value, "seat": self.seat, "data": self.data}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Event:
        return cls(d["kind"], Audience(d["audience"]), d.get("seat"), dict(d.get("data", {})))


# Enum members looked up once: a game builds hundreds of events.
_PUBLIC, _PRIVATE, _AUDIT = Audience.PUBLIC, Audience.PRIVATE, Audience.AUDIT


def public(kind: str, **data: Any) -> Event:
    return Event(kind, _PUBLIC, None, data)


def private(seat: int, kind: str, **data: Any) -> Event:
    return Event(kind, _PRIVATE, seat, data)


def audit(kind: str, **data: Any) -> Event:
    return Event(kind, _AUDIT, None, data)


# Kinds the public channel may ever carry (RULES: vote counts, departures, a faction wiped
# out, victory), plus phase markers that reveal nothing. Tests hold the engine to this list.
PUBLIC_KINDS = frozenset(
    {"VotesCounted", "PlayerLeft", "FactionWipedOut", "GameEnded", "GrailUnclaimed", "RoundStarted", "DeparturesHeld"}
)
