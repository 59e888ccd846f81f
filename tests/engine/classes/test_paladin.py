"""Paladin (圣武士): every skill against scripted dice, and its identification rule.

Seats: 1 Paladin (Lawful, Dex +1 to initiative), then Rogue (Chaotic, +3) or Warriors
(+1). Initiative d20s come first, one per living player in seat order."""

from __future__ import annotations

import pytest

from engine.classes import class_spec
from engine.dice import Dice
from engine.errors import IdentificationError, SelfTargetError
from engine.events import Audience, Event
from engine.model import State
from engine.night.combat import inflict
from engine.night.context import Night
from engine.submissions import Action, Guess, Identification, Orders
from engine.validate import validate
from tests.engine.helpers import ScriptedDice, kinds, night, table


def needs(events: list[Event]) -> list[int]:
    return [e.data["need"] for e in events if e.kind == "AttackRolled"]


def orders(*actions: Action, toggles: tuple[str, ...] = ()) -> Orders:
    return Orders(tuple(actions), frozenset(toggles))


def hit(target: int) -> Action:
    return Action("attack", (target,))


def smite(target: int) -> Action:
    return Action("smite_evil", (target,))


def lay(target: int) -> Action:
    return Action("lay_on_hands", (target,))


def test_stats_match_the_design_table() -> None:
    spec = class_spec("paladin")
    assert (spec.hp, spec.ab, spec.armor, spec.dex, spec.damage) == (11, 70, 15, 5, 3)
    assert (spec.will, spec.reflex, spec.fortitude) == (55, 20, 70)
    assert [t.value for t in spec.traits] == ["combat", "holy"]
    for sk in spec.skills:
        assert set(sk.name) == set(sk.text) == {"en-US", "zh-CN"}


def test_smite_evil_ab_plus_10_and_damage_plus_2_on_the_chaotic() -> None:
    state = table(("paladin", "lawful"), ("rogue", "chaotic"))
    dice = ScriptedDice([(20, 19), (20, 1), (100, 60), (3, 2)])
    events = night(state, dice, {1: orders(smite(2))})
    assert needs(events) == [70 + 10 - 20]
    assert state.player(2).hp == 7 - 4


def test_smite_evil_no_extra_damage_on_the_neutral() -> None:
    state = table(("paladin", "lawful"), ("warrior", "neutral"))
    dice = ScriptedDice([(20, 19), (20, 1), (100, 60), (3, 2)])
    night(state, dice, {1: orders(smite(2))})
    assert state.player(2).hp == 10 - 2


def test_smite_evil_can_miss() -> None:
    state = table(("paladin", "lawful"), ("warrior", "neutral"))
    dice = ScriptedDice([(20, 19), (20, 1), (100, 61), (100, 100)])
    night(state, dice, {1: orders(smite(2))})
    assert state.player(2).hp == 10


def test_lay_on_hands_heals_yourself_as_a_free_action_beside_a_smite() -> None:
    state = table(("paladin", "lawful"), ("rogue", "chaotic"))
    state.player(1).hp = 5
    checked = validate(state, 1, orders(lay(1), smite(2)))
    assert isinstance(checked, Orders)
    dice = ScriptedDice([(20, 19), (20, 1), (100, 61)])
    events = night(state, dice, {1: checked})
    assert state.player(1).hp == 7
    assert [e.data for e in events if e.kind == "Healed"] == [{"amount": 2, "hp": 7, "max_hp": 11}]
    assert needs(events) == [60]


def test_lay_on_hands_brings_a_wounded_player_back_before_its_wound_roll() -> None:
    state = table(("paladin", "lawful"), ("rogue", "chaotic"))
    state.player(2).hp = 0
    # The Rogue acts after the heal: no wound roll is scripted, so none may happen.
    dice = ScriptedDice([(20, 19), (20, 1)])
    events = night(state, dice, {1: orders(lay(2))})
    rogue = state.player(2)
    assert rogue.hp == 2 and not rogue.wounded
    healed = [e for e in events if e.kind == "Healed"]
    assert [(e.audience, e.seat) for e in healed] == [(Audience.PRIVATE, 2)]
    assert healed[0].data == {"amount": 2, "hp": 2, "max_hp": 7}  # the healer is not named


def test_lay_on_hands_stops_at_the_maximum() -> None:
    state = table(("paladin", "lawful"), ("warrior", "lawful"))
    state.player(2).hp = 9
    dice = ScriptedDice([(20, 19), (20, 1)])
    events = night(state, dice, {1: orders(lay(2))})
    assert state.player(2).hp == 10
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


def test_divine_guard_armour_plus_10_and_no_plain_attack() -> None:
    state = table(("paladin", "lawful"), ("warrior", "neutral"))
    dice = ScriptedDice([(20, 1), (20, 20), (100, 100)])
    events = night(state, dice, {1: orders(hit(2), toggles=("divine_guard",)), 2: orders(hit(1))})
    assert needs(events) == [75 - (25 + 5)]  # and the Paladin's plain attack never rolled
    assert len(dice.rolls) == 3


def test_divine_guard_still_allows_smite_evil() -> None:
    state = table(("paladin", "lawful"), ("warrior", "neutral"))
    dice = ScriptedDice([(20, 1), (20, 20), (100, 100), (100, 100), (100, 100)])
    events = night(state, dice, {1: orders(smite(2), toggles=("divine_guard",)), 2: orders(hit(1))})
    assert needs(events) == [45, 60]


def test_grail_knight_ab_plus_10_and_each_damage_minus_1_down_to_0() -> None:
    state = table(("paladin", "lawful"), ("warrior", "neutral"), ("warrior", "neutral"))
    state.grail_holder = 1
    # Paladin: 60 <= 70 + 10 − 20 hits seat 2 for 1. Seat 2 hits for 3 (2 after the
    # grail) and fails to steal; seat 3 hits for 1 (0) and fails to steal.
    dice = ScriptedDice(
        [
            (20, 20), (20, 10), (20, 1),
            (100, 60), (3, 1),
            (100, 1), (3, 3), (100, 100),
            (100, 1), (3, 1), (100, 100),
        ]
    )  # fmt: skip
    events = night(state, dice, {1: orders(hit(2)), 2: orders(hit(1)), 3: orders(hit(1))})
    assert needs(events) == [60, 55, 55]
    assert state.player(1).hp == 11 - 2
    assert [e.data["amount"] for e in events if e.kind == "DamageDealt"] == [1, 2]
    assert kinds([e for e in events if e.seat == 1 and e.kind == "DamageTaken"]) == ["DamageTaken"]
    assert state.player(1).grails_banked == 1


def test_no_grail_knight_without_the_grail() -> None:
    state = table(("paladin", "lawful"), ("warrior", "neutral"))
    dice = ScriptedDice([(20, 20), (20, 1), (100, 50), (3, 1), (100, 1), (3, 3)])
    events = night(state, dice, {1: orders(hit(2)), 2: orders(hit(1))})
    assert needs(events) == [50, 55]
    assert state.player(1).hp == 11 - 3


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
