"""Druid: the wolf companion (30% of the attacks on the Druid, and its own attacks), every
other skill with scripted dice, and the identification rule."""

import pytest

from engine.classes import class_spec
from engine.errors import IdentificationError, SkillUnavailableError
from engine.events import Audience
from engine.model import State
from engine.submissions import Action, Guess, Identification
from engine.validate import validate
from tests.engine.helpers import ScriptedDice, kinds, night, orders, table

INIT = [(20, 20), (20, 10), (20, 1)]  # seats act 1, 2, 3


def trio():
    # druid: AB 55, AC 20, Reflex 40, 8 HP, wolf 4 HP; warriors: AB 75, AC 20, Reflex 25, 10 HP
    return table(("druid", "neutral"), ("warrior", "lawful"), ("warrior", "chaotic"))


def wolf(st):
    return st.player(1).memory["companion_hp"]


def private_to_druid(events, kind):
    return [e for e in events if e.kind == kind and e.audience is Audience.PRIVATE and e.seat == 1]


def test_data_is_complete_in_both_languages():
    spec = class_spec("druid")
    assert spec.memory == {"companion_hp": 4}
    for s in spec.skills:
        assert set(s.name) == set(s.text) == {"en-US", "zh-CN", "zh-TW"}  # zh-TW from zh-CN (engine.zh_tw)


# -- Animal Companion: guarding ----------------------------------------------------------


def test_an_attack_on_the_druid_strikes_the_wolf_thirty_percent_of_the_time():
    st = trio()
    st.grail_holder = 1
    # 30 <= 30: the wolf takes it. Warrior AB 75 vs the wolf's AC 15: need 60; 60 hits, d3 3.
    d = ScriptedDice([*INIT, (100, 30), (100, 60), (3, 3)])
    events = night(st, d, {2: orders(Action("attack", (1,)))})
    # 4 - 3 = 1, then Nature's Bounty (the Druid kept the grail) heals it 2 at the night's end
    assert wolf(st) == 3 and st.player(1).hp == 8
    assert st.player(1).grails_banked == 1  # hitting the wolf steals nothing
    [hurt] = private_to_druid(events, "CompanionHurt")
    assert hurt.data == {"amount": 3, "hp": 1, "max_hp": 4}
    assert not d.script


def test_seventy_percent_of_the_time_the_attack_strikes_the_druid():
    st = trio()
    # 31: not the wolf. AB 75 vs the Druid's AC 20: need 55, 55 hits, d3 2.
    d = ScriptedDice([*INIT, (100, 31), (100, 55), (3, 2)])
    night(st, d, {2: orders(Action("attack", (1,)))})
    assert wolf(st) == 4 and st.player(1).hp == 6


def test_the_attack_on_the_wolf_keeps_its_own_modifiers():
    st = trio()
    # Whirlwind at AB -15 on the Druid and on seat 3: the wolf takes the first (30) and the
    # -15 comes along: need 75 - 15 - 15 = 45, so 46 misses. Then seat 3: 99 misses, no counter.
    d = ScriptedDice([*INIT, (100, 30), (100, 46), (100, 99), (100, 51)])
    night(st, d, {2: orders(Action("whirlwind", (1, 3)))})
    assert wolf(st) == 4
    assert not d.script


def test_a_shot_that_ignores_armour_is_rolled_against_the_wolfs_flat_ac():
    """Sharpshooter takes the Druid's armour (Barkskin's too) off the Druid's AC; the wolf
    that takes the shot has a flat AC of its own, with nothing to take off."""
    st = table(("druid", "neutral"), ("ranger", "chaotic"))
    ranger_ab = class_spec("ranger").ab
    wolf_ac = int(class_spec("druid").skill("animal_companion").params["ac"])
    d = ScriptedDice([(20, 1), (20, 20), (100, 1), (100, 99)])  # the ranger first; the wolf takes it
    night(st, d, {1: orders(toggles=("barkskin",)), 2: orders(Action("sharpshooter", (1,)))})
    [shot] = [r for r in d.rolls if r.why.startswith("sharpshooter")]
    assert shot.why == "sharpshooter:companion:1" and shot.need == ranger_ab - wolf_ac


def test_the_wolf_dies_below_zero_and_guards_no_more():
    st = trio()
    st.player(1).memory["companion_hp"] = 1
    # First attack: the wolf takes it and dies (1 - 2 = -1). Second (warrior 3): no 30% roll.
    d = ScriptedDice([*INIT, (100, 1), (100, 1), (3, 2), (100, 99)])
    events = night(st, d, {2: orders(Action("attack", (1,))), 3: orders(Action("attack", (1,)))})
    assert wolf(st) < 0
    assert len(private_to_druid(events, "CompanionDied")) == 1
    assert not d.script


# -- Animal Companion: attacking ---------------------------------------------------------


def test_the_wolf_joins_the_druids_attack():
    st = trio()
    # Druid: 55 - 20 = 35, 35 hits, d3 1. Wolf: 50 - 20 = 30, 30 hits, d2 2.
    d = ScriptedDice([*INIT, (100, 35), (3, 1), (100, 30), (2, 2)])
    events = night(st, d, {1: orders(Action("attack", (2,)))})
    assert st.player(2).hp == 7
    assert any(e.kind == "DamageDealt" and e.data["cause"] == "companion" and e.data["source"] == 1 for e in events)
    assert not d.script


def test_the_wolf_attacks_even_when_the_druid_misses():
    st = trio()
    # Druid misses (36); warrior 2's reflexes do not fire (51); the wolf misses too (31).
    d = ScriptedDice([*INIT, (100, 36), (100, 51), (100, 31)])
    night(st, d, {1: orders(Action("attack", (2,)))})
    assert st.player(2).hp == 10
    assert not d.script


def test_the_wolf_does_not_attack_once_a_counter_has_wounded_the_druid():
    """E12: an attacker wounded during its own turn does nothing more that night, and the
    wolf's attack is part of the Druid's."""
    st = trio()
    st.player(1).hp = 1
    # Druid misses (36); warrior 2's reflexes fire (50); the wolf does not take the counter
    # (31); AB 65 vs AC 20, need 45, 1 hits, d3 1.
    d = ScriptedDice([*INIT, (100, 36), (100, 50), (100, 31), (100, 1), (3, 1)])
    night(st, d, {1: orders(Action("attack", (2,)))})
    assert st.player(1).wounded and st.player(2).hp == 10
    assert not d.script  # no roll for the wolf


def test_a_dead_wolf_does_not_attack():
    st = trio()
    st.player(1).memory["companion_hp"] = -1
    d = ScriptedDice([*INIT, (100, 35), (3, 1)])
    night(st, d, {1: orders(Action("attack", (2,)))})
    assert st.player(2).hp == 9
    assert not d.script


# -- Entangle ----------------------------------------------------------------------------


def test_entangle_dazes_on_a_failed_reflex_until_next_night_ends():
    st = trio()
    night(st, ScriptedDice([*INIT, (100, 26)]), {1: orders(Action("entangle", (2,)))})
    assert st.player(2).conditions[State.DAZED].until_round == 2


def test_entangle_escaped_with_a_passed_reflex():
    st = trio()
    night(st, ScriptedDice([*INIT, (100, 25)]), {1: orders(Action("entangle", (2,)))})
    assert not st.player(2).conditions


def test_entangle_on_the_dead_fizzles_unrolled():
    st = trio()
    st.player(2).alive = False
    st.player(2).hp = -1
    d = ScriptedDice([(20, 20), (20, 1)])
    events = night(st, d, {1: orders(Action("entangle", (2,)))})
    [fizzled] = [e for e in events if e.kind == "SpellFizzled"]
    assert fizzled.data == {"caster": 1, "target": 2, "why": "entangle"}
    assert not d.script


# -- Barkskin ----------------------------------------------------------------------------


def test_barkskin_adds_ten_armor():
    st = trio()
    # Not the wolf (31); AB 75 vs AC 30: need 45; 46 misses.
    d = ScriptedDice([*INIT, (100, 31), (100, 46)])
    night(st, d, {1: orders(toggles={"barkskin"}), 2: orders(Action("attack", (1,)))})
    assert st.player(1).hp == 8
    assert not d.script


def test_barkskin_costs_ten_ab_but_not_the_wolfs():
    st = trio()
    # Druid: 55 - 10 - 20 = 25, 26 misses; no counter (51); the wolf still needs 30: 30 hits, d2 1.
    d = ScriptedDice([*INIT, (100, 26), (100, 51), (100, 30), (2, 1)])
    night(st, d, {1: orders(Action("attack", (2,)), toggles={"barkskin"})})
    assert st.player(2).hp == 9
    assert not d.script


# -- Wild Shape --------------------------------------------------------------------------


def test_wild_shape_is_a_bear_attack_at_plus_twenty_with_d6_that_can_steal():
    st = trio()
    st.grail_holder = 2
    # 55 + 20 - 20 = 55: 55 hits, d6 6; steal 50 succeeds; then the wolf (99 misses).
    d = ScriptedDice([*INIT, (100, 55), (6, 6), (100, 50), (100, 99)])
    night(st, d, {1: orders(Action("wild_shape", (2,)))})
    assert st.player(2).hp == 4
    assert st.player(1).grails_banked == 1
    assert "wild_shape" in st.player(1).used_once
    assert not d.script
    with pytest.raises(SkillUnavailableError):
        validate(st, 1, orders(Action("wild_shape", (2,))))


def test_wild_shape_misses_like_any_attack():
    st = trio()
    d = ScriptedDice([*INIT, (100, 56), (100, 51), (100, 99)])
    night(st, d, {1: orders(Action("wild_shape", (2,)))})
    assert st.player(2).hp == 10


# -- Nature's Bounty ---------------------------------------------------------------------


def test_natures_bounty_heals_druid_and_wolf_after_a_grail_night():
    st = trio()
    st.grail_holder = 1
    st.player(1).hp = 5
    st.player(1).memory["companion_hp"] = 1
    events = night(st, ScriptedDice(INIT))
    assert st.player(1).hp == 7 and wolf(st) == 3
    [healed] = private_to_druid(events, "CompanionHealed")
    assert healed.data["amount"] == 2


def test_natures_bounty_stops_at_the_maxima_and_spares_a_dead_wolf():
    st = trio()
    st.grail_holder = 1
    st.player(1).hp = 7
    st.player(1).memory["companion_hp"] = -1
    events = night(st, ScriptedDice(INIT))
    assert st.player(1).hp == 8 and wolf(st) == -1
    assert not private_to_druid(events, "CompanionHealed")


def test_natures_bounty_needs_the_grail():
    st = trio()
    st.player(1).hp = 5
    events = night(st, ScriptedDice(INIT))
    assert st.player(1).hp == 5
    assert "HealApplied" not in kinds(events)


# -- Identification ----------------------------------------------------------------------


def test_identification_one_name_for_any_trait():
    st = trio()
    validate(st, 1, Identification((Guess(2, "trait", "agility"),)))
    with pytest.raises(IdentificationError):
        validate(st, 1, Identification((Guess(2, "trait", "combat"), Guess(3, "trait", "combat"))))
    with pytest.raises(IdentificationError):
        validate(st, 1, Identification((Guess(2, "faction", "lawful"),)))
