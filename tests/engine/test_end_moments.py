"""R13: the end is checked after the grail allocation, after the whole night (which always
finishes) and after the vote — each time at once, not a phase later."""

import sys
from types import SimpleNamespace

import pytest

from engine import advance
from engine.model import Phase
from engine.submissions import Action, GrailNumber, Orders, Vote
from tests.engine.helpers import ScriptedDice, table

SIX = [("warrior", "lawful"), ("warrior", "neutral"), ("warrior", "chaotic")] * 2


@pytest.fixture
def dice(monkeypatch):
    """The phase's dice, scripted by the test."""
    d = ScriptedDice()
    monkeypatch.setattr(sys.modules["engine.advance"], "Dice", SimpleNamespace(for_phase=lambda *_: d))
    return d


def test_the_allocation_that_reaches_the_winning_score_ends_the_game_before_dusk(dice):
    st = table(*SIX, phase=Phase.DAY)
    st.scores["lawful"] = 14
    out = advance(st, {1: [GrailNumber(40)]}, "seed")
    assert out.state.over and out.state.end_reason == "score"
    # +1 for the allocation, then +2 for each of two living members
    assert out.state.scores == {"lawful": 19, "neutral": 4, "chaotic": 4}
    assert [e.kind for e in out.events if e.kind == "GameEnded"] == ["GameEnded"]


def test_the_night_finishes_then_the_game_ends_before_the_vote(dice):
    st = table(*SIX)
    st.scores["lawful"] = 12
    st.player(2).hp = 0  # wounded: any attack hits, any damage kills
    st.grail_holder = 6
    # initiative: seat 1 first, seat 3 next, the others after
    dice.push((20, 20), (20, 1), (20, 19), (20, 2), (20, 3), (20, 4))
    dice.push((100, 50), (3, 1))  # seat 1 kills seat 2: lawful reaches 15 mid-night
    dice.push((100, 1), (3, 2))  # seat 3 still acts: hits seat 5 for 2
    orders = {1: [Orders((Action("attack", (2,)),))], 3: [Orders((Action("attack", (5,)),))]}
    out = advance(st, orders, "seed")
    assert out.state.over and out.state.end_reason == "score"
    assert out.state.player(5).hp == 8  # the rest of the night was resolved
    assert out.state.player(6).grails_banked == 1  # and the grail was banked at its end
    assert out.state.phase is Phase.OVER and out.state.round == 1
    assert not dice.script


def test_a_death_by_vote_that_leaves_a_majority_ends_the_game_before_the_next_day(dice):
    st = table(*SIX, phase=Phase.MORNING)
    for seat in (5, 6):
        st.player(seat).alive = False
        st.player(seat).hp = -1
    st.player(2).hp = 0
    # 1 and 4 (lawful) outnumber 3 (chaotic) once the vote kills 2 (neutral)
    out = advance(st, {1: [Vote(2)], 4: [Vote(2)]}, "seed")
    assert not out.state.player(2).alive
    assert out.state.over and out.state.end_reason == "majority"
    assert out.state.round == 1
