"""Paladin (圣武士): every skill against scripted dice, and its identification rule.

Seats: 1 Paladin (Lawful, Dex +1 to initiative), then Rogue (Chaotic, +3) or Warriors
(+1). Initiative d20s come first, one per living player in seat order."""

from __future__ import annotations

import pytest

from engine.classes import ClassSpec, SkillSpec, class_spec
from engine.dice import Dice
from engine.errors import IdentificationError, SelfTargetError, SkillUnavailableError
from engine.events import Audience
from engine.model import State
from engine.night.combat import inflict
from engine.night.context import Night
from engine.submissions import Action, Guess, Identification, Orders
from engine.validate import validate
from tests.engine.helpers import (
    ScriptedDice,
    hit,
    kinds,
    needs,
    night,
    orders,
    param_of,
    skill_of,
    table,
)

# Balance numbers come from the class data, so a tuning pass needs no test change; the
# tests still pin exact outcomes, and fail if the engine ignores a parameter.
SPEC = class_spec("paladin")


def skill(skill_id: str) -> SkillSpec:
    return skill_of("paladin", skill_id)


def param(skill_id: str, name: str) -> int:
    return param_of("paladin", skill_id, name)


HP = SPEC.hp
SMITE_AB = param("smite_evil", "ab_mod")
SMITE_DAMAGE = param("smite_evil", "damage_mod")
LAY = param("lay_on_hands", "heal")
GUARD_ARMOR = param("divine_guard", "armor_mod")
KNIGHT_AB = param("grail_knight", "ab_mod")
KNIGHT_REDUCTION = param("grail_knight", "damage_reduction")
ROGUE = class_spec("rogue")
WARRIOR = class_spec("warrior")


def smite(target: int) -> Action:
    return Action("smite_evil", (target,))


def lay(target: int) -> Action:
    return Action("lay_on_hands", (target,))


def ac(spec: ClassSpec) -> int:
    return spec.armor + spec.dex


def test_stats_match_the_design_table() -> None:
    spec = class_spec("paladin")
    # HP is a balance number (docs/balance.md): the tests below read it from the data.
    assert (spec.ab, spec.armor, spec.dex, spec.damage) == (70, 15, 5, 3)
    assert (spec.will, spec.reflex, spec.fortitude) == (55, 20, 70)
    assert [t.value for t in spec.traits] == ["combat", "holy"]
    for sk in spec.skills:
        assert set(sk.name) == set(sk.text) == {"en-US", "zh-CN", "zh-TW"}  # zh-TW from zh-CN (engine.zh_tw)


def test_the_numbers_in_the_texts_match_the_data() -> None:
    smite = skill("smite_evil").text
    assert f"AB +{SMITE_AB}%; damage +{SMITE_DAMAGE} if the target is Chaotic" in smite["en-US"]
    assert f"AB+{SMITE_AB}%；若目标属于混乱阵营，伤害+{SMITE_DAMAGE}。" in smite["zh-CN"]
    guard = skill("divine_guard").text
    assert f"armour +{GUARD_ARMOR}%" in guard["en-US"]
    assert f"盔甲等级+{GUARD_ARMOR}%" in guard["zh-CN"]
    lay = skill("lay_on_hands").text
    assert f"regains {LAY} HP" in lay["en-US"] and f"回复{LAY}点生命值" in lay["zh-CN"]


def test_smite_evil_ab_bonus_and_damage_bonus_on_the_chaotic() -> None:
    state = table(("paladin", "lawful"), ("rogue", "chaotic"))
    need = SPEC.ab + SMITE_AB - ac(ROGUE)
    dice = ScriptedDice([(20, 19), (20, 1), (100, need), (3, 2)])
    events = night(state, dice, {1: orders(smite(2))})
    assert needs(events) == [need]
    assert state.player(2).hp == ROGUE.hp - (2 + SMITE_DAMAGE)


def test_smite_evil_no_extra_damage_on_the_neutral() -> None:
    state = table(("paladin", "lawful"), ("warrior", "neutral"))
    need = SPEC.ab + SMITE_AB - ac(WARRIOR)
    dice = ScriptedDice([(20, 19), (20, 1), (100, need), (3, 2)])
    events = night(state, dice, {1: orders(smite(2))})
    assert needs(events) == [need]
    assert state.player(2).hp == WARRIOR.hp - 2


def test_smite_evil_can_miss() -> None:
    state = table(("paladin", "lawful"), ("warrior", "neutral"))
    need = SPEC.ab + SMITE_AB - ac(WARRIOR)
    dice = ScriptedDice([(20, 19), (20, 1), (100, need + 1), (100, 100)])
    night(state, dice, {1: orders(smite(2))})
    assert state.player(2).hp == WARRIOR.hp


def test_lay_on_hands_heals_yourself_as_a_free_action_beside_a_smite() -> None:
    state = table(("paladin", "lawful"), ("rogue", "chaotic"))
    hurt = HP - LAY - 1  # the whole heal fits
    state.player(1).hp = hurt
    checked = validate(state, 1, orders(lay(1), smite(2)))
    assert isinstance(checked, Orders)
    need = SPEC.ab + SMITE_AB - ac(ROGUE)
    dice = ScriptedDice([(20, 19), (20, 1), (100, need + 1)])
    events = night(state, dice, {1: checked})
    assert state.player(1).hp == hurt + LAY
    assert [e.data for e in events if e.kind == "Healed"] == [{"amount": LAY, "hp": hurt + LAY, "max_hp": HP}]
    assert needs(events) == [need]


def test_lay_on_hands_brings_a_wounded_player_back_before_its_wound_roll() -> None:
    state = table(("paladin", "lawful"), ("rogue", "chaotic"))
    state.player(2).hp = 0
    # The Rogue acts after the heal: no wound roll is scripted, so none may happen.
    dice = ScriptedDice([(20, 19), (20, 1)])
    events = night(state, dice, {1: orders(lay(2))})
    rogue = state.player(2)
    assert rogue.hp == LAY and not rogue.wounded
    healed = [e for e in events if e.kind == "Healed"]
    assert [(e.audience, e.seat) for e in healed] == [(Audience.PRIVATE, 2)]
    assert healed[0].data == {"amount": LAY, "hp": LAY, "max_hp": ROGUE.hp}  # the healer is not named


def test_lay_on_hands_stops_at_the_maximum() -> None:
    state = table(("paladin", "lawful"), ("warrior", "lawful"))
    assert LAY > 1
    state.player(2).hp = WARRIOR.hp - 1
    dice = ScriptedDice([(20, 19), (20, 1)])
    events = night(state, dice, {1: orders(lay(2))})
    assert state.player(2).hp == WARRIOR.hp
    assert [e.data["amount"] for e in events if e.kind == "Healed"] == [1]


def test_aura_of_courage_immune_to_shaken_and_dazed_not_grappled() -> None:
    state = table(("paladin", "lawful"), ("monk", "lawful"))
    n = Night(state, Dice(0), [], {})
    pal = state.player(1)
    assert not inflict(n, pal, State.SHAKEN, 1, 2)
    assert not inflict(n, pal, State.DAZED, 1, 2)
    assert pal.conditions == {}
    assert inflict(n, pal, State.GRAPPLED, None, 2)
    assert pal.has(State.GRAPPLED)


def test_divine_guard_armour_bonus_and_no_plain_attack() -> None:
    state = table(("paladin", "lawful"), ("warrior", "neutral"))
    dice = ScriptedDice([(20, 1), (20, 20), (100, 100)])
    events = night(state, dice, {1: orders(hit(2), toggles=("divine_guard",)), 2: orders(hit(1))})
    # and the Paladin's plain attack never rolled
    assert needs(events) == [WARRIOR.ab - (ac(SPEC) + GUARD_ARMOR)]
    assert len(dice.rolls) == 3


def test_divine_guard_refuses_smite_evil_at_dusk_but_not_lay_on_hands() -> None:
    state = table(("paladin", "lawful"), ("warrior", "neutral"))
    with pytest.raises(SkillUnavailableError) as refused:
        validate(state, 1, orders(smite(2), toggles=("divine_guard",)))
    assert refused.value.params["reason"] == "reason.no_attack_tonight"
    with pytest.raises(SkillUnavailableError):
        validate(state, 1, orders(hit(2), toggles=("divine_guard",)))
    assert validate(state, 1, orders(Action("lay_on_hands", (1,)), toggles=("divine_guard",)))
    assert validate(state, 1, orders(smite(2)))


def test_divine_guard_a_smite_that_slipped_through_is_not_rolled() -> None:
    state = table(("paladin", "lawful"), ("warrior", "neutral"))
    dice = ScriptedDice([(20, 1), (20, 20), (100, 100)])
    events = night(state, dice, {1: orders(smite(2), toggles=("divine_guard",)), 2: orders(hit(1))})
    assert needs(events) == [WARRIOR.ab - (ac(SPEC) + GUARD_ARMOR)]
    assert len(dice.rolls) == 3 and state.player(2).hp == WARRIOR.hp


def test_grail_knight_ab_bonus_and_each_damage_reduced_down_to_0() -> None:
    state = table(("paladin", "lawful"), ("warrior", "neutral"), ("warrior", "neutral"))
    state.grail_holder = 1
    assert 0 < KNIGHT_REDUCTION < 3  # a d3 can show both a cut and a cut to 0
    own = SPEC.ab + KNIGHT_AB - ac(WARRIOR)
    theirs = WARRIOR.ab - ac(SPEC)
    # Paladin: a roll of exactly its need (a miss without the grail's AB) hits seat 2 for
    # 1. Seat 2 hits for 3 (less the reduction) and fails to steal; seat 3 hits for just
    # the reduction (0) and fails to steal.
    dice = ScriptedDice(
        [
            (20, 20), (20, 10), (20, 1),
            (100, own), (3, 1),
            (100, 1), (3, 3), (100, 100),
            (100, 1), (3, KNIGHT_REDUCTION), (100, 100),
        ]
    )  # fmt: skip
    events = night(state, dice, {1: orders(hit(2)), 2: orders(hit(1)), 3: orders(hit(1))})
    assert needs(events) == [own, theirs, theirs]
    assert state.player(1).hp == HP - (3 - KNIGHT_REDUCTION)
    assert [e.data["amount"] for e in events if e.kind == "DamageDealt"] == [1, 3 - KNIGHT_REDUCTION]
    assert kinds([e for e in events if e.seat == 1 and e.kind == "DamageTaken"]) == ["DamageTaken"]
    assert state.player(1).grails_banked == 1


def test_no_grail_knight_without_the_grail() -> None:
    state = table(("paladin", "lawful"), ("warrior", "neutral"))
    own = SPEC.ab - ac(WARRIOR)
    dice = ScriptedDice([(20, 20), (20, 1), (100, own), (3, 1), (100, 1), (3, 3)])
    events = night(state, dice, {1: orders(hit(2)), 2: orders(hit(1))})
    assert needs(events) == [own, WARRIOR.ab - ac(SPEC)]
    assert state.player(1).hp == HP - 3


def test_identification_two_names_for_chaotic_only() -> None:
    state = table(
        ("paladin", "lawful"), ("rogue", "chaotic"), ("warrior", "neutral"), ("monk", "lawful")
    )
    validate(
        state, 1, Identification((Guess(2, "faction", "chaotic"), Guess(3, "faction", "chaotic")))
    )
    validate(state, 1, Identification((Guess(4, "faction", "chaotic"),)))
    with pytest.raises(IdentificationError):
        validate(state, 1, Identification((Guess(2, "faction", "lawful"),)))
    with pytest.raises(IdentificationError):
        validate(
            state,
            1,
            Identification((Guess(2, "faction", "chaotic"), Guess(3, "faction", "neutral"))),
        )
    with pytest.raises(IdentificationError):
        validate(
            state,
            1,
            Identification(tuple(Guess(s, "faction", "chaotic") for s in (2, 3, 4))),
        )
    with pytest.raises(IdentificationError):
        validate(state, 1, Identification((Guess(2, "trait", "holy"),)))
    with pytest.raises(SelfTargetError):
        validate(state, 1, Identification((Guess(1, "faction", "chaotic"),)))
