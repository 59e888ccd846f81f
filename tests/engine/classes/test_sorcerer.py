"""Sorcerer: the spell-point pool, every skill with scripted dice, and validation."""

import pytest

from engine.classes import class_spec
from engine.errors import ActionEconomyError, IdentificationError, SkillUnavailableError
from engine.events import Audience
from engine.model import State
from engine.submissions import Action, Guess, Identification, Orders
from engine.validate import validate
from tests.engine.helpers import ScriptedDice, kinds, night, table

INIT = [(20, 20), (20, 10), (20, 1)]  # seats act 1, 2, 3


def orders(*actions, toggles=()):
    return Orders(tuple(actions), frozenset(toggles))


def trio(points=None):
    # sorcerer: Will 85, AC 15, 6 HP; warriors: AB 75, Will 20, Reflex 25, 10 HP
    st = table(("sorcerer", "chaotic"), ("warrior", "lawful"), ("warrior", "neutral"))
    if points is not None:
        st.player(1).memory["spell_points"] = points
    return st


def pool(st):
    return st.player(1).memory["spell_points"]


def report(events):
    [e] = [e for e in events if e.kind == "SpellPoints"]
    assert e.audience is Audience.PRIVATE and e.seat == 1
    return e.data


def test_data_is_complete_in_both_languages():
    spec = class_spec("sorcerer")
    assert spec.memory == {"spell_points": 2}
    assert {s.id: s.group for s in spec.skills if s.group} == {"chaos_bolt": "volley", "frighten": "volley"}
    for s in spec.skills:
        assert set(s.name) == set(s.text) == {"en-US", "zh-CN"}


# -- the pool ------------------------------------------------------------------------------


def test_pool_gains_two_each_night_and_the_owner_is_told():
    st = trio()
    events = night(st, ScriptedDice(INIT))
    assert pool(st) == 4
    assert report(events) == {"points": 4, "cap": 6, "gained": 0}


def test_pool_is_capped_at_six():
    st = trio(points=5)
    night(st, ScriptedDice(INIT))
    assert pool(st) == 6


def test_a_wounded_sorcerer_gains_nothing():
    st = trio(points=1)
    st.player(1).hp = 0
    night(st, ScriptedDice([*INIT, (100, 1)]))  # its wound roll: recovers
    assert pool(st) == 1


# -- Chaos Bolt ----------------------------------------------------------------------------


def test_chaos_bolt_deals_the_points_spent():
    st = trio()  # 2 + 2 = 4 tonight
    d = ScriptedDice([*INIT, (100, 26)])  # Reflex 25: 26 fails, full damage
    night(st, d, {1: orders(Action("chaos_bolt", (2,), 3))})
    assert st.player(2).hp == 7
    assert pool(st) == 1
    assert not d.script


def test_chaos_bolt_is_halved_rounded_down_on_a_passed_reflex():
    st = trio()
    night(st, ScriptedDice([*INIT, (100, 25)]), {1: orders(Action("chaos_bolt", (2,), 3))})
    assert st.player(2).hp == 9  # 3 // 2
    assert pool(st) == 1


def test_chaos_bolt_spends_what_is_left_when_short():
    st = trio(points=0)  # 2 tonight
    night(st, ScriptedDice([*INIT, (100, 99)]), {1: orders(Action("chaos_bolt", (2,), 4))})
    assert st.player(2).hp == 8
    assert pool(st) == 0


def test_volley_costs_one_standard_action_and_an_empty_pool_fizzles():
    st = trio(points=0)  # +2 = 2, the ward takes 1, Frighten takes 1: the bolt finds nothing
    d = ScriptedDice([*INIT, (100, 66)])  # Frighten: 85 - 20 = 65; 66 fails
    events = night(
        st,
        d,
        {1: orders(Action("frighten", (2,), 1), Action("chaos_bolt", (3,), 4), toggles={"arcane_ward"})},
    )
    assert pool(st) == 0
    assert "ActionLost" not in kinds(events)  # the bolt rode on the same standard action
    assert any(e.kind == "SpellFizzled" and e.data.get("reason") == "no_points" for e in events)
    assert st.player(3).hp == 10
    assert not d.script


def test_chaos_bolt_on_a_dead_target_costs_nothing():
    st = trio()
    st.player(2).alive = False
    st.player(2).hp = -1
    night(st, ScriptedDice([(20, 20), (20, 1)]), {1: orders(Action("chaos_bolt", (2,), 3))})
    assert pool(st) == 4


# -- Frighten ------------------------------------------------------------------------------


def test_frighten_with_two_points_shakes_and_dazes():
    st = trio()
    d = ScriptedDice([*INIT, (100, 65)])  # 85 - 20 = 65
    events = night(st, d, {1: orders(Action("frighten", (2,), 2))})
    assert pool(st) == 2
    # Dazed for tonight only: gone by morning; Shaken until the end of the next night.
    assert st.player(2).conditions[State.SHAKEN].until_round == 2
    assert not st.player(2).has(State.DAZED)
    assert [e.data["state"] for e in events if e.kind == "StateInflicted"] == ["shaken", "dazed"]


def test_frighten_with_one_point_only_shakes():
    st = trio()
    events = night(st, ScriptedDice([*INIT, (100, 1)]), {1: orders(Action("frighten", (2,), 1))})
    assert [e.data["state"] for e in events if e.kind == "StateInflicted"] == ["shaken"]
    assert pool(st) == 3


def test_frighten_resisted_still_costs_its_points():
    st = trio()
    night(st, ScriptedDice([*INIT, (100, 66)]), {1: orders(Action("frighten", (2,), 2))})
    assert not st.player(2).conditions
    assert pool(st) == 2


# -- Arcane Ward ---------------------------------------------------------------------------


def test_arcane_ward_pays_a_point_for_ten_armor():
    st = trio(points=0)
    # Warrior AB 75 vs AC 15 + 10 = 25: need 50; 51 misses.
    d = ScriptedDice([*INIT, (100, 51)])
    night(st, d, {1: orders(toggles={"arcane_ward"}), 2: orders(Action("attack", (1,)))})
    assert st.player(1).hp == 6
    assert pool(st) == 1
    assert not d.script


def test_without_the_ward_the_same_roll_hits():
    st = trio(points=0)
    night(st, ScriptedDice([*INIT, (100, 51), (3, 2)]), {2: orders(Action("attack", (1,)))})
    assert st.player(1).hp == 4
    assert pool(st) == 2


# -- Font of Power -------------------------------------------------------------------------


def test_font_of_power_adds_two_at_the_end_of_a_grail_night():
    st = trio()
    st.grail_holder = 1
    events = night(st, ScriptedDice(INIT))
    assert pool(st) == 6  # 2 + 2 at the start, + 2 at the end
    assert report(events) == {"points": 6, "cap": 6, "gained": 2}


def test_font_of_power_respects_the_cap():
    st = trio(points=3)
    st.grail_holder = 1
    events = night(st, ScriptedDice(INIT))
    assert pool(st) == 6
    assert report(events)["gained"] == 1


# -- Wild Surge ----------------------------------------------------------------------------


def test_wild_surge_makes_later_spells_free():
    st = trio(points=0)  # 2 tonight, but the bolt spends 4 for free
    d = ScriptedDice([*INIT, (100, 99)])
    night(st, d, {1: orders(Action("wild_surge"), Action("chaos_bolt", (2,), 4))})
    assert st.player(2).hp == 6
    assert pool(st) == 2
    assert "wild_surge" in st.player(1).used_once
    with pytest.raises(SkillUnavailableError):
        validate(st, 1, orders(Action("wild_surge")))


def test_wild_surge_after_a_spell_does_not_refund_it():
    st = trio(points=0)
    night(st, ScriptedDice([*INIT, (100, 99)]), {1: orders(Action("chaos_bolt", (2,), 2), Action("wild_surge"))})
    assert pool(st) == 0


# -- validation ----------------------------------------------------------------------------


def test_orders_may_spend_the_pool_plus_the_coming_gain():
    st = trio()  # 2 now, 4 tonight
    validate(st, 1, orders(Action("chaos_bolt", (2,), 4)))
    validate(st, 1, orders(Action("chaos_bolt", (2,), 2), Action("frighten", (3,), 2)))
    with pytest.raises(SkillUnavailableError) as exc:
        validate(st, 1, orders(Action("chaos_bolt", (2,), 3), Action("frighten", (3,), 2)))
    assert exc.value.params["reason"] == "reason.no_points"


def test_the_budget_is_capped_at_six():
    st = trio(points=5)
    validate(st, 1, orders(Action("chaos_bolt", (2,), 4), Action("frighten", (3,), 2)))
    st.player(1).memory["spell_points"] = 3
    validate(st, 1, orders(Action("chaos_bolt", (2,), 4), Action("frighten", (3,), 1)))
    with pytest.raises(SkillUnavailableError):
        validate(st, 1, orders(Action("chaos_bolt", (2,), 4), Action("frighten", (3,), 2)))


def test_wild_surge_first_lifts_the_budget_but_not_after():
    st = trio(points=0)
    validate(st, 1, orders(Action("wild_surge"), Action("chaos_bolt", (2,), 4), Action("frighten", (3,), 2)))
    with pytest.raises(SkillUnavailableError):
        validate(st, 1, orders(Action("chaos_bolt", (2,), 4), Action("wild_surge")))


def test_volley_plus_an_attack_is_two_standard_actions():
    st = trio()
    with pytest.raises(ActionEconomyError):
        validate(st, 1, orders(Action("chaos_bolt", (2,), 1), Action("attack", (3,))))


def test_identification_two_names_for_any_trait():
    st = trio()
    validate(st, 1, Identification((Guess(2, "trait", "combat"), Guess(3, "trait", "holy"))))
    with pytest.raises(IdentificationError):
        validate(st, 1, Identification((Guess(2, "class", "warrior"),)))
    big = table(("sorcerer", "chaotic"), ("warrior", "lawful"), ("warrior", "neutral"), ("warrior", "lawful"))
    with pytest.raises(IdentificationError):
        validate(big, 1, Identification(tuple(Guess(s, "trait", "combat") for s in (2, 3, 4))))
