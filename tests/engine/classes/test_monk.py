"""Monk (武僧): the grapple end to end with the core's grapple handling, every other
skill against scripted dice, and the identification rule.

Seats vary per test; Dex to initiative: Monk/Rogue +3, Warrior/Paladin +1, and 0 for
anyone Grappled. Initiative d20s come first, one per living player in seat order."""

from __future__ import annotations

import pytest

from engine.classes import class_spec
from engine.dice import Dice
from engine.errors import IdentificationError, MalformedSubmissionError, SkillUnavailableError
from engine.events import Audience, Event
from engine.model import Condition, GameState, State
from engine.night.combat import inflict
from engine.night.context import Night
from engine.skills.base import skills_of
from engine.stats import armor_class, save
from engine.submissions import Action, Guess, Identification, Orders
from engine.validate import validate
from tests.engine.helpers import ScriptedDice, hit, kinds, needs, night, orders, table


def to_seat(events: list[Event], seat: int) -> list[Event]:
    return [e for e in events if e.audience is Audience.PRIVATE and e.seat == seat]


def grapple(target: int) -> Action:
    return Action("grapple", (target,))


def held_by_monk(state: GameState, monk: int, target: int) -> None:
    """As a successful grapple on an earlier night leaves it."""
    state.player(target).conditions[State.GRAPPLED] = Condition(None, monk)
    state.player(monk).memory["grappling"] = target


def test_stats_match_the_design_table() -> None:
    spec = class_spec("monk")
    assert (spec.hp, spec.ab, spec.armor, spec.dex, spec.damage) == (8, 65, 5, 15, 3)
    assert (spec.will, spec.reflex, spec.fortitude) == (55, 65, 60)
    assert [t.value for t in spec.traits] == ["combat", "agility"]
    for sk in spec.skills:
        assert set(sk.name) == set(sk.text) == {"en-US", "zh-CN", "zh-TW"}  # zh-TW from zh-CN (engine.zh_tw)


# -- grapple ---------------------------------------------------------------------------


def test_grapple_holds_the_target_whose_orders_are_void_when_it_fails_to_break_free() -> None:
    state = table(("monk", "lawful"), ("rogue", "chaotic"), ("warrior", "neutral"))
    # Monk: attack 45 <= 65 − 20 hits; opposed Fortitude 30 <= 60 − 30 + 30 (training) holds.
    # Rogue's turn: break free at 30 − 60 (roll 1 fails): its attack on seat 3 is void.
    dice = ScriptedDice([(20, 20), (20, 10), (20, 1), (100, 45), (100, 30), (100, 1)])
    events = night(state, dice, {1: orders(grapple(2)), 2: orders(hit(3))})
    rogue, monk = state.player(2), state.player(1)
    assert rogue.conditions[State.GRAPPLED] == Condition(None, 1)
    assert monk.memory["grappling"] == 2
    assert needs(events) == [45]  # no damage, and the Rogue never attacked
    assert state.player(2).hp == 7 and state.player(3).hp == 10
    void = [e.data for e in events if e.kind == "OrdersVoid"]
    assert void == [{"seat": 2, "reason": "grappled"}]
    assert [e.data for e in to_seat(events, 1)] == [{"target": 2}]
    assert kinds(to_seat(events, 1)) == ["GrappleHeld"]
    assert to_seat(events, 2) == []  # the held one is never told
    assert not [e for e in events if e.audience is Audience.PUBLIC]
    assert armor_class(rogue) == 5  # Grappled: no Dexterity bonus
    # The hold lasts into the next Dusk: Release is now a valid first action.
    validate(state, 1, orders(Action("release"), hit(3)))


def test_grapple_fails_on_a_lost_opposed_check() -> None:
    state = table(("monk", "lawful"), ("rogue", "chaotic"), ("warrior", "neutral"))
    # The Rogue then misses the Warrior (100), whose Combat Reflexes roll fails (100).
    dice = ScriptedDice([(20, 20), (20, 10), (20, 1), (100, 45), (100, 61), (100, 100), (100, 100)])
    events = night(state, dice, {1: orders(grapple(2)), 2: orders(hit(3))})
    assert not state.player(2).has(State.GRAPPLED)
    assert "grappling" not in state.player(1).memory
    assert to_seat(events, 1) == []
    assert needs(events, attacker=2) == [65 - 20]  # the Rogue acts normally
    with pytest.raises(SkillUnavailableError):
        validate(state, 1, orders(Action("release")))


def test_grapple_that_misses_makes_no_opposed_check() -> None:
    state = table(("monk", "lawful"), ("rogue", "chaotic"))
    dice = ScriptedDice([(20, 20), (20, 10), (100, 46)])
    events = night(state, dice, {1: orders(grapple(2))})
    assert len(dice.rolls) == 3 and "GrappleRolled" not in kinds(events)
    assert not state.player(2).has(State.GRAPPLED)


def test_grapple_on_the_grail_carrier_steals_after_the_hold() -> None:
    state = table(("monk", "lawful"), ("rogue", "chaotic"))
    state.grail_holder = 2
    # Hit, hold (30), then the steal: the Rogue has held the grail, so Slippery Fingers
    # caps it at 25 (roll 25 succeeds). Then the Rogue fails to break free (100).
    dice = ScriptedDice([(20, 20), (20, 10), (100, 45), (100, 30), (100, 25), (100, 100)])
    events = night(state, dice, {1: orders(grapple(2))})
    assert [e.kind for e in events if e.kind in ("GrappleRolled", "StealRolled")] == [
        "GrappleRolled",
        "StealRolled",
    ]
    assert state.player(1).grails_banked == 1
    assert state.player(2).has(State.GRAPPLED)
    assert kinds(to_seat(events, 2)) == ["GrailStolen"]


def test_grappled_one_that_breaks_free_acts_but_has_no_free_action_to_steal() -> None:
    state = table(("monk", "lawful"), ("paladin", "lawful"), ("warrior", "neutral"))
    held_by_monk(state, 1, 2)
    state.grail_holder = 3
    # Paladin (Dex 0 while held) goes first: breaks free at 70 − 60 (roll 10), then its
    # attack hits the Warrior (50 <= 70 − 20) for 2, but the break-free took its free
    # action: no steal.
    dice = ScriptedDice([(20, 1), (20, 20), (20, 10), (100, 10), (100, 50), (3, 2)])
    events = night(state, dice, {2: orders(hit(3))})
    assert not state.player(2).has(State.GRAPPLED)
    assert "grappling" not in state.player(1).memory
    assert "GrappleBroken" in kinds(events)
    assert state.player(3).hp == 8
    assert "StealImpossible" in kinds(events) and "StealRolled" not in kinds(events)
    assert state.player(3).grails_banked == 1
    assert to_seat(events, 2) == []  # never told it was held
    escaped = [e for e in to_seat(events, 1) if e.kind == "GrappleEscaped"]
    assert [e.data["target"] for e in escaped] == [2]  # the Monk, told of the hold, is told of its end


def test_grappling_monk_orders_are_void_unless_it_releases_first() -> None:
    state = table(("monk", "lawful"), ("rogue", "chaotic"), ("warrior", "neutral"))
    held_by_monk(state, 1, 2)
    # Night 1: the Monk attacks without letting go: void. The Rogue fails to break free.
    dice = ScriptedDice([(20, 20), (20, 10), (20, 1), (100, 1)])
    events = night(state, dice, {1: orders(hit(3))})
    assert {"seat": 1, "reason": "grappling"} in [e.data for e in events if e.kind == "OrdersVoid"]
    assert needs(events) == []
    assert state.player(2).has(State.GRAPPLED)
    assert to_seat(events, 2) == []
    with pytest.raises(SkillUnavailableError):
        validate(state, 1, orders(hit(3), Action("release")))
    for malformed in (Action("release", (2,)), Action("release", amount=1)):  # refused, not ignored
        with pytest.raises(MalformedSubmissionError) as info:
            validate(state, 1, orders(malformed, hit(3)))
        assert info.value.params["reason"] == "reason.release_alone"
    checked = validate(state, 1, orders(Action("release"), hit(3)))

    # Night 2: Release (free) first, then the attack goes ahead; the Rogue, free, rolls nothing.
    state.round = 2
    assert isinstance(checked, Orders)
    dice = ScriptedDice([(20, 20), (20, 10), (20, 1), (100, 45), (3, 1)])
    events = night(state, dice, {1: checked})
    assert "GrappleReleased" in kinds(events)
    assert not state.player(2).has(State.GRAPPLED)
    assert "grappling" not in state.player(1).memory
    assert needs(events) == [45]
    assert state.player(3).hp == 9


# -- the other skills ------------------------------------------------------------------


def test_still_mind_immune_to_shaken_and_prelude_and_will_plus_20() -> None:
    state = table(("monk", "lawful"), ("warrior", "lawful"))
    monk = state.player(1)
    n = Night(state, Dice(0), [], {})
    skills_of("monk")["still_mind"].night_started(n, monk)
    assert save(monk, "will", n) == 55 + 20
    assert not inflict(n, monk, State.SHAKEN, 1, 2)
    assert not inflict(n, monk, State.HYPNOTIC_PRELUDE, None, 2)
    assert inflict(n, monk, State.DAZED, 1, 2)
    assert set(monk.conditions) == {State.DAZED}
    assert "StateResisted" in kinds(n.events)


@pytest.mark.parametrize(("guard", "need_on", "need_by"), [(True, 45, 35), (False, 55, 45)])
def test_ki_guard_dex_plus_10_ab_minus_10(guard: bool, need_on: int, need_by: int) -> None:
    state = table(("monk", "lawful"), ("warrior", "neutral"))
    toggles = ("ki_guard",) if guard else ()
    # Warrior first, misses; the Monk misses too (the Warrior's reflex roll: no counter).
    dice = ScriptedDice([(20, 1), (20, 20), (100, 100), (100, 100), (100, 100)])
    events = night(state, dice, {1: orders(hit(2), toggles=toggles), 2: orders(hit(1))})
    assert needs(events) == [need_on, need_by]


@pytest.mark.parametrize(("grail", "held"), [(True, True), (False, False)])
def test_ki_strike_grapple_bonus_only_after_holding_the_grail(grail: bool, held: bool) -> None:
    state = table(("monk", "lawful"), ("warrior", "neutral"))
    if grail:
        state.grail_holder = 1
    # Against Fortitude 75: 60 − 75 + 30 + 20 = 35 with the grail (roll 35 holds), 15 without.
    # The Warrior then tries to break free (75 − 60 = 15; roll 16 fails) if held.
    script: list[int | tuple[int, int]] = [(20, 20), (20, 1), (100, 45), (100, 35)]
    # Held: the Warrior fails to break free (16). Free: it attacks the Monk and misses.
    script.append((100, 16) if held else (100, 100))
    dice = ScriptedDice(script)
    events = night(state, dice, {1: orders(grapple(2)), 2: orders(hit(1))})
    assert state.player(2).has(State.GRAPPLED) is held
    assert [e.data["success"] for e in events if e.kind == "GrappleRolled"] == [held]
    if not held:
        assert needs(events, attacker=2) == [75 - 20]


def test_ki_strike_damage_plus_1_with_the_grail() -> None:
    state = table(("monk", "lawful"), ("warrior", "neutral"))
    state.grail_holder = 1
    dice = ScriptedDice([(20, 20), (20, 1), (100, 45), (3, 2)])
    night(state, dice, {1: orders(hit(2))})
    assert state.player(2).hp == 10 - 3


def test_quivering_palm_drops_the_target_to_zero_credited_to_the_monk() -> None:
    state = table(("monk", "lawful"), ("rogue", "chaotic"))
    # Hit (45), opposed Fortitude 60 − 30 (roll 30): HP 0. At its turn the wounded Rogue
    # makes its first wound roll (51 > 50: still wounded).
    dice = ScriptedDice([(20, 20), (20, 10), (100, 45), (100, 30), (100, 51)])
    events = night(state, dice, {1: orders(Action("quivering_palm", (2,)))})
    rogue = state.player(2)
    assert rogue.alive and rogue.hp == 0 and rogue.wound_source == 1
    assert "WoundedNow" in kinds(to_seat(events, 2))
    assert state.player(1).used_once == ["quivering_palm"]
    with pytest.raises(SkillUnavailableError):
        validate(state, 1, orders(Action("quivering_palm", (2,))))


def test_quivering_palm_ignores_damage_reduction() -> None:
    state = table(("monk", "lawful"), ("paladin", "lawful"))
    state.grail_holder = 2  # Grail Knight: damage to the Paladin −1; not this.
    state.player(2).hp = 3
    state.player(1).memory["fortitude_mod"] = 30  # 90 − 70: the check can succeed
    # Paladin first (does nothing). Monk: hit (45 <= 65 − 20), opposed 1 <= 20: HP 0;
    # the hit on the carrier then allows a steal (100 fails).
    dice = ScriptedDice([(20, 1), (20, 20), (100, 45), (100, 1), (100, 100)])
    night(state, dice, {1: orders(Action("quivering_palm", (2,)))})
    assert state.player(2).hp == 0


def test_quivering_palm_failed_check_deals_normal_damage() -> None:
    state = table(("monk", "lawful"), ("rogue", "chaotic"))
    dice = ScriptedDice([(20, 20), (20, 10), (100, 45), (100, 31), (3, 2)])
    night(state, dice, {1: orders(Action("quivering_palm", (2,)))})
    assert state.player(2).hp == 7 - 2
    assert state.player(1).used_once == ["quivering_palm"]


def test_identification_one_name_for_combat_and_one_for_agility() -> None:
    state = table(("monk", "lawful"), ("warrior", "lawful"), ("rogue", "chaotic"))
    validate(state, 1, Identification((Guess(2, "trait", "combat"), Guess(3, "trait", "agility"))))
    validate(state, 1, Identification((Guess(2, "trait", "combat"), Guess(2, "trait", "agility"))))
    validate(state, 1, Identification((Guess(3, "trait", "agility"),)))
    with pytest.raises(IdentificationError):
        validate(
            state, 1, Identification((Guess(2, "trait", "combat"), Guess(3, "trait", "combat")))
        )
    with pytest.raises(IdentificationError):
        validate(state, 1, Identification((Guess(2, "trait", "holy"),)))


def test_still_mind_guards_a_monk_who_starts_the_night_wounded() -> None:
    """A passive that holds at all times: wounded, the Monk still resists with Will +20."""
    state = table(("wizard", "neutral"), ("monk", "lawful"))
    state.player(2).hp = 0
    state.player(2).wound_source = 1
    wizard_will, monk_will = save(state.player(1), "will"), save(state.player(2), "will")
    bonus = int(class_spec("monk").skill("still_mind").params["will_mod"])
    dice = ScriptedDice([(20, 20), (20, 1), (100, 99), (100, 51)])  # the hold fails; the wound roll
    night(state, dice, {1: orders(Action("hold_person", (2,)))})
    [hold] = [r for r in dice.rolls if r.why.startswith("hold-person")]
    assert hold.need == wizard_will - (monk_will + bonus)
    assert not state.player(2).has(State.DAZED)


def test_a_quivering_palm_that_kills_the_carrier_may_take_the_grail_from_the_body() -> None:
    """House rule killing_blow "steal" (the default): a hit like any other."""
    state = table(("monk", "lawful"), ("rogue", "chaotic"))
    state.grail_holder = 2
    state.player(2).hp = 0  # wounded: the palm hits, and the failed check's damage kills
    dice = ScriptedDice([(20, 20), (20, 10), (100, 45), (100, 31), (3, 2), (100, 10)])
    events = night(state, dice, {1: orders(Action("quivering_palm", (2,)))})
    assert not state.player(2).alive
    stolen = next(e for e in events if e.kind == "StealRolled")
    assert stolen.data["thief"] == 1 and stolen.data["success"]
    assert state.player(1).grails_banked == 1
