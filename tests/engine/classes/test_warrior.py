"""Warrior: the source's class, skill by skill."""

import pytest

from engine.errors import SkillUnavailableError
from engine.model import KillingBlowRule, Settings, State
from engine.submissions import Action
from engine.validate import validate
from engine.view import sheet
from tests.engine.helpers import ScriptedDice, kinds, night, orders, table


def duel():
    return table(("warrior", "lawful"), ("warrior", "neutral"), ("warrior", "chaotic"))


INIT = [(20, 20), (20, 10), (20, 1)]  # initiative: 1, 2, 3


def test_cleave_is_armed_by_a_hit_and_usable_only_the_next_night():
    st = duel()
    events = night(st, ScriptedDice([*INIT, (100, 1), (3, 1)]), {1: orders(Action("attack", (2,)))})
    assert st.player(1).memory["cleave_round"] == 2
    # Told once, privately, after the night (the last news of it, not at the hit).
    ready = [e for e in events if e.kind == "CleaveReady"]
    assert [(e.seat, e.data) for e in ready] == [(1, {"round": 2})]
    assert sheet(st, 1)["memory"] == {"cleave_round": 2}
    # Round 1 is still the current round: Cleave is not ready yet.
    with pytest.raises(SkillUnavailableError):
        validate(st, 1, orders(Action("attack", (2,)), Action("cleave", (3,))))
    st.round = 2
    o = validate(st, 1, orders(Action("attack", (2,)), Action("cleave", (3,))))
    # extra attack at AB -10: 65 - 20 = 45 needed; 45 hits
    events = night(st, ScriptedDice([*INIT, (100, 99), (100, 99), (100, 45), (3, 2)]), {1: o})
    assert st.player(3).hp == 8
    # The Cleave hit arms it again for round 3; had nothing hit, the sheet would drop
    # the line once round 2's Dusk is past.
    assert [e.data for e in events if e.kind == "CleaveReady"] == [{"round": 3}]
    st.player(1).memory["cleave_round"] = 2
    st.round = 3
    assert "cleave_round" not in sheet(st, 1)["memory"]


def test_cleave_is_refused_without_a_hit():
    st = duel()
    st.round = 2
    with pytest.raises(SkillUnavailableError):
        validate(st, 1, orders(Action("cleave", (3,))))


def test_a_grail_taken_from_the_body_counts_as_held_for_the_rest_of_the_night():
    """R10: the killer who picks the grail up (house rule: the killer takes it, E13) has
    held it, so Precise Attack (+20) helps the Cleave that follows."""
    st = duel()
    st.settings = Settings(killing_blow=KillingBlowRule.KILLER_TAKES)
    st.round = 2
    st.player(1).memory["cleave_round"] = 2
    st.player(2).hp = 0  # wounded, so the attack hits and d3 kills
    st.grail_holder = 2
    o = validate(st, 1, orders(Action("attack", (2,)), Action("cleave", (3,))))
    # Cleave at 75 - 10 + 20 - 20 = 65 needed: 60 hits only with the grail counted.
    dice = ScriptedDice([*INIT, (100, 90), (3, 2), (100, 60), (3, 1)])
    night(st, dice, {1: o})
    assert not st.player(2).alive and st.grail_holder is None  # banked by seat 1
    assert [r.need for r in dice.rolls if r.why.startswith("cleave")] == [65]
    assert st.player(3).hp == 9


def test_combat_reflexes_counter_at_minus_ten_on_a_miss():
    st = duel()
    # 1 attacks 2 and misses (56); 2's reflexes: 50 → counter at AB 65: need 45, roll 45 hits
    d = ScriptedDice([*INIT, (100, 56), (100, 50), (100, 45), (3, 3)])
    events = night(st, d, {1: orders(Action("attack", (2,)))})
    assert st.player(1).hp == 7
    assert any(e.kind == "AttackRolled" and e.data["why"] == "counter" for e in events)


def test_combat_reflexes_fail_half_the_time():
    st = duel()
    night(st, ScriptedDice([*INIT, (100, 56), (100, 51)]), {1: orders(Action("attack", (2,)))})
    assert st.player(1).hp == 10


def test_combat_expertise_is_permanent_and_once_per_game():
    st = duel()
    night(st, ScriptedDice(INIT), {1: orders(Action("combat_expertise"))})
    p = st.player(1)
    assert p.ab_mod == -15 and p.dex_mod == 15 and "combat_expertise" in p.used_once
    with pytest.raises(SkillUnavailableError):
        validate(st, 1, orders(Action("combat_expertise")))


def test_whirlwind_two_attacks_at_minus_fifteen_dazed_if_both_miss():
    st = duel()
    # AB 60 - 20: need 40. Both miss (41, 41); neither target counters (51, 51).
    d = ScriptedDice([*INIT, (100, 41), (100, 51), (100, 41), (100, 51)])
    events = night(st, d, {1: orders(Action("whirlwind", (2, 3)))})
    assert "StateInflicted" in kinds(events)
    assert not st.player(1).has(State.DAZED)  # until the night ends: gone by morning


def test_whirlwind_one_hit_no_daze():
    st = duel()
    d = ScriptedDice([*INIT, (100, 40), (3, 1), (100, 41), (100, 51)])
    events = night(st, d, {1: orders(Action("whirlwind", (2, 3)))})
    assert "StateInflicted" not in kinds(events)
    assert st.player(2).hp == 9


def test_precise_attack_plus_twenty_only_with_the_grail():
    st = duel()
    st.grail_holder = 1
    # AB 95 - 20: need 75; 75 hits
    night(st, ScriptedDice([*INIT, (100, 75), (3, 1)]), {1: orders(Action("attack", (2,)))})
    assert st.player(2).hp == 9
    st = duel()
    night(st, ScriptedDice([*INIT, (100, 75), (100, 51)]), {1: orders(Action("attack", (2,)))})
    assert st.player(2).hp == 10


def test_warrior_identifies_one_name_for_combat_only():
    from engine.errors import IdentificationError
    from engine.model import Phase
    from engine.submissions import Guess, Identification

    st = duel()
    st.phase = Phase.DUSK
    assert validate(st, 1, Identification((Guess(2, "trait", "combat"),)))
    for bad in (
        (Guess(2, "trait", "holy"),),
        (Guess(2, "trait", "combat"), Guess(3, "trait", "combat")),
        (Guess(2, "faction", "lawful"),),
    ):
        with pytest.raises(IdentificationError):
            validate(st, 1, Identification(bad))
