"""``--repeat`` statistics against the probabilities the rules give.

Every check is deterministic (fixed base seeds) and its tolerance is several standard
deviations wide, so it cannot flake and still catches a wrong probability."""

from __future__ import annotations

import pytest

from bot.scenario import Stats, loads, run_many
from bot.scenario.build import Scenario

N = 2000


def scenario(body: str, phase: str = "dusk") -> Scenario:
    return loads(f'phase = "{phase}"\nround = 2\n' + body)


ATTACK = """
[[players]]
class = "warrior"
faction = "lawful"
orders = [{ skill = "attack", targets = [2] }]
[[players]]
class = "warrior"
faction = "neutral"
hp = 6
holds_grail = true
"""


@pytest.fixture(scope="module")
def attack_stats() -> Stats:
    return run_many(scenario(ATTACK), "stats", N)


def test_hit_rate_matches_ab_minus_ac(attack_stats: Stats) -> None:
    # AB 75 − AC (15 + 5) = 55%.
    tally = attack_stats.attacks[(1, 2, "attack")]
    assert tally.attempts == N
    assert 0.50 <= tally.rate <= 0.60


def test_grail_ends_with_the_attacker_at_hit_times_steal(attack_stats: Stats) -> None:
    # 55% hit × 50% steal = 27.5%; the rest of the time the carrier banks it.
    stats = attack_stats
    assert set(stats.grail) == {"seat 1", "seat 2"}
    assert 0.235 <= stats.rate(stats.grail["seat 1"]) <= 0.315
    steal = stats.steals[(1, 2)]
    assert steal.attempts == stats.attacks[(1, 2, "attack")].successes
    assert 0.45 <= steal.rate <= 0.55


def test_counter_attacks_follow_misses(attack_stats: Stats) -> None:
    # Combat Reflexes: 50% of misses; the counter's AB is 75 − 10 + 20 (Precise Attack:
    # the carrier has held the grail tonight) − AC 20 = 65%.
    stats = attack_stats
    misses = N - stats.attacks[(1, 2, "attack")].successes
    counter = stats.attacks[(2, 1, "counter")]
    assert 0.45 * misses <= counter.attempts <= 0.55 * misses
    assert 0.58 <= counter.rate <= 0.72
    assert stats.checks[(2, "combat-reflexes")].attempts == misses


def test_hp_distribution_is_uniform_over_the_damage_die(attack_stats: Stats) -> None:
    hp = attack_stats.hp[2]
    assert set(hp) == {"6", "5", "4", "3"}
    for left in ("5", "4", "3"):  # a hit deals d3: each face about 55% / 3
        assert 0.15 <= hp[left] / N <= 0.215


def test_second_wound_roll_kills_forty_percent() -> None:
    stats = run_many(scenario("""
[[players]]
class = "warrior"
faction = "lawful"
hp = 0
wound_rolls = 1
wounded_by = 2
[[players]]
class = "warrior"
faction = "neutral"
[[players]]
class = "rogue"
faction = "chaotic"
"""), "wound", N)
    assert 0.35 <= stats.rate(stats.deaths[1]) <= 0.45
    assert stats.rate(stats.hp[1]["1"]) + stats.rate(stats.deaths[1]) == pytest.approx(1.0)
    # Killing another faction's player is +3: credited to the one who wounded it.
    assert stats.points["neutral"] == 3 * stats.deaths[1]


def test_vote_tie_roll_splits_evenly_and_the_other_rules_do_not_roll() -> None:
    body = """
[settings]
vote_tie_rule = "{rule}"
[[players]]
class = "warrior"
faction = "lawful"
vote = 2
[[players]]
class = "warrior"
faction = "neutral"
vote = 1
[[players]]
class = "rogue"
faction = "chaotic"
"""
    rolled = run_many(scenario(body.replace("{rule}", "roll"), "morning"), "vote", N)
    assert rolled.vote_hurt[1] + rolled.vote_hurt[2] == N
    assert 0.45 <= rolled.rate(rolled.vote_hurt[1]) <= 0.55
    everyone = run_many(scenario(body.replace("{rule}", "all"), "morning"), "vote", 50)
    assert everyone.vote_hurt == {1: 50, 2: 50}
    nobody = run_many(scenario(body.replace("{rule}", "nobody"), "morning"), "vote", 50)
    assert not nobody.vote_hurt


def test_repeat_is_deterministic_for_a_base_seed() -> None:
    sc = scenario(ATTACK)
    assert run_many(sc, "same", 300).to_dict() == run_many(sc, "same", 300).to_dict()
    assert run_many(sc, "same", 300).to_dict() != run_many(sc, "other", 300).to_dict()


def test_the_scenario_state_is_not_changed_by_running() -> None:
    sc = scenario(ATTACK)
    before = sc.state.to_dict()
    run_many(sc, "x", 50)
    assert sc.state.to_dict() == before
