"""What each phase asks of the table (engine.phases): the order of the phases, the kinds
each takes and waits for, and who has sent all they must."""

from __future__ import annotations

import pytest

import engine
from engine import GrailNumber, Identification, Orders, Phase, Vote
from engine.errors import WrongPhaseError
from tests.engine.helpers import table


def test_every_kind_of_submission_has_its_phase_once():
    """The tables by class, by kind and by phase say the same: a submission's own kind
    names its class's phase, and each phase takes exactly the kinds of its classes."""
    samples = (GrailNumber(50), Identification(()), Orders(), Vote(1))
    assert {type(s) for s in samples} == set(engine.PHASE_OF)
    assert {s.kind: engine.PHASE_OF[type(s)] for s in samples} == engine.PHASE_OF_KIND
    assert engine.KINDS_TAKEN == {Phase.DAY: ("grail",), Phase.DUSK: ("identify", "orders"), Phase.MORNING: ("vote",)}
    assert engine.MAIN_KIND == {Phase.DAY: "grail", Phase.DUSK: "orders", Phase.MORNING: "vote"}
    assert all(engine.MAIN_KIND[p] in engine.KINDS_TAKEN[p] for p in engine.PHASE_ORDER)
    assert engine.PHASE_OF_KIND["identify"] == "dusk" and engine.KINDS_TAKEN["dusk"] == ("identify", "orders")  # a stored phase is a str


def test_validate_refuses_a_kind_outside_its_phase():
    state = table(("warrior", "lawful"), ("rogue", "chaotic"), phase=Phase.DAY)
    with pytest.raises(WrongPhaseError) as refused:
        engine.validate(state, 1, Vote(2))
    assert refused.value.params == {"expected": "phase.morning", "phase": "phase.day"}


@pytest.mark.parametrize(
    ("round_no", "phase", "before"),
    [(1, "day", (0, "morning")), (3, "day", (2, "morning")), (3, "dusk", (3, "day")), (3, "morning", (3, "dusk"))],
)
def test_the_phase_closed_before(round_no, phase, before):
    assert engine.phase_before(round_no, phase) == before
    assert engine.phase_before(round_no, Phase(phase)) == before


def test_the_phase_before_needs_a_phase_that_waits():
    with pytest.raises(ValueError):
        engine.phase_before(3, "over")


def test_who_has_sent_all_they_must():
    """The main kind of the phase makes a seat done; at Dusk a wounded seat, who cannot
    give orders, is done with identifications alone, and a seat that is not is not."""
    state = table(("warrior", "lawful"), ("rogue", "chaotic"), ("cleric", "lawful"), ("bard", "neutral"))
    state.player(3).hp = 0  # wounded
    sent = [(1, "orders"), (2, "identify"), (3, "identify"), (4, "grail")]
    assert engine.done_seats(state, "dusk", sent) == {1, 3}
    assert engine.done_seats(state, Phase.DUSK, iter(sent)) == {1, 3}
    assert engine.done_seats(state, "day", sent) == {4}
    assert engine.done_seats(state, "morning", [(2, "vote"), (3, "identify")]) == {2}
    assert engine.done_seats(state, "over", sent) == set()
