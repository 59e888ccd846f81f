"""Cleric: every skill with scripted dice, and the source's identification rule."""

import pytest

from engine.classes import class_spec
from engine.errors import IdentificationError, SkillUnavailableError
from engine.events import Audience
from engine.submissions import Action, Guess, Identification, Orders
from engine.validate import validate
from tests.engine.helpers import ScriptedDice, kinds, night, table

INIT = [(20, 20), (20, 10), (20, 1)]  # seats act 1, 2, 3


def orders(*actions, toggles=()):
    return Orders(tuple(actions), frozenset(toggles))


def trio():
    # cleric: AB 55, AC 20, 8 HP; warriors: AB 75, AC 20, 10 HP
    return table(("cleric", "lawful"), ("warrior", "neutral"), ("warrior", "chaotic"))


def test_data_is_complete_in_both_languages():
    spec = class_spec("cleric")
    assert (spec.hp, spec.armor, spec.dex) == (8, 15, 5)
    for s in spec.skills:
        assert set(s.name) == set(s.text) == {"en-US", "zh-CN"}


# -- Cure Wounds -------------------------------------------------------------------------


def test_cure_wounds_heals_d3_plus_one():
    st = trio()
    st.player(2).hp = 4
    d = ScriptedDice([*INIT, (3, 2)])
    events = night(st, d, {1: orders(Action("cure_wounds", (2,)))})
    assert st.player(2).hp == 7
    assert any(e.kind == "Healed" and e.seat == 2 and e.audience is Audience.PRIVATE for e in events)
    assert not d.script


def test_cure_wounds_on_yourself_stops_at_the_maximum():
    st = trio()
    st.player(1).hp = 6
    validate(st, 1, orders(Action("cure_wounds", (1,))))  # self allowed
    night(st, ScriptedDice([*INIT, (3, 3)]), {1: orders(Action("cure_wounds", (1,)))})
    assert st.player(1).hp == 8


def test_cure_wounds_makes_a_wounded_player_recover_before_its_wound_roll():
    st = trio()
    st.player(2).hp = 0
    d = ScriptedDice([*INIT, (3, 1)])  # no wound roll for 2: it is no longer wounded
    night(st, d, {1: orders(Action("cure_wounds", (2,)))})
    assert st.player(2).hp == 2 and not st.player(2).wounded
    assert not d.script


def test_cure_wounds_on_the_dead_fizzles():
    st = trio()
    st.player(2).alive = False
    st.player(2).hp = -1
    d = ScriptedDice([(20, 20), (20, 1)])
    events = night(st, d, {1: orders(Action("cure_wounds", (2,)))})
    assert "SpellFizzled" in kinds(events)
    assert not d.script


# -- Shield of Faith ---------------------------------------------------------------------


def test_shield_of_faith_adds_ten_armor():
    st = trio()
    # AB 75 vs AC 30: need 45; 46 misses (it would hit without the shield).
    d = ScriptedDice([*INIT, (100, 46)])
    night(st, d, {1: orders(toggles={"shield_of_faith"}), 2: orders(Action("attack", (1,)))})
    assert st.player(1).hp == 8
    assert not d.script


def test_shield_of_faith_costs_ten_ab():
    st = trio()
    # 55 - 10 - 20 = 25: 26 misses; the warrior's reflexes do not fire (51).
    d = ScriptedDice([*INIT, (100, 26), (100, 51)])
    night(st, d, {1: orders(Action("attack", (2,)), toggles={"shield_of_faith"})})
    assert st.player(2).hp == 10
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
    st.player(1).hp = 5
    st.player(2).hp = 2
    night(st, ScriptedDice([*INIT, (3, 1)]), {1: orders(Action("cure_wounds", (2,)))})
    assert st.player(2).hp == 6  # 1 + 1 + 2
    assert st.player(1).hp == 6  # + 1 at the end


def test_consecrated_grail_needs_the_grail():
    st = trio()
    st.player(1).hp = 5
    night(st, ScriptedDice(INIT))
    assert st.player(1).hp == 5


# -- Identification ----------------------------------------------------------------------


def ident(*guesses):
    return Identification(tuple(Guess(*g) for g in guesses))


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
