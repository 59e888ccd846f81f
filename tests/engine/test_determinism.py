"""Same seed and submissions ⇒ identical events; every roll recorded."""

import random

from engine import advance, new_game
from engine.dice import Dice
from tests.engine.randplay import play


def dump(played):
    return [([e.to_dict() for e in o.events], [r.to_dict() for r in o.rolls], o.state.to_dict()) for o in played.outcomes]


def test_same_seed_same_game_even_with_global_random_disturbed():
    first = dump(play("determinism-1"))
    random.seed(12345)
    for _ in range(1000):
        random.random()
    second = dump(play("determinism-1"))
    assert first == second
    assert first != dump(play("determinism-2"))


def test_advance_does_not_touch_its_input_state():
    state = new_game([f"p{i}" for i in range(6)], "s")
    before = state.to_dict()
    advance(state, {}, "s")
    assert state.to_dict() == before


def test_state_round_trips_through_its_dict_form():
    played = play("roundtrip", keep_states=True)
    from engine.model import GameState

    for st in played.states:
        assert GameState.from_dict(st.to_dict()).to_dict() == st.to_dict()


def test_every_roll_is_recorded_with_who_why_die_and_need():
    played = play("rolls")
    rolls = [r for o in played.outcomes for r in o.rolls]
    assert rolls
    for r in rolls:
        assert 1 <= r.result <= r.die and r.why
    checks = [r for r in rolls if r.need is not None]
    assert checks and all(r.die == 100 for r in checks)


def test_phase_dice_are_independent_of_other_phases():
    a = Dice.for_phase("seed", 3, "dusk")
    b = Dice.for_phase("seed", 3, "dusk")
    c = Dice.for_phase("seed", 3, "day")
    xs = [a.roll(100, None, "x") for _ in range(5)]
    assert xs == [b.roll(100, None, "x") for _ in range(5)]
    assert xs != [c.roll(100, None, "x") for _ in range(5)]


def test_dice_roll_the_numbers_they_always_rolled():
    # Every stored game replays from its seed: the stream of a seed never changes.
    dice = Dice("same-stream")
    rolled = [dice.roll(die, None, "t") for die in [1, 2, 3, 4, 6, 8, 10, 12, 20, 100, 7, 15] * 2]
    assert rolled == [1, 2, 2, 4, 5, 1, 2, 6, 20, 43, 1, 12, 1, 1, 3, 2, 4, 8, 3, 10, 14, 78, 2, 11]


def test_the_order_submissions_are_handed_over_in_does_not_matter():
    """A log replayed from a file whose seats were re-sorted (as text: "1", "10", "2")
    must give the same events: the engine takes the seats in order, whatever the order
    of the mapping it is given."""
    from engine import GrailNumber, Vote

    state = new_game([f"p{i}" for i in range(12)], "order")
    subs = {
        2: [GrailNumber(40)], 4: [GrailNumber(60)], 11: [GrailNumber(50), Vote(3)],
        3: [Vote(1)], 10: [GrailNumber(45)], 12: [GrailNumber(55)], 1: [Vote(2)],
    }  # fmt: skip
    orders = [sorted(subs), sorted(subs, reverse=True), sorted(subs, key=str)]
    outcomes = [advance(state, {s: subs[s] for s in order}, "order") for order in orders]
    first = ([e.to_dict() for e in outcomes[0].events], outcomes[0].rolls, outcomes[0].state.to_dict())
    assert [k for k in (e["kind"] for e in first[0]) if k == "SubmissionDropped"] == ["SubmissionDropped"] * 3
    for o in outcomes[1:]:
        assert ([e.to_dict() for e in o.events], o.rolls, o.state.to_dict()) == first
