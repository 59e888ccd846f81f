"""The dice behave as the rules say over many trials. Seeds are fixed, so these cannot
flake; the tolerances (about 4 standard errors) would still hold for any seed."""

from engine.dice import Dice
from engine.night.combat import attack, steal
from engine.night.context import Night
from engine.night.resolve import wound_roll
from tests.engine.helpers import table

TRIALS = 20_000


def rate(hits: int) -> float:
    return hits / TRIALS


def test_hit_rate_is_ab_minus_ac():
    dice = Dice("hits")
    hits = 0
    for _ in range(TRIALS):
        st = table(("warrior", "lawful"), ("warrior", "neutral"))
        n = Night(st, dice, [], {})
        # counter-attacks would add rolls but not hits on seat 2's HP
        hits += attack(n, st.player(1), st.player(2), deal_damage=False, counterable=False).hit
    assert abs(rate(hits) - 0.55) < 0.015  # 75 - 20


def test_steals_succeed_half_the_time():
    dice = Dice("steals")
    ok = 0
    for _ in range(TRIALS):
        st = table(("warrior", "lawful"), ("warrior", "neutral"))
        st.grail_holder = 2
        ok += steal(Night(st, dice, [], {}), st.player(1), st.player(2))
    assert abs(rate(ok) - 0.5) < 0.015


def test_wound_rolls_fifty_fifty_then_sixty_forty():
    dice = Dice("wounds")
    first = second_recover = second_die = 0
    for _ in range(TRIALS):
        st = table(("warrior", "lawful"), ("warrior", "neutral"))
        p = st.player(2)
        p.hp = 0
        n = Night(st, dice, [], {})
        wound_roll(n, p)
        first += p.hp == 1
        p.hp, p.wound_rolls = 0, 1
        wound_roll(n, p)
        second_recover += p.hp == 1
        second_die += not p.alive
    assert abs(rate(first) - 0.5) < 0.015
    assert abs(rate(second_recover) - 0.6) < 0.015
    assert abs(rate(second_die) - 0.4) < 0.015
    assert second_recover + second_die == TRIALS


def test_d20_and_d100_are_uniform():
    dice = Dice("uniform")
    counts = [0] * 20
    for _ in range(TRIALS):
        counts[dice.roll(20, None, "t") - 1] += 1
    expected = TRIALS / 20
    assert all(abs(c - expected) < 0.12 * expected for c in counts)
