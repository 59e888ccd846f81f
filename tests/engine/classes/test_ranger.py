"""Ranger (游侠): every skill against scripted dice, and its identification rule.

Seats: 1 Ranger (Chaotic, Dex +2 to initiative), 2 Warrior (Lawful, +1), sometimes
3 Paladin. Initiative d20s come first, one per living player in seat order."""

from __future__ import annotations

import pytest

from engine.classes import class_spec
from engine.errors import IdentificationError, SkillUnavailableError
from engine.model import State
from engine.submissions import Action, Guess, Identification
from engine.validate import validate
from tests.engine.helpers import ScriptedDice, hit, kinds, needs, night, orders, param_of, table

# Balance numbers come from the class data, so a tuning pass needs no test change.
SPEC = class_spec("ranger")


def param(skill_id: str, name: str, class_id: str = "ranger") -> int:
    return param_of(class_id, skill_id, name)


FAVORED_AB = param("favored_enemy", "ab_mod")
FAVORED_DAMAGE = param("favored_enemy", "damage_mod")
CAMO_DEFENSE = param("camouflage", "defense")
CAMO_AB = param("camouflage", "ab_mod")
MARK_AB = param("hunters_mark", "ab_mod")
MARK_DAMAGE = param("hunters_mark", "damage_mod")
SNARE_NIGHTS = param("snare", "daze_nights")
WARRIOR = class_spec("warrior")
PALADIN = class_spec("paladin")
WARRIOR_AC = WARRIOR.armor + WARRIOR.dex
RANGER_AC = SPEC.armor + SPEC.dex
PLAIN_NEED = SPEC.ab - WARRIOR_AC  # a Ranger's plain attack on a Warrior
FAVORED_NEED = PLAIN_NEED + FAVORED_AB
MARK_NEED = PLAIN_NEED + MARK_AB


def test_stats_match_the_design_table() -> None:
    spec = class_spec("ranger")
    # HP is a balance number (docs/balance.md), not part of the design table.
    assert (spec.ab, spec.armor, spec.dex, spec.damage) == (70, 10, 10, 3)
    assert (spec.will, spec.reflex, spec.fortitude) == (40, 60, 50)
    assert [t.value for t in spec.traits] == ["combat", "agility"]
    for sk in spec.skills:
        assert set(sk.name) == set(sk.text) == {"en-US", "zh-CN", "zh-TW"}  # zh-TW from zh-CN (engine.zh_tw)


def test_favored_enemy_after_tonights_confirmed_class() -> None:
    state = table(("ranger", "chaotic"), ("warrior", "lawful"))
    dice = ScriptedDice([(20, 15), (20, 5), (100, FAVORED_NEED), (3, 2)])
    ident = {1: Identification((Guess(2, "class", "warrior"),))}
    events = night(state, dice, {1: orders(hit(2))}, ident)
    assert needs(events) == [FAVORED_NEED]
    assert state.player(2).hp == WARRIOR.hp - (2 + FAVORED_DAMAGE)


def test_favored_enemy_counts_a_confirmed_faction_too() -> None:
    state = table(("ranger", "chaotic"), ("warrior", "lawful"))
    state.player(1).memory["confirmed"] = [{"target": 2, "what": "faction", "value": "lawful"}]
    dice = ScriptedDice([(20, 15), (20, 5), (100, FAVORED_NEED), (3, 2)])
    events = night(state, dice, {1: orders(hit(2))})
    assert needs(events) == [FAVORED_NEED]


@pytest.mark.parametrize(
    "confirmed",
    [
        [],
        [{"target": 2, "what": "trait", "value": "combat"}],  # a trait is not enough
        [{"target": 3, "what": "class", "value": "warrior"}],  # someone else
    ],
)
def test_no_favored_enemy_without_a_confirmed_class_or_faction(
    confirmed: list[dict[str, object]],
) -> None:
    state = table(("ranger", "chaotic"), ("warrior", "lawful"), ("warrior", "lawful"))
    state.player(1).memory["confirmed"] = confirmed
    # A miss without the bonus; the Warrior's Combat Reflexes roll fails (100).
    dice = ScriptedDice([(20, 15), (20, 5), (20, 1), (100, FAVORED_NEED), (100, 100)])
    ident = {1: Identification((Guess(2, "class", "wizard"),))}  # wrong: no reply
    events = night(state, dice, {1: orders(hit(2))}, ident)
    assert needs(events) == [PLAIN_NEED]


def test_sharpshooter_ignores_armour_and_cannot_steal() -> None:
    state = table(("ranger", "chaotic"), ("warrior", "lawful"))
    state.grail_holder = 2
    dice = ScriptedDice([(20, 15), (20, 5), (100, 65), (3, 2)])
    events = night(state, dice, {1: orders(Action("sharpshooter", (2,)))})
    assert needs(events) == [70 - 5]  # AC 15 + 5: only the 5 counts
    assert state.player(2).hp == WARRIOR.hp - 2
    assert "StealRolled" not in kinds(events) and "StealImpossible" not in kinds(events)
    assert state.player(2).grails_banked == 1


def test_sharpshooter_ignores_tonights_armour_bonus_too() -> None:
    state = table(("ranger", "chaotic"), ("warrior", "lawful"), ("paladin", "lawful"))
    # Divine Guard raises the armour 15; still only the Dex 5 counts. A miss (66).
    assert param("divine_guard", "armor_mod", "paladin") > 0
    dice = ScriptedDice([(20, 15), (20, 5), (20, 1), (100, 66)])
    events = night(
        state, dice, {1: orders(Action("sharpshooter", (3,))), 3: orders(toggles=("divine_guard",))}
    )
    assert needs(events) == [SPEC.ab - PALADIN.dex]
    assert state.player(3).hp == PALADIN.hp


@pytest.mark.parametrize(
    ("camo", "need_on", "need_by"),
    [
        (True, WARRIOR.ab - RANGER_AC - CAMO_DEFENSE, PLAIN_NEED + CAMO_AB),
        (False, WARRIOR.ab - RANGER_AC, PLAIN_NEED),
    ],
)
def test_camouflage_attacks_on_you_and_yours_harder(camo: bool, need_on: int, need_by: int) -> None:
    state = table(("ranger", "chaotic"), ("warrior", "lawful"))
    toggles = ("camouflage",) if camo else ()
    # Warrior first and misses; the Ranger misses; the Warrior's reflex roll fails.
    dice = ScriptedDice([(20, 1), (20, 20), (100, 100), (100, 100), (100, 100)])
    events = night(state, dice, {1: orders(hit(2), toggles=toggles), 2: orders(hit(1))})
    assert needs(events) == [need_on, need_by]


def test_hunters_mark_with_the_grail_ab_and_damage_bonus() -> None:
    state = table(("ranger", "chaotic"), ("warrior", "lawful"))
    state.grail_holder = 1
    mark = orders(Action("hunters_mark", (2,)), hit(2))
    validate(state, 1, mark)  # a free action plus the standard one
    dice = ScriptedDice([(20, 15), (20, 5), (100, MARK_NEED), (3, 2)])
    events = night(state, dice, {1: mark})
    assert needs(events) == [MARK_NEED]
    assert state.player(2).hp == WARRIOR.hp - (2 + MARK_DAMAGE)


def test_hunters_mark_fizzles_without_the_grail() -> None:
    state = table(("ranger", "chaotic"), ("warrior", "lawful"))
    dice = ScriptedDice([(20, 15), (20, 5), (100, MARK_NEED), (100, 100)])
    events = night(state, dice, {1: orders(Action("hunters_mark", (2,)), hit(2))})
    assert "SkillFizzled" in kinds(events)
    assert needs(events) == [PLAIN_NEED]


def test_hunters_mark_helps_only_against_the_marked_name() -> None:
    state = table(("ranger", "chaotic"), ("warrior", "lawful"), ("warrior", "lawful"))
    state.grail_holder = 1
    dice = ScriptedDice([(20, 15), (20, 5), (20, 1), (100, MARK_NEED), (100, 100)])
    events = night(state, dice, {1: orders(Action("hunters_mark", (3,)), hit(2))})
    assert needs(events) == [PLAIN_NEED]


@pytest.mark.parametrize(("roll", "snared"), [(26, True), (25, False)])
def test_snare_failed_reflex_voids_orders_and_dazes(roll: int, snared: bool) -> None:
    state = table(("ranger", "chaotic"), ("warrior", "lawful"))
    script: list[int | tuple[int, int]] = [(20, 15), (20, 5), (100, roll)]
    if not snared:
        script.append((100, 100))  # the Warrior's attack goes ahead and misses
    dice = ScriptedDice(script)
    events = night(state, dice, {1: orders(Action("snare", (2,))), 2: orders(hit(1))})
    warrior = state.player(2)
    assert warrior.has(State.DAZED) is snared
    if snared:
        assert warrior.conditions[State.DAZED].until_round == 1 + SNARE_NIGHTS
        assert {"seat": 2, "reason": "void"} in [e.data for e in events if e.kind == "OrdersVoid"]
        assert needs(events) == []
    else:
        assert needs(events) == [75 - 20]
    assert state.player(1).used_once == ["snare"]
    with pytest.raises(SkillUnavailableError):
        validate(state, 1, orders(Action("snare", (2,))))


def test_snare_after_the_target_acted_only_dazes() -> None:
    state = table(("ranger", "chaotic"), ("warrior", "lawful"))
    dice = ScriptedDice([(20, 1), (20, 20), (100, 100), (100, 26)])
    events = night(state, dice, {1: orders(Action("snare", (2,))), 2: orders(hit(1))})
    assert state.player(2).has(State.DAZED)
    assert [e.data["orders_lost"] for e in events if e.kind == "Snared"] == [False]
    assert "OrdersVoid" not in kinds(events)


def test_snare_daze_is_resisted_by_aura_of_courage_but_orders_still_lost() -> None:
    state = table(("ranger", "chaotic"), ("paladin", "lawful"))
    dice = ScriptedDice([(20, 15), (20, 5), (100, 21)])
    events = night(state, dice, {1: orders(Action("snare", (2,))), 2: orders(hit(1))})
    assert not state.player(2).has(State.DAZED)
    assert "StateResisted" in kinds(events)
    assert needs(events) == []


def test_identification_one_name_for_any_class() -> None:
    state = table(("ranger", "chaotic"), ("warrior", "lawful"), ("monk", "lawful"))
    validate(state, 1, Identification((Guess(3, "class", "monk"),)))
    with pytest.raises(IdentificationError):
        validate(
            state, 1, Identification((Guess(2, "class", "warrior"), Guess(3, "class", "monk")))
        )
    with pytest.raises(IdentificationError):
        validate(state, 1, Identification((Guess(2, "faction", "lawful"),)))
