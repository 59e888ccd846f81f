"""The phases that wait for submissions, and what each asks of the table.

A round is a Day (each living player's grail number), a Dusk (identifications and night
orders; the Night is resolved as the Dusk closes) and a Morning (a vote). Each kind of
submission belongs to one phase; each phase waits for one main kind from every living
player before it may close early. The service asks these facts of the engine, and
:func:`engine.validate` refuses, by the same table, a submission sent in a phase other
than its own.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import fields

from engine.model import GameState, Phase
from engine.submissions import GrailNumber, Identification, Orders, Submission, Vote

# The phases that wait for submissions, in a round's order (Night resolves as Dusk
# closes; Over waits for nothing).
PHASE_ORDER: tuple[Phase, ...] = (Phase.DAY, Phase.DUSK, Phase.MORNING)

# The phase that takes each class of submission: the one table the others are read from.
PHASE_OF: Mapping[type[Submission], Phase] = {
    GrailNumber: Phase.DAY,
    Identification: Phase.DUSK,
    Orders: Phase.DUSK,
    Vote: Phase.MORNING,
}


def _kind(cls: type[Submission]) -> str:
    """The kind a class of submission is stored as (its ``kind`` field's value)."""
    return next(str(f.default) for f in fields(cls) if f.name == "kind")


# The phase of each kind of submission, by the kind it is stored as ("grail", "identify",
# "orders", "vote").
PHASE_OF_KIND: Mapping[str, Phase] = {_kind(cls): phase for cls, phase in PHASE_OF.items()}

# The kinds each phase takes, in the order they are sent and shown. (This table and the
# next are keyed by Phase, a str: a phase as the service stores it, "day", reads them too.)
KINDS_TAKEN: Mapping[str, tuple[str, ...]] = {
    phase: tuple(kind for kind, of in PHASE_OF_KIND.items() if of is phase) for phase in PHASE_ORDER
}

# The kind each phase waits for from every living player before it may close early (at
# Dusk the orders: identifications are optional).
MAIN_KIND: Mapping[str, str] = {Phase.DAY: "grail", Phase.DUSK: "orders", Phase.MORNING: "vote"}


def phase_before(round_no: int, phase: str) -> tuple[int, Phase]:
    """The (round, phase) that closed when ``phase`` of round ``round_no`` opened: the
    Morning of the round before for a Day (round 0 before the first), else the phase
    before in the round. ValueError for a phase that waits for nothing."""
    i = PHASE_ORDER.index(phase)
    if i == 0:
        return round_no - 1, PHASE_ORDER[-1]
    return round_no, PHASE_ORDER[i - 1]


def done_seats(state: GameState, phase: str, sent: Iterable[tuple[int, str]]) -> set[int]:
    """The seats that have sent all ``phase`` asks of them, of the (seat, kind) pairs
    ``sent`` in it: its main kind (:data:`MAIN_KIND`). At Dusk a wounded player, who
    cannot give orders, is done once they have sent identifications (or passed): waiting
    for orders they cannot give would tell the table, by an early close that never
    comes, that someone is hurt. A phase that waits for nothing (Over) has nobody done."""
    sent = set(sent)
    main = MAIN_KIND.get(phase)
    done = {seat for seat, kind in sent if kind == main}
    if phase == Phase.DUSK:
        done |= {p.seat for p in state.players if p.wounded and (p.seat, "identify") in sent}
    return done
