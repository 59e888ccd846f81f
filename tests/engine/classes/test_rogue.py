"""Rogue (游荡者): every skill against scripted dice, and its identification rule.

Seats: 1 Rogue (Chaotic, Dex +3 to initiative), 2 Warrior (Lawful, +1; Dex 0 when Dazed).
Initiative d20s come first, one per living player in seat order."""

from __future__ import annotations

import pytest

from engine.classes import class_spec
from engine.dice import Dice
from engine.errors import IdentificationError
from engine.events import Audience
from engine.model import Condition, State
from engine.night.context import Night
from engine.skills.base import skills_of
from engine.skills.classes.rogue import Pickpocket
from engine.stats import armor_class, dex_bonus
from engine.submissions import Action, Guess, Identification, Orders
from engine.validate import validate
from tests.engine.helpers import ScriptedDice, attack, kinds, needs, night, table


def pickpocket(target: int) -> Orders:
    return Orders((Action("pickpocket", (target,)),))


def test_stats_match_the_design_table() -> None:
    spec = class_spec("rogue")
    assert (spec.hp, spec.ab, spec.armor, spec.dex, spec.damage) == (7, 65, 5, 15, 3)
    assert (spec.will, spec.reflex, spec.fortitude) == (30, 80, 30)
    assert [t.value for t in spec.traits] == ["agility"]
    for sk in spec.skills:
        assert set(sk.name) == set(sk.text) == {"en-US", "zh-CN", "zh-TW"}  # zh-TW from zh-CN (engine.zh_tw)


def test_sneak_attack_plus_two_on_a_target_that_has_not_acted() -> None:
    state = table(("rogue", "chaotic"), ("warrior", "lawful"))
    dice = ScriptedDice([(20, 15), (20, 5), (100, 45), (3, 2)])
    events = night(state, dice, {1: attack(2)})
    assert needs(events) == [65 - 20]
    assert state.player(2).hp == 10 - 4


def test_no_sneak_attack_once_the_target_has_acted_with_its_dex() -> None:
    state = table(("rogue", "chaotic"), ("warrior", "lawful"))
    dice = ScriptedDice([(20, 1), (20, 20), (100, 45), (3, 2)])
    night(state, dice, {1: attack(2)})
    assert state.player(2).hp == 10 - 2


def test_sneak_attack_on_a_target_without_dex_bonus_even_after_it_acted() -> None:
    state = table(("rogue", "chaotic"), ("warrior", "lawful"))
    state.player(2).conditions[State.DAZED] = Condition(until_round=1)
    dice = ScriptedDice([(20, 1), (20, 20), (100, 50), (3, 2)])
    events = night(state, dice, {1: attack(2)})
    assert needs(events) == [65 - 15]  # Dazed: AC 15 + 0
    assert state.player(2).hp == 10 - 4


@pytest.mark.parametrize(("roll", "stolen"), [(77, True), (78, False)])
def test_pickpocket_steals_without_an_attack(roll: int, stolen: bool) -> None:
    state = table(("rogue", "chaotic"), ("warrior", "lawful"))
    state.grail_holder = 2
    # 50 + (80 − 25) // 2 = 77.
    dice = ScriptedDice([(20, 15), (20, 5), (100, roll)])
    events = night(state, dice, {1: pickpocket(2)})
    assert "AttackRolled" not in kinds(events)
    assert [e.data["chance"] for e in events if e.kind == "StealRolled"] == [77]
    holder = 1 if stolen else 2
    assert state.player(holder).grails_banked == 1
    assert state.scores["chaotic"] == (2 if stolen else 0)
    assert ("GrailStolen" in kinds([e for e in events if e.seat == 2])) is stolen
    assert ("GrailTaken" in kinds([e for e in events if e.seat == 1])) is stolen
    assert not [e for e in events if e.audience is Audience.PUBLIC]


def test_pickpocket_on_someone_without_the_grail_rolls_nothing() -> None:
    state = table(("rogue", "chaotic"), ("warrior", "lawful"))
    dice = ScriptedDice([(20, 15), (20, 5)])
    events = night(state, dice, {1: pickpocket(2)})
    assert "PickpocketEmpty" in kinds(events)
    assert "StealRolled" not in kinds(events)


def test_pickpocket_chance_is_clamped_between_10_and_90() -> None:
    state = table(("rogue", "chaotic"), ("warrior", "lawful"))
    n = Night(state, Dice(0), [], {})
    pp = skills_of("rogue")["pickpocket"]
    assert isinstance(pp, Pickpocket)
    rogue, warrior = state.player(1), state.player(2)
    assert pp.chance(n, rogue, warrior) == 77
    n.turn(2).saves["reflex"] = -200
    assert pp.chance(n, rogue, warrior) == 90
    n.turn(2).saves["reflex"] = 0
    n.turn(1).saves["reflex"] = -200
    assert pp.chance(n, rogue, warrior) == 10
    # Half the difference, rounded down: 50 + (78 − 25) // 2 = 50 + 26.
    n.turn(1).saves["reflex"] = -2
    assert pp.chance(n, rogue, warrior) == 76


def test_uncanny_dodge_keeps_dex_when_dazed_but_not_when_grappled() -> None:
    state = table(("rogue", "chaotic"), ("monk", "lawful"))
    rogue, monk = state.player(1), state.player(2)
    for p in (rogue, monk):
        p.conditions[State.DAZED] = Condition(until_round=1)
    assert dex_bonus(rogue) == 15 and armor_class(rogue) == 20
    assert dex_bonus(monk) == 0  # no Uncanny Dodge
    rogue.conditions[State.GRAPPLED] = Condition(source=2)
    assert dex_bonus(rogue) == 0


def test_uncanny_dodge_in_an_attack_on_a_dazed_rogue() -> None:
    state = table(("rogue", "chaotic"), ("warrior", "lawful"))
    state.player(1).conditions[State.DAZED] = Condition(until_round=1)
    dice = ScriptedDice([(20, 1), (20, 20), (100, 100)])
    events = night(state, dice, {2: attack(1)})
    assert needs(events) == [75 - 20]


@pytest.mark.parametrize(("hiding", "need"), [(True, 35), (False, 55)])
def test_hide_in_shadows_attacks_on_you_minus_20_and_no_plain_attacks(
    hiding: bool, need: int
) -> None:
    state = table(("rogue", "chaotic"), ("warrior", "lawful"))
    toggles = ("hide_in_shadows",) if hiding else ()
    script: list[int | tuple[int, int]] = [(20, 1), (20, 20), (100, 100)]
    if not hiding:
        # The Rogue's own attack misses; the Warrior's Combat Reflexes roll: no counter.
        script += [(100, 100), (100, 100)]
    dice = ScriptedDice(script)
    events = night(state, dice, {1: attack(2, *toggles), 2: attack(1)})
    assert needs(events) == ([need] if hiding else [need, 65 - 20])


def test_hiding_rogue_may_still_pickpocket() -> None:
    state = table(("rogue", "chaotic"), ("warrior", "lawful"))
    state.grail_holder = 2
    dice = ScriptedDice([(20, 15), (20, 5), (100, 1)])
    night(state, dice, {1: Orders((Action("pickpocket", (2,)),), frozenset({"hide_in_shadows"}))})
    assert state.player(1).grails_banked == 1


@pytest.mark.parametrize(("roll", "kept"), [(26, True), (25, False)])
def test_slippery_fingers_steals_against_you_at_25(roll: int, kept: bool) -> None:
    state = table(("rogue", "chaotic"), ("warrior", "lawful"))
    state.grail_holder = 1
    dice = ScriptedDice([(20, 1), (20, 20), (100, 1), (3, 1), (100, roll)])
    events = night(state, dice, {2: attack(1)})
    assert [e.data["chance"] for e in events if e.kind == "StealRolled"] == [25]
    assert state.player(1 if kept else 2).grails_banked == 1


def test_slippery_fingers_your_own_steals_at_75_after_holding_the_grail() -> None:
    state = table(("rogue", "chaotic"), ("warrior", "lawful"))
    state.grail_holder = 1
    # The Warrior (first) steals at 25 (roll 25). The Rogue hits back (Warrior has acted
    # and has its Dex: no sneak attack) and steals at 75 (roll 75).
    dice = ScriptedDice(
        [(20, 1), (20, 20), (100, 1), (3, 1), (100, 25), (100, 45), (3, 1), (100, 75)]
    )
    events = night(state, dice, {1: attack(2), 2: attack(1)})
    assert [e.data["chance"] for e in events if e.kind == "StealRolled"] == [25, 75]
    assert state.player(1).grails_banked == 1
    assert state.player(2).hp == 9


def test_pickpocket_keeps_a_better_chance_than_slippery_fingers() -> None:
    state = table(("rogue", "chaotic"), ("warrior", "lawful"), ("warrior", "lawful"))
    state.grail_holder = 1
    # Seat 2 steals the grail (25, roll 1); the Rogue pickpockets seat 2 at 77, not 75.
    dice = ScriptedDice([(20, 10), (20, 20), (20, 1), (100, 1), (3, 1), (100, 1), (100, 77)])
    events = night(state, dice, {1: pickpocket(2), 2: attack(1)})
    assert [e.data["chance"] for e in events if e.kind == "StealRolled"] == [25, 77]
    assert state.player(1).grails_banked == 1


def test_identification_one_name_for_any_class() -> None:
    state = table(("rogue", "chaotic"), ("warrior", "lawful"), ("monk", "lawful"))
    validate(state, 1, Identification((Guess(2, "class", "warrior"),)))
    validate(state, 1, Identification((Guess(3, "class", "paladin"),)))
    with pytest.raises(IdentificationError):
        validate(
            state, 1, Identification((Guess(2, "class", "warrior"), Guess(3, "class", "monk")))
        )
    with pytest.raises(IdentificationError):
        validate(state, 1, Identification((Guess(2, "trait", "combat"),)))


def test_hide_in_shadows_refuses_a_plain_attack_at_dusk():
    from engine.errors import SkillUnavailableError
    from engine.model import Phase
    from engine.submissions import Action, Orders
    from engine.validate import validate
    from tests.engine.helpers import table

    st = table(("rogue", "neutral"), ("warrior", "lawful"), phase=Phase.DUSK)
    with pytest.raises(SkillUnavailableError):
        validate(st, 1, Orders((Action("attack", (2,)),), frozenset({"hide_in_shadows"})))
    assert validate(st, 1, Orders((Action("pickpocket", (2,)),), frozenset({"hide_in_shadows"})))
