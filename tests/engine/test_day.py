"""Day: grail allocation."""

from engine.day import allocate_grail
from engine.events import Audience
from engine.model import Phase
from tests.engine.helpers import ScriptedDice, kinds, table


def five():
    return table(*[("warrior", f) for f in ("lawful", "neutral", "chaotic", "lawful", "neutral")], phase=Phase.DAY)


def test_closest_to_mean_wins_and_scores_one_point():
    st = five()
    events = []
    # mean of 10, 50, 60, 90 = 52.5: 50 is 2.5 away, 60 is 7.5 away
    winner = allocate_grail(st, ScriptedDice(), events, {1: 10, 2: 50, 3: 60, 4: 90})
    assert winner == 2
    assert st.grail_holder == 2
    assert st.scores == {"lawful": 0, "neutral": 1, "chaotic": 0}
    won = [e for e in events if e.kind == "GrailWon"]
    assert len(won) == 1 and won[0].audience is Audience.PRIVATE and won[0].seat == 2


def test_numbers_and_mean_are_never_public():
    st = five()
    events = []
    allocate_grail(st, ScriptedDice([(2, 1)]), events, {1: 10, 2: 50})
    assert all(e.audience is not Audience.PUBLIC for e in events)
    detail = next(e for e in events if e.kind == "GrailAllocated")
    assert detail.audience is Audience.AUDIT and detail.data["numbers"] == {"1": 10, "2": 50}


def test_ties_are_rolled_among_the_tied_only():
    st = five()
    # mean of 40 and 60 is 50: both 10 away; the d2 picks the second of [1, 3]
    events = []
    winner = allocate_grail(st, ScriptedDice([(2, 2)]), events, {1: 40, 3: 60})
    assert winner == 3
    assert next(e for e in events if e.kind == "GrailAllocated").data["tied"] == [1, 3]


def test_non_senders_and_the_dead_take_no_part():
    st = five()
    st.player(5).alive = False
    events = []
    # seat 5's 100 must not move the mean: mean of 20 and 30 is 25, a tie rolled between 1 and 2
    winner = allocate_grail(st, ScriptedDice([(2, 1)]), events, {1: 20, 2: 30, 5: 100})
    assert winner == 1


def test_nobody_sends_nobody_gets_the_grail():
    st = five()
    events = []
    assert allocate_grail(st, ScriptedDice(), events, {}) is None
    assert st.grail_holder is None
    assert kinds(events) == ["GrailUnclaimed"]
    assert sum(st.scores.values()) == 0


def test_a_lone_sender_wins():
    st = five()
    assert allocate_grail(st, ScriptedDice(), [], {4: 99}) == 4
