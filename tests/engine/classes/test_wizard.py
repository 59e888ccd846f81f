"""Wizard: every skill with scripted dice, and its identification rule."""

import pytest

from engine.classes import class_spec
from engine.errors import IdentificationError, MalformedSubmissionError, SkillUnavailableError
from engine.events import Audience
from engine.model import Condition, State
from engine.submissions import Action
from engine.validate import validate
from tests.engine.helpers import ScriptedDice, ident, kinds, night, orders, table

INIT = [(20, 20), (20, 10), (20, 1)]  # seats act 1, 2, 3


def trio():
    # wizard 6 HP; warriors: AB 75, AC 20, Will 20, Reflex 25, 10 HP
    return table(("wizard", "lawful"), ("warrior", "neutral"), ("warrior", "chaotic"))


def test_data_is_complete_in_both_languages():
    spec = class_spec("wizard")
    assert (spec.hp, spec.ab, spec.armor, spec.dex, spec.damage) == (6, 45, 5, 5, 2)
    assert (spec.will, spec.reflex, spec.fortitude) == (80, 35, 25)
    for s in spec.skills:
        assert set(s.name) == set(s.text) == {"en-US", "zh-CN", "zh-TW"}  # zh-TW from zh-CN (engine.zh_tw)
        assert all(v.strip() for v in (*s.name.values(), *s.text.values()))


# -- Magic Missile -----------------------------------------------------------------------


def test_magic_missile_always_strikes_for_d3_without_an_attack_roll():
    st = trio()
    d = ScriptedDice([*INIT, (3, 2)])  # no d100 at all: only the d3
    night(st, d, {1: orders(Action("magic_missile", (2,)))})
    assert st.player(2).hp == 8
    assert not d.script


def test_magic_missile_cannot_steal_the_grail():
    st = trio()
    st.grail_holder = 2
    night(st, ScriptedDice([*INIT, (3, 3)]), {1: orders(Action("magic_missile", (2,)))})
    assert st.player(2).hp == 7
    assert st.player(2).grails_banked == 1 and st.player(1).grails_banked == 0


def test_magic_missile_with_the_grail_deals_two_more():
    st = trio()
    st.grail_holder = 1
    night(st, ScriptedDice([*INIT, (3, 1)]), {1: orders(Action("magic_missile", (2,)))})
    assert st.player(2).hp == 7  # 1 + 2


def test_magic_missile_on_a_dead_target_fizzles_without_rolling():
    st = trio()
    st.player(2).alive = False
    st.player(2).hp = -1
    d = ScriptedDice([(20, 20), (20, 1)])  # only the living roll initiative
    events = night(st, d, {1: orders(Action("magic_missile", (2,)))})
    assert "SpellFizzled" in kinds(events)
    assert not d.script


# -- Hold Person -------------------------------------------------------------------------


def test_hold_person_dazes_until_next_night_and_voids_orders_not_yet_given():
    st = trio()
    # Will 80 - 20 = 60: a 60 holds. Warrior 2 would have attacked 3: it never rolls.
    d = ScriptedDice([*INIT, (100, 60)])
    events = night(st, d, {1: orders(Action("hold_person", (2,))), 2: orders(Action("attack", (3,)))})
    cond = st.player(2).conditions[State.DAZED]
    assert cond.until_round == 2 and cond.source == 1
    assert "OrdersLost" in kinds(events)
    assert not any(e.kind == "AttackRolled" for e in events)
    assert not d.script


def test_hold_person_resisted_leaves_the_target_free():
    st = trio()
    # 61 > 60: resisted; warrior 2 attacks 3 (99 misses), 3's reflexes fail (51).
    d = ScriptedDice([*INIT, (100, 61), (100, 99), (100, 51)])
    events = night(st, d, {1: orders(Action("hold_person", (2,))), 2: orders(Action("attack", (3,)))})
    assert not st.player(2).has(State.DAZED)
    assert "OrdersLost" not in kinds(events)
    assert not d.script


def test_hold_person_on_a_target_that_already_acted_only_dazes():
    st = trio()
    # The wizard acts last this time.
    d = ScriptedDice([(20, 1), (20, 20), (20, 10), (100, 60)])
    events = night(st, d, {1: orders(Action("hold_person", (2,)))})
    assert st.player(2).has(State.DAZED)
    assert "OrdersLost" not in kinds(events)


def test_arcane_surge_adds_twenty_to_hold_person():
    st = trio()
    st.grail_holder = 1
    night(st, ScriptedDice([*INIT, (100, 80)]), {1: orders(Action("hold_person", (2,)))})
    assert st.player(2).has(State.DAZED)


# -- Mage Armor --------------------------------------------------------------------------


def test_mage_armor_adds_ten_armor():
    st = trio()
    # Warrior AB 75 vs AC 10 + 10 = 20: need 55; 56 misses (without the toggle it would hit).
    d = ScriptedDice([*INIT, (100, 56)])
    night(st, d, {1: orders(toggles={"mage_armor"}), 2: orders(Action("attack", (1,)))})
    assert st.player(1).hp == 6
    assert not d.script


def test_without_mage_armor_the_same_roll_hits():
    st = trio()
    night(st, ScriptedDice([*INIT, (100, 56), (3, 1)]), {2: orders(Action("attack", (1,)))})
    assert st.player(1).hp == 5


def test_mage_armor_costs_ten_will():
    st = table(("wizard", "lawful"), ("wizard", "neutral"), ("warrior", "chaotic"))
    # 80 - (80 - 10) = 10: a 10 holds the armoured wizard (it would need 0 otherwise).
    night(st, ScriptedDice([*INIT, (100, 10)]), {1: orders(Action("hold_person", (2,))), 2: orders(toggles={"mage_armor"})})
    assert st.player(2).has(State.DAZED)


# -- Fireball ----------------------------------------------------------------------------


def test_fireball_full_damage_on_a_failed_reflex_half_on_a_pass():
    st = trio()
    # target 2: Reflex 25, 26 fails -> d4 3 + 1 = 4; target 3: 25 passes -> 4 // 2 = 2
    d = ScriptedDice([*INIT, (100, 26), (4, 3), (100, 25), (4, 3)])
    night(st, d, {1: orders(Action("fireball", (2, 3)))})
    assert st.player(2).hp == 6 and st.player(3).hp == 8
    assert "fireball" in st.player(1).used_once
    assert not d.script
    with pytest.raises(SkillUnavailableError):
        validate(st, 1, orders(Action("fireball", (2,))))


def test_fireball_halved_damage_may_be_zero():
    st = trio()
    st.player(1).conditions[State.FATIGUED] = Condition(None, 1)
    # Fatigued: d4 1 + 1 - 1 = 1 (at least 1); a passed Reflex halves it to 0: no damage at all.
    events = night(st, ScriptedDice([*INIT, (100, 1), (4, 1)]), {1: orders(Action("fireball", (2,)))})
    assert st.player(2).hp == 10
    assert "DamageDealt" not in kinds(events)


def test_fireball_skips_a_target_that_died():
    st = trio()
    st.player(3).alive = False
    st.player(3).hp = -1
    d = ScriptedDice([(20, 20), (20, 10), (100, 90), (4, 4)])
    night(st, d, {1: orders(Action("fireball", (2, 3)))})
    assert st.player(2).hp == 5
    assert not d.script


def test_fireball_takes_one_to_three_targets():
    st = table(*[("wizard", "lawful")] + [("warrior", "neutral")] * 4)
    with pytest.raises(MalformedSubmissionError):
        validate(st, 1, orders(Action("fireball", (2, 3, 4, 5))))
    validate(st, 1, orders(Action("fireball", (2, 3, 4))))


def test_spells_tell_nobody_anything_publicly():
    st = trio()
    events = night(st, ScriptedDice([*INIT, (3, 1)]), {1: orders(Action("magic_missile", (2,)))})
    assert not any(e.audience is Audience.PUBLIC for e in events)


# -- Identification ----------------------------------------------------------------------


def test_identification_one_spellcasting_and_one_class_accepted():
    st = trio()
    validate(st, 1, ident((2, "trait", "spellcasting"), (3, "class", "rogue")))


@pytest.mark.parametrize(
    "guesses",
    [
        [(2, "trait", "spellcasting"), (3, "trait", "spellcasting")],
        [(2, "trait", "combat")],
        [(2, "class", "rogue"), (3, "class", "monk")],
        [(2, "faction", "lawful")],
    ],
)
def test_identification_refused(guesses):
    with pytest.raises(IdentificationError):
        validate(trio(), 1, ident(*guesses))
