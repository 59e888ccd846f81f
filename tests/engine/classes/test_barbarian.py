"""Barbarian (野蛮人): every skill against scripted dice, and its identification rule.

Seats: 1 Barbarian (Neutral, Dex +2 to initiative), 2 (and 3) Warrior (Lawful, +1).
Initiative d20s come first, one per living player in seat order."""

from __future__ import annotations

import pytest

from engine.classes import class_spec
from engine.errors import IdentificationError
from engine.events import Audience, Event
from engine.model import State
from engine.morning import count_votes
from engine.stats import attack_bonus
from engine.submissions import Action, Guess, Identification, Orders
from engine.validate import validate
from tests.engine.helpers import ScriptedDice, attack, kinds, needs, night, table


def test_stats_match_the_design_table() -> None:
    s = table(("barbarian", "neutral")).player(1)
    assert (s.hp, s.max_hp) == (10, 10)  # 12 as designed; docs/balance.md
    from engine.classes import class_spec

    spec = class_spec("barbarian")
    assert (spec.ab, spec.armor, spec.dex, spec.damage) == (70, 10, 10, 4)
    assert (spec.will, spec.reflex, spec.fortitude) == (15, 40, 80)
    assert [t.value for t in spec.traits] == ["combat"]
    assert len(spec.skills) == 5
    for sk in spec.skills:
        assert set(sk.name) == set(sk.text) == {"en-US", "zh-CN", "zh-TW"}  # zh-TW from zh-CN (engine.zh_tw)


def test_rage_raises_ab_and_damage_lowers_dex_then_fatigues_for_the_next_night() -> None:
    state = table(("barbarian", "neutral"), ("warrior", "lawful"))
    dice = ScriptedDice([(20, 15), (20, 5), (100, 60), (4, 2), (100, 61)])
    night(state, dice, {1: attack(2, "rage"), 2: attack(1)})
    # AB 70 + 10 vs AC 20; the Warrior's AB 75 vs AC 10 + (10 − 5).
    assert state.player(2).hp == 10 - 3
    barb = state.player(1)
    assert barb.conditions[State.FATIGUED].until_round == 2
    assert barb.conditions[State.FATIGUED].source == 1
    assert attack_bonus(barb) == 65

    # Night 2, no rage: Fatigued costs AB −5 and damage −1, then it expires.
    state.round = 2
    dice = ScriptedDice([(20, 15), (20, 5), (100, 45), (4, 3)])
    events = night(state, dice, {1: attack(2)})
    assert needs(events) == [45]
    assert state.player(2).hp == 7 - 2
    assert not barb.has(State.FATIGUED)


def test_without_rage_no_bonus_and_no_fatigue() -> None:
    state = table(("barbarian", "neutral"), ("warrior", "lawful"))
    # The miss gives the Warrior its Combat Reflexes roll (100: no counter).
    dice = ScriptedDice([(20, 15), (20, 5), (100, 60), (100, 100), (100, 61)])
    events = night(state, dice, {1: attack(2), 2: attack(1)})
    assert needs(events) == [50, 55]
    assert state.player(2).hp == 10
    assert not state.player(1).has(State.FATIGUED)


def test_damage_reduction_takes_one_off_each_hit_but_not_below_one_nor_the_vote() -> None:
    state = table(("barbarian", "neutral"), ("warrior", "lawful"), ("warrior", "lawful"))
    dice = ScriptedDice([(20, 1), (20, 20), (20, 10), (100, 1), (3, 3), (100, 1), (3, 1)])
    events = night(state, dice, {2: attack(1), 3: attack(1)})
    taken = [e.data["amount"] for e in events if e.kind == "DamageDealt"]
    assert taken == [2, 1]
    full = class_spec("barbarian").hp
    assert state.player(1).hp == full - 3
    vote_events: list[Event] = []
    count_votes(state, ScriptedDice(), vote_events, {2: 1, 3: 1})
    assert state.player(1).hp == full - 3 - 1


def test_indomitable_stops_the_first_killing_blow_at_zero_once_per_game() -> None:
    state = table(("barbarian", "neutral"), ("warrior", "lawful"))
    barb = state.player(1)
    barb.hp = 1
    # The Warrior hits for 3 (2 after reduction): would leave −1, stops at 0. At its turn
    # the wounded Barbarian rolls to recover (1 <= 50: back to HP 1).
    dice = ScriptedDice([(20, 1), (20, 20), (100, 1), (3, 3), (100, 1)])
    events = night(state, dice, {2: attack(1)})
    assert barb.alive
    assert barb.used_once == ["indomitable"]
    assert barb.wound_source is None and barb.hp == 1  # recovered at its turn
    mine = [e for e in events if e.audience is Audience.PRIVATE and e.seat == 1]
    assert "IndomitableSaved" in kinds(mine)
    assert "WoundedNow" in kinds(mine)
    assert "PlayerLeft" not in kinds(events)

    # Spent: the next killing blow kills.
    state.round = 2
    dice = ScriptedDice([(20, 1), (20, 20), (100, 1), (3, 3)])
    events = night(state, dice, {2: attack(1)})
    assert not barb.alive
    assert "PlayerLeft" in kinds(events)
    assert state.scores["lawful"] == 3


def test_indomitable_is_not_spent_on_damage_that_does_not_kill() -> None:
    state = table(("barbarian", "neutral"), ("warrior", "lawful"))
    dice = ScriptedDice([(20, 1), (20, 20), (100, 1), (3, 3)])
    night(state, dice, {2: attack(1)})
    assert state.player(1).hp == class_spec("barbarian").hp - 2
    assert state.player(1).used_once == []


@pytest.mark.parametrize(("roll", "hp"), [(65, 10 - 4), (66, 10)])
def test_reckless_charge_ab_plus_15_and_dex_minus_10_tonight(roll: int, hp: int) -> None:
    state = table(("barbarian", "neutral"), ("warrior", "lawful"))
    script: list[int | tuple[int, int]] = [(20, 15), (20, 5), (100, roll)]
    # A hit rolls damage; a miss gives the Warrior its Combat Reflexes roll (no counter).
    script.append((4, 4) if roll == 65 else (100, 100))
    script.append((100, 66))
    dice = ScriptedDice(script)
    events = night(state, dice, {1: Orders((Action("reckless_charge", (2,)),)), 2: attack(1)})
    # 70 + 15 − 20 = 65; then the Warrior's 75 − (10 + 10 − 10) = 65.
    assert needs(events) == [65, 65]
    assert state.player(2).hp == hp


def test_blood_frenzy_damage_and_steal_chance_after_holding_the_grail() -> None:
    state = table(("barbarian", "neutral"), ("warrior", "lawful"))
    state.grail_holder = 1
    # Warrior first: hits (1, reduced to 1), steals at 50 (roll 50). Then the Barbarian,
    # who held the grail tonight: d4 2 + 1, and steals back at 75 (roll 75).
    dice = ScriptedDice(
        [(20, 1), (20, 20), (100, 1), (3, 1), (100, 50), (100, 1), (4, 2), (100, 75)]
    )
    events = night(state, dice, {1: attack(2), 2: attack(1)})
    chances = [e.data["chance"] for e in events if e.kind == "StealRolled"]
    assert chances == [50, 75]
    assert state.player(2).hp == 10 - 3
    assert state.grail_holder is None  # banked at the night's end
    assert state.player(1).grails_banked == 1
    assert state.scores["neutral"] == 2 and state.scores["lawful"] == 2


def test_blood_frenzy_failed_steal_and_no_bonus_without_the_grail() -> None:
    state = table(("barbarian", "neutral"), ("warrior", "lawful"))
    state.grail_holder = 2
    # The Barbarian never held the grail: d4 2, no +1; the steal is a plain 50 (roll 51 fails).
    dice = ScriptedDice([(20, 15), (20, 5), (100, 1), (4, 2), (100, 51)])
    events = night(state, dice, {1: attack(2)})
    assert [e.data["chance"] for e in events if e.kind == "StealRolled"] == [50]
    assert state.player(2).hp == 8
    assert state.player(2).grails_banked == 1


def test_identification_one_name_for_combat_or_agility() -> None:
    state = table(("barbarian", "neutral"), ("warrior", "lawful"), ("rogue", "chaotic"))
    for value in ("combat", "agility"):
        validate(state, 1, Identification((Guess(2, "trait", value),)))
    with pytest.raises(IdentificationError):
        validate(state, 1, Identification((Guess(2, "trait", "holy"),)))
    with pytest.raises(IdentificationError):
        validate(
            state, 1, Identification((Guess(2, "trait", "combat"), Guess(3, "trait", "agility")))
        )
    with pytest.raises(IdentificationError):
        validate(state, 1, Identification((Guess(2, "class", "warrior"),)))


def test_reckless_charge_is_an_ordinary_standard_action() -> None:
    state = table(("barbarian", "neutral"), ("warrior", "lawful"))
    validate(state, 1, Orders((Action("reckless_charge", (2,)),), frozenset({"rage"})))
    from engine.errors import ActionEconomyError

    with pytest.raises(ActionEconomyError):
        validate(state, 1, Orders((Action("reckless_charge", (2,)), Action("attack", (2,)))))
