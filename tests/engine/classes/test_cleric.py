"""Cleric: every skill with scripted dice, and the source's identification rule."""

import pytest

from engine.classes import SkillSpec, class_spec
from engine.errors import IdentificationError, SkillUnavailableError
from engine.events import Audience
from engine.submissions import Action
from engine.validate import validate
from tests.engine.helpers import ScriptedDice, ident, kinds, night, orders, skill_of, table

INIT = [(20, 20), (20, 10), (20, 1)]  # seats act 1, 2, 3

# Balance numbers come from the class data, so a tuning pass needs no test change.
SPEC = class_spec("cleric")


def skill(skill_id: str) -> SkillSpec:
    return skill_of("cleric", skill_id)


HP = SPEC.hp
CURE_DIE = int(skill("cure_wounds").params["die"])
CURE_MOD = int(skill("cure_wounds").params["heal_mod"])
SHIELD_ARMOR = int(skill("shield_of_faith").params["armor_mod"])
SHIELD_AB = int(skill("shield_of_faith").params["ab_mod"])
GRAIL_CURE = int(skill("consecrated_grail").params["cure_bonus"])
GRAIL_HEAL = int(skill("consecrated_grail").params["heal"])
WARRIOR = class_spec("warrior")


def trio():
    # cleric: AB 55, AC 20; warriors: AB 75, AC 20 (HP: the class data)
    return table(("cleric", "lawful"), ("warrior", "neutral"), ("warrior", "chaotic"))


def test_data_is_complete_in_both_languages():
    spec = class_spec("cleric")
    assert (spec.armor, spec.dex) == (15, 5)  # HP is a balance number, read below
    for s in spec.skills:
        assert set(s.name) == set(s.text) == {"en-US", "zh-CN", "zh-TW"}  # zh-TW from zh-CN (engine.zh_tw)


# -- Cure Wounds -------------------------------------------------------------------------


def test_cure_wounds_heals_its_die_plus_its_bonus():
    st = trio()
    st.player(2).hp = 4
    d = ScriptedDice([*INIT, (CURE_DIE, 2)])
    events = night(st, d, {1: orders(Action("cure_wounds", (2,)))})
    assert st.player(2).hp == 4 + 2 + CURE_MOD
    assert any(e.kind == "Healed" and e.seat == 2 and e.audience is Audience.PRIVATE for e in events)
    assert not d.script


def test_cure_wounds_on_yourself_stops_at_the_maximum():
    st = trio()
    st.player(1).hp = HP - 2
    validate(st, 1, orders(Action("cure_wounds", (1,))))  # self allowed
    assert 3 + CURE_MOD > 2  # the heal would go past the maximum
    events = night(st, ScriptedDice([*INIT, (CURE_DIE, 3)]), {1: orders(Action("cure_wounds", (1,)))})
    assert st.player(1).hp == HP
    assert [e.data["amount"] for e in events if e.kind == "Healed"] == [2]


def test_cure_wounds_makes_a_wounded_player_recover_before_its_wound_roll():
    st = trio()
    st.player(2).hp = 0
    d = ScriptedDice([*INIT, (CURE_DIE, 1)])  # no wound roll for 2: it is no longer wounded
    night(st, d, {1: orders(Action("cure_wounds", (2,)))})
    assert st.player(2).hp == 1 + CURE_MOD and not st.player(2).wounded
    assert not d.script


def test_cure_wounds_on_the_dead_fizzles():
    st = trio()
    st.player(2).alive = False
    st.player(2).hp = -1
    d = ScriptedDice([(20, 20), (20, 1)])
    events = night(st, d, {1: orders(Action("cure_wounds", (2,)))})
    [fizzled] = [e for e in events if e.kind == "SpellFizzled"]
    assert fizzled.data == {"caster": 1, "target": 2, "why": "cure_wounds"}
    assert not d.script


def test_divine_intervention_on_the_dead_fizzles_and_is_spent():
    st = trio()
    st.player(2).alive = False
    st.player(2).hp = -1
    d = ScriptedDice([(20, 20), (20, 1)])
    events = night(st, d, {1: orders(Action("divine_intervention", (2,)))})
    [fizzled] = [e for e in events if e.kind == "SpellFizzled"]
    assert fizzled.data == {"caster": 1, "target": 2, "why": "divine_intervention"}
    assert "divine_intervention" in st.player(1).used_once
    assert not d.script


# -- Shield of Faith ---------------------------------------------------------------------


def test_shield_of_faith_adds_its_armor():
    st = trio()
    # AB 75 vs AC 20 + the shield: one above that need misses (it would hit without the shield).
    need = WARRIOR.ab - (SPEC.armor + SPEC.dex + SHIELD_ARMOR)
    d = ScriptedDice([*INIT, (100, need + 1)])
    events = night(st, d, {1: orders(toggles={"shield_of_faith"}), 2: orders(Action("attack", (1,)))})
    assert [e.data["need"] for e in events if e.kind == "AttackRolled"] == [need]
    assert st.player(1).hp == HP
    assert not d.script


def test_without_the_shield_the_same_roll_hits():
    st = trio()
    need = WARRIOR.ab - (SPEC.armor + SPEC.dex + SHIELD_ARMOR)
    d = ScriptedDice([*INIT, (100, need + 1), (3, 2)])
    night(st, d, {2: orders(Action("attack", (1,)))})
    assert st.player(1).hp == HP - 2
    assert not d.script


def test_shield_of_faith_costs_its_ab():
    st = trio()
    # 55 - 20, less the shield's AB: one above misses; the warrior's reflexes do not fire (51).
    need = SPEC.ab + SHIELD_AB - (WARRIOR.armor + WARRIOR.dex)
    d = ScriptedDice([*INIT, (100, need + 1), (100, 51)])
    events = night(st, d, {1: orders(Action("attack", (2,)), toggles={"shield_of_faith"})})
    assert [e.data["need"] for e in events if e.kind == "AttackRolled"] == [need]
    assert st.player(2).hp == WARRIOR.hp
    assert not d.script


# -- Speak with Dead ---------------------------------------------------------------------


def test_speak_with_dead_tells_the_faction_of_tonights_dead():
    st = trio()
    st.player(3).hp = 0  # wounded: any attack hits and kills
    d = ScriptedDice([*INIT, (100, 99), (3, 1)])
    events = night(st, d, {2: orders(Action("attack", (3,)))})
    assert not st.player(3).alive
    [e] = [e for e in events if e.kind == "SpeakWithDead"]
    assert e.audience is Audience.PRIVATE and e.seat == 1
    assert e.data == {"dead": [{"seat": 3, "faction": "chaotic"}]}
    assert not d.script


def test_speak_with_dead_lists_the_dead_by_seat_not_in_the_order_they_fell():
    """The order of death follows initiative, which players never learn."""
    st = table(("cleric", "lawful"), ("warrior", "neutral"), ("warrior", "chaotic"), ("warrior", "chaotic"))
    st.player(3).hp = st.player(4).hp = 0  # wounded: any attack hits, and 1 damage kills
    # Initiative: seat 2 (20), the Cleric (10), then the wounded. Seat 4 falls first.
    d = ScriptedDice([(20, 10), (20, 20), (20, 5), (20, 1), (100, 99), 1, (100, 99), 1])
    events = night(st, d, {1: orders(Action("attack", (3,))), 2: orders(Action("attack", (4,)))})
    assert [e.data["seat"] for e in events if e.kind == "PlayerDied"] == [4, 3]
    [e] = [e for e in events if e.kind == "SpeakWithDead"]
    assert [x["seat"] for x in e.data["dead"]] == [3, 4]
    assert not d.script


def test_speak_with_dead_is_silent_on_a_night_without_deaths():
    st = trio()
    events = night(st, ScriptedDice(INIT))
    assert "SpeakWithDead" not in kinds(events)


def test_speak_with_dead_does_not_repeat_earlier_deaths():
    st = trio()
    st.player(3).alive = False
    st.player(3).hp = -1
    events = night(st, ScriptedDice([(20, 20), (20, 10)]))
    assert "SpeakWithDead" not in kinds(events)


# -- Divine Intervention -----------------------------------------------------------------


def test_divine_intervention_stops_damage_at_zero():
    st = trio()
    st.player(3).hp = 1
    # The Cleric wards 3 (free), then warrior 2 hits it (1) for 3: it stops at 0.
    d = ScriptedDice([*INIT, (100, 1), (3, 3), (100, 1)])  # 3's own wound roll: recovers
    night(st, d, {1: orders(Action("divine_intervention", (3,))), 2: orders(Action("attack", (3,)))})
    assert st.player(3).alive and st.player(3).hp == 1
    assert "divine_intervention" in st.player(1).used_once
    assert not d.script
    with pytest.raises(SkillUnavailableError):
        validate(st, 1, orders(Action("divine_intervention", (3,))))


def test_without_divine_intervention_the_same_blow_kills():
    st = trio()
    st.player(3).hp = 1
    night(st, ScriptedDice([*INIT, (100, 1), (3, 3)]), {2: orders(Action("attack", (3,)))})
    assert not st.player(3).alive


def test_divine_intervention_survives_a_failed_second_wound_roll():
    st = trio()
    st.player(3).hp = 0
    st.player(3).wound_rolls = 1  # the next roll is the second: 61 would kill
    d = ScriptedDice([*INIT, (100, 61)])
    night(st, d, {1: orders(Action("divine_intervention", (3,)))})
    assert st.player(3).alive and st.player(3).wounded


def test_divine_intervention_is_free_beside_cure_wounds():
    st = trio()
    validate(st, 1, orders(Action("divine_intervention", (1,)), Action("cure_wounds", (2,))))


# -- Consecrated Grail -------------------------------------------------------------------


def test_consecrated_grail_boosts_cure_and_heals_the_cleric_at_night_end():
    st = trio()
    st.grail_holder = 1
    st.player(1).hp = HP - 1 - GRAIL_HEAL
    st.player(2).hp = 2
    night(st, ScriptedDice([*INIT, (CURE_DIE, 1)]), {1: orders(Action("cure_wounds", (2,)))})
    assert st.player(2).hp == 2 + 1 + CURE_MOD + GRAIL_CURE
    assert st.player(1).hp == HP - 1  # healed at the end


def test_consecrated_grail_needs_the_grail():
    st = trio()
    st.player(1).hp = HP - 1 - GRAIL_HEAL
    night(st, ScriptedDice(INIT))
    assert st.player(1).hp == HP - 1 - GRAIL_HEAL


# -- Identification ----------------------------------------------------------------------


def test_two_holy_and_one_faction_accepted():
    st = table(("cleric", "lawful"), ("warrior", "neutral"), ("warrior", "chaotic"), ("warrior", "lawful"))
    validate(st, 1, ident((2, "trait", "holy"), (3, "trait", "holy"), (2, "faction", "lawful")))


@pytest.mark.parametrize(
    "guesses",
    [
        [(2, "trait", "holy"), (3, "trait", "holy"), (4, "trait", "holy")],
        [(2, "faction", "lawful"), (3, "faction", "chaotic")],
        [(2, "trait", "combat")],
        [(2, "class", "warrior")],
    ],
)
def test_identification_refused(guesses):
    st = table(("cleric", "lawful"), ("warrior", "neutral"), ("warrior", "chaotic"), ("warrior", "lawful"))
    with pytest.raises(IdentificationError):
        validate(st, 1, ident(*guesses))
