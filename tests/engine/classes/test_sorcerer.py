"""Sorcerer: the spell-point pool, every skill with scripted dice, and validation."""

import pytest

from bot.i18n import refusal_text
from engine.classes import SkillSpec, class_spec
from engine.errors import (
    ActionEconomyError,
    IdentificationError,
    MalformedSubmissionError,
    SkillUnavailableError,
)
from engine.events import Audience
from engine.model import State
from engine.submissions import Action, Guess, Identification
from engine.validate import validate
from tests.engine.helpers import ScriptedDice, kinds, needs, night, orders, skill_of, table

INIT = [(20, 20), (20, 10), (20, 1)]  # seats act 1, 2, 3

# Balance numbers come from the class data, so a tuning pass needs no test change; the
# tests still pin exact outcomes, and fail if the engine ignores a parameter.
SPEC = class_spec("sorcerer")


def skill(skill_id: str) -> SkillSpec:
    return skill_of("sorcerer", skill_id)


HP = SPEC.hp
START = SPEC.memory["spell_points"]
GAIN = int(skill("chaos_bolt").params["gain"])
CAP = int(skill("chaos_bolt").params["cap"])
BOLT_MAX = skill("chaos_bolt").amount[1]
FRIGHTEN_MAX = skill("frighten").amount[1]
DAZE_POINTS = int(skill("frighten").params["daze_points"])
WARD_COST = int(skill("arcane_ward").params["cost"])
WARD_ARMOR = int(skill("arcane_ward").params["armor_mod"])
FONT = int(skill("font_of_power").params["points"])
WARRIOR = class_spec("warrior")


def trio(points=None):
    # sorcerer: Will 85, AC 15; warriors: AB 75, Will 20, Reflex 25 (HP: the class data)
    st = table(("sorcerer", "chaotic"), ("warrior", "lawful"), ("warrior", "neutral"))
    if points is not None:
        st.player(1).memory["spell_points"] = points
    return st


def pool(st):
    return st.player(1).memory["spell_points"]


def tonight(points=START):
    """The pool once the night's gain is in, starting the night with ``points``."""
    return min(points + GAIN, CAP)


def before(pool_tonight):
    """The pool to start a night with so that the gain brings it to ``pool_tonight``."""
    points = pool_tonight - GAIN
    assert points >= 0, f"a gain of {GAIN} cannot leave {pool_tonight} points: re-script the test"
    return points


def volley(total, then=()):
    """Chaos Bolt on seat 2 and Frighten on seat 3 asking for ``total`` points together."""
    frighten = min(FRIGHTEN_MAX, total - 1)
    bolt = total - frighten
    assert frighten >= 1 and 1 <= bolt <= BOLT_MAX, f"no volley spends {total} points"
    return orders(Action("chaos_bolt", (2,), bolt), Action("frighten", (3,), frighten), *then)


def warrior_hp(lost=0):
    return WARRIOR.hp - lost


def report(events):
    [e] = [e for e in events if e.kind == "SpellPoints"]
    assert e.audience is Audience.PRIVATE and e.seat == 1
    return e.data


def test_data_is_complete_in_both_languages():
    assert list(SPEC.memory) == ["spell_points"]
    assert 0 <= START <= CAP and GAIN > 0
    assert {s.id: s.group for s in SPEC.skills if s.group} == {"chaos_bolt": "volley", "frighten": "volley"}
    for s in SPEC.skills:
        assert set(s.name) == set(s.text) == {"en-US", "zh-CN", "zh-TW"}  # zh-TW from zh-CN (engine.zh_tw)


def test_the_pool_numbers_in_the_text_match_the_data():
    text = skill("chaos_bolt").text
    assert f"you start with {START} and gain {GAIN} at the start of every night" in text["en-US"]
    assert f"up to {CAP};" in text["en-US"]
    assert f"你初始拥有{START}点，每夜开始时（受伤期间除外）获得{GAIN}点，上限{CAP}点" in text["zh-CN"]


# -- the pool ------------------------------------------------------------------------------


def test_pool_gains_the_nightly_gain_and_the_owner_is_told():
    st = trio()
    events = night(st, ScriptedDice(INIT))
    assert pool(st) == min(START + GAIN, CAP)
    assert report(events) == {"points": min(START + GAIN, CAP), "cap": CAP, "gained": 0}


def test_pool_gains_the_nightly_gain_from_empty():
    st = trio(points=0)
    night(st, ScriptedDice(INIT))
    assert pool(st) == min(GAIN, CAP)


def test_pool_is_capped():
    st = trio(points=max(0, CAP - GAIN + 1))  # one over the cap after the gain
    night(st, ScriptedDice(INIT))
    assert pool(st) == CAP


def test_a_wounded_sorcerer_gains_nothing():
    st = trio(points=1)
    st.player(1).hp = 0
    night(st, ScriptedDice([*INIT, (100, 1)]))  # its wound roll: recovers
    assert pool(st) == 1


# -- Chaos Bolt ----------------------------------------------------------------------------


def test_chaos_bolt_deals_the_points_spent():
    st = trio()  # the starting pool + the gain tonight
    d = ScriptedDice([*INIT, (100, 26)])  # Reflex 25: 26 fails, full damage
    night(st, d, {1: orders(Action("chaos_bolt", (2,), 3))})
    assert st.player(2).hp == warrior_hp(3)
    assert pool(st) == tonight() - 3
    assert not d.script


def test_chaos_bolt_is_halved_rounded_down_on_a_passed_reflex():
    st = trio()
    night(st, ScriptedDice([*INIT, (100, 25)]), {1: orders(Action("chaos_bolt", (2,), 3))})
    assert st.player(2).hp == warrior_hp(3 // 2)
    assert pool(st) == tonight() - 3


def test_chaos_bolt_spends_what_is_left_when_short():
    st = trio(points=0)  # only the gain tonight
    assert tonight(0) < BOLT_MAX, "the gain alone pays a full bolt: re-script the test"
    night(st, ScriptedDice([*INIT, (100, 99)]), {1: orders(Action("chaos_bolt", (2,), BOLT_MAX))})
    assert st.player(2).hp == warrior_hp(tonight(0))
    assert pool(st) == 0


def test_volley_costs_one_standard_action_and_an_empty_pool_fizzles():
    st = trio(points=0)  # the gain, less the ward's cost; Frighten takes the rest: the bolt finds nothing
    rest = tonight(0) - WARD_COST
    assert 1 <= rest <= FRIGHTEN_MAX, "Frighten cannot empty the pool: re-script the test"
    d = ScriptedDice([*INIT, (100, 66)])  # Frighten: 85 - 20 = 65; 66 fails
    events = night(
        st,
        d,
        {1: orders(Action("frighten", (2,), rest), Action("chaos_bolt", (3,), BOLT_MAX), toggles={"arcane_ward"})},
    )
    assert pool(st) == 0
    assert "ActionLost" not in kinds(events)  # the bolt rode on the same standard action
    assert any(e.kind == "SpellFizzled" and e.data.get("reason") == "no_points" for e in events)
    assert st.player(3).hp == warrior_hp()
    assert not d.script


def test_chaos_bolt_on_a_dead_target_costs_nothing():
    st = trio()
    st.player(2).alive = False
    st.player(2).hp = -1
    night(st, ScriptedDice([(20, 20), (20, 1)]), {1: orders(Action("chaos_bolt", (2,), 3))})
    assert pool(st) == tonight()


# -- Frighten ------------------------------------------------------------------------------


def test_frighten_with_two_points_shakes_and_dazes():
    st = trio()
    d = ScriptedDice([*INIT, (100, 65)])  # 85 - 20 = 65
    events = night(st, d, {1: orders(Action("frighten", (2,), DAZE_POINTS))})
    assert pool(st) == tonight() - DAZE_POINTS
    # Dazed for tonight only: gone by morning; Shaken until the end of the next night.
    assert st.player(2).conditions[State.SHAKEN].until_round == 2
    assert not st.player(2).has(State.DAZED)
    assert [e.data["state"] for e in events if e.kind == "StateInflicted"] == ["shaken", "dazed"]


def test_frighten_with_one_point_only_shakes():
    st = trio()
    events = night(st, ScriptedDice([*INIT, (100, 1)]), {1: orders(Action("frighten", (2,), 1))})
    assert [e.data["state"] for e in events if e.kind == "StateInflicted"] == ["shaken"]
    assert pool(st) == tonight() - 1


def test_frighten_resisted_still_costs_its_points():
    st = trio()
    night(st, ScriptedDice([*INIT, (100, 66)]), {1: orders(Action("frighten", (2,), 2))})
    assert not st.player(2).conditions
    assert pool(st) == tonight() - 2


def test_frighten_on_a_dead_target_costs_nothing():
    st = trio()
    st.player(2).alive = False
    st.player(2).hp = -1
    events = night(st, ScriptedDice(INIT[:1] + INIT[2:]), {1: orders(Action("frighten", (2,), 1))})
    assert pool(st) == tonight()
    [fizzled] = [e for e in events if e.kind == "SpellFizzled"]
    assert fizzled.data == {"caster": 1, "target": 2, "why": "frighten"}


def test_frighten_after_the_pool_ran_dry_fizzles_unrolled():
    st = trio(points=0)  # the gain, less the ward's cost; the bolt takes the rest
    rest = tonight(0) - WARD_COST
    assert 1 <= rest <= BOLT_MAX, "the bolt cannot empty the pool: re-script the test"
    d = ScriptedDice([*INIT, (100, 100)])  # the bolt's Reflex save fails; Frighten rolls nothing
    events = night(
        st, d, {1: orders(Action("chaos_bolt", (2,), rest), Action("frighten", (3,), 1), toggles={"arcane_ward"})}
    )
    assert pool(st) == 0
    [fizzled] = [e for e in events if e.kind == "SpellFizzled"]
    assert fizzled.data == {"caster": 1, "target": 3, "why": "frighten", "reason": "no_points"}
    assert not st.player(3).conditions
    assert not d.script


# -- Arcane Ward ---------------------------------------------------------------------------

# A warrior's attack on the Sorcerer: d100 <= AB - AC hits.
BARE_NEED = WARRIOR.ab - (SPEC.armor + SPEC.dex)
WARDED_NEED = BARE_NEED - WARD_ARMOR


def test_arcane_ward_pays_its_cost_for_its_armor():
    st = trio(points=0)
    d = ScriptedDice([*INIT, (100, WARDED_NEED + 1)])  # misses, and would hit without the ward
    events = night(st, d, {1: orders(toggles={"arcane_ward"}), 2: orders(Action("attack", (1,)))})
    assert needs(events) == [WARDED_NEED]
    assert st.player(1).hp == HP
    assert pool(st) == tonight(0) - WARD_COST
    assert not d.script


def test_without_the_ward_the_same_roll_hits():
    st = trio(points=0)
    events = night(st, ScriptedDice([*INIT, (100, WARDED_NEED + 1), (3, 2)]), {2: orders(Action("attack", (1,)))})
    assert needs(events) == [BARE_NEED]
    assert st.player(1).hp == HP - 2
    assert pool(st) == tonight(0)


# -- Font of Power -------------------------------------------------------------------------


def test_font_of_power_adds_its_points_at_the_end_of_a_grail_night():
    st = trio(points=0)
    assert tonight(0) + FONT <= CAP, "the cap would cut the font: re-script the test"
    st.grail_holder = 1
    events = night(st, ScriptedDice(INIT))
    assert pool(st) == tonight(0) + FONT  # the gain at the start, the font at the end
    assert report(events) == {"points": tonight(0) + FONT, "cap": CAP, "gained": FONT}


def test_font_of_power_respects_the_cap():
    st = trio(points=before(CAP - 1))  # one below the cap after the gain
    st.grail_holder = 1
    events = night(st, ScriptedDice(INIT))
    assert pool(st) == CAP
    assert report(events)["gained"] == 1


# -- Wild Surge ----------------------------------------------------------------------------


def test_wild_surge_makes_later_spells_free():
    st = trio(points=0)  # only the gain tonight, but the bolt spends its most for free
    assert tonight(0) < BOLT_MAX, "the pool pays a full bolt: re-script the test"
    d = ScriptedDice([*INIT, (100, 99)])
    night(st, d, {1: orders(Action("wild_surge"), Action("chaos_bolt", (2,), BOLT_MAX))})
    assert st.player(2).hp == warrior_hp(BOLT_MAX)
    assert pool(st) == tonight(0)
    assert "wild_surge" in st.player(1).used_once
    with pytest.raises(SkillUnavailableError):
        validate(st, 1, orders(Action("wild_surge")))


def test_wild_surge_after_a_spell_does_not_refund_it():
    st = trio(points=0)
    night(st, ScriptedDice([*INIT, (100, 99)]), {1: orders(Action("chaos_bolt", (2,), 2), Action("wild_surge"))})
    assert pool(st) == tonight(0) - 2


# -- validation ----------------------------------------------------------------------------


def test_orders_may_spend_the_pool_plus_the_coming_gain():
    st = trio()  # the starting pool now, plus the gain tonight
    budget = tonight()
    assert START < budget < BOLT_MAX + FRIGHTEN_MAX, "re-script the test for this pool"
    validate(st, 1, orders(Action("chaos_bolt", (2,), min(budget, BOLT_MAX))))
    validate(st, 1, volley(budget))
    with pytest.raises(SkillUnavailableError) as exc:
        validate(st, 1, volley(budget + 1))
    assert exc.value.params["reason"] == "reason.no_points"


def test_arcane_ward_is_paid_first_so_its_point_is_out_of_the_budget():
    """The ward takes its point at nightfall, before any spell: orders that count on that
    point are refused at Dusk rather than cast short at night."""
    st = trio()
    budget = tonight()
    ward = orders(*volley(budget - 1).actions, toggles=("arcane_ward",))
    validate(st, 1, ward)
    with pytest.raises(SkillUnavailableError) as exc:
        validate(st, 1, orders(*volley(budget).actions, toggles=("arcane_ward",)))
    assert exc.value.params["reason"] == "reason.no_points"


def test_the_budget_is_capped():
    st = trio(points=CAP - 1)  # the gain would take it past the cap
    validate(st, 1, volley(min(CAP, BOLT_MAX + FRIGHTEN_MAX)))
    if CAP < BOLT_MAX + FRIGHTEN_MAX:
        with pytest.raises(SkillUnavailableError):
            validate(st, 1, volley(CAP + 1))
    st.player(1).memory["spell_points"] = before(CAP - 1)  # one below the cap after the gain
    validate(st, 1, volley(CAP - 1))
    with pytest.raises(SkillUnavailableError):
        validate(st, 1, volley(CAP))


def test_wild_surge_first_lifts_the_budget_but_not_after():
    st = trio(points=0)
    everything = BOLT_MAX + FRIGHTEN_MAX
    assert tonight(0) < everything
    validate(st, 1, orders(Action("wild_surge"), *volley(everything).actions))
    with pytest.raises(SkillUnavailableError):
        validate(st, 1, volley(everything, then=(Action("wild_surge"),)))


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


def test_a_spell_sent_without_an_amount_is_refused_naming_the_amounts():
    with pytest.raises(MalformedSubmissionError) as err:
        validate(trio(), 1, orders(Action("chaos_bolt", (2,))))
    low, high = skill("chaos_bolt").amount
    assert f"needs an amount of points from {low} to {high}" in refusal_text(err.value, "en-US")
    assert f"需要填写{low}到{high}之间的点数" in refusal_text(err.value, "zh-CN")
