"""Night combat: attacks, damage, steals, the action economy at resolution."""

from engine.model import Condition, State
from engine.night.combat import attack, steal
from engine.night.context import Night
from engine.submissions import Action, Orders
from tests.engine.helpers import ScriptedDice, kinds, night, table


def duel():
    # Warriors: AB 75, AC 15 + 5 = 20, so an attack hits on d100 <= 55.
    return table(("warrior", "lawful"), ("warrior", "neutral"))


def attack_order(target):
    return Orders((Action("attack", (target,)),))


def test_hit_on_roll_equal_to_ab_minus_ac():
    st = duel()
    d = ScriptedDice([(20, 10), (20, 5), (100, 55), (3, 3)])
    # Seat 2 does not counter: the attack hit, so Combat Reflexes does not trigger.
    night(st, d, {1: attack_order(2)})
    assert st.player(2).hp == 7


def test_miss_on_roll_one_above():
    st = duel()
    # 56 misses; seat 2's Combat Reflexes rolls 51 > 50: no counter.
    d = ScriptedDice([(20, 10), (20, 5), (100, 56), (100, 51)])
    night(st, d, {1: attack_order(2)})
    assert st.player(2).hp == 10 and st.player(1).hp == 10


def test_any_attack_on_a_wounded_target_hits():
    st = duel()
    st.player(2).hp = 0
    # Seat 2 is wounded: it still rolls initiative and, at its turn, its wound roll.
    d = ScriptedDice([(20, 15), (20, 5), (100, 100), (3, 1)])
    events = night(st, d, {1: attack_order(2)})
    assert not st.player(2).alive
    assert "PlayerLeft" in kinds(events)
    # A kill of another faction: +3 to the killer's faction.
    assert st.scores["lawful"] == 3


def test_steal_needs_a_free_action_and_succeeds_on_fifty():
    st = duel()
    st.grail_holder = 2
    d = ScriptedDice([(20, 10), (20, 5), (100, 1), (3, 1), (100, 50)])
    events = night(st, d, {1: attack_order(2)})
    assert "GrailStolen" in kinds(events) and "GrailTaken" in kinds(events)
    assert st.player(1).grails_banked == 1
    assert st.scores["lawful"] == 2


def test_failed_steal_leaves_the_grail():
    st = duel()
    st.grail_holder = 2
    d = ScriptedDice([(20, 10), (20, 5), (100, 1), (3, 1), (100, 51)])
    events = night(st, d, {1: attack_order(2)})
    assert "GrailStolen" not in kinds(events)
    assert st.player(2).grails_banked == 1
    assert sum(st.scores.values()) == 0


def test_no_free_action_no_steal():
    st = duel()
    st.grail_holder = 2
    n = Night(st, ScriptedDice([(100, 1)]), [], {})
    n.turn(1).free = 0
    n.turn(1).standard = 0
    assert steal(n, st.player(1), st.player(2)) is False
    assert st.grail_holder == 2


def test_whoever_had_the_grail_tonight_has_held_it_even_after_losing_it():
    """R10: a grail taken from a body (set directly, as a death passes it on) and then
    stolen leaves both earlier holders marked as having held it."""
    st = table(("warrior", "lawful"), ("warrior", "neutral"), ("warrior", "chaotic"))
    n = Night(st, ScriptedDice(), [], {})
    assert not n.held_grail(st.player(2))
    st.grail_holder = 2  # picked up from a body
    assert n.held_grail(st.player(2))
    n.give_grail(3)  # then stolen
    assert n.held_grail(st.player(2)) and n.held_grail(st.player(3))
    assert not n.held_grail(st.player(1))


def test_free_action_falls_back_on_the_standard_one():
    st = duel()
    n = Night(st, ScriptedDice(), [], {})
    n.turn(1).free = 0
    assert n.spend(1, "free") is True
    assert n.turn(1).standard == 0
    # ...but a standard action never comes out of a free one.
    n2 = Night(st, ScriptedDice(), [], {})
    n2.turn(1).standard = 0
    assert n2.spend(1, "standard") is False
    assert n2.turn(1).free == 1


def test_states_change_the_numbers():
    st = duel()
    n = Night(st, ScriptedDice([(100, 45)]), [], {})
    st.player(1).conditions[State.DAZED] = Condition(1, None)
    # Dazed attacker: AB 65; defender AC 20: need 45; 45 hits.
    res = attack(n, st.player(1), st.player(2), deal_damage=False)
    assert res.hit


def test_fatigued_damage_is_at_least_one():
    st = duel()
    st.player(1).conditions[State.FATIGUED] = Condition(1, None)
    # Fatigued: AB 70 - 20 = 50. Hit on 50, d3 rolls 1, -1 damage → still 1.
    n = Night(st, ScriptedDice([(100, 50), (3, 1)]), [], {})
    res = attack(n, st.player(1), st.player(2))
    assert res.hit and res.damage == 1 and st.player(2).hp == 9


def test_attack_on_a_player_dead_before_it_resolves_fizzles():
    st = table(("warrior", "lawful"), ("warrior", "neutral"), ("warrior", "chaotic"))
    st.player(3).hp = 0
    st.player(3).wound_rolls = 1
    # Initiative: 3 first (wound roll 2: 61 > 60 dies), then 1 attacks 3: fizzles (no d100).
    d = ScriptedDice([(20, 1), (20, 1), (20, 20), (100, 61)])
    # seats 1 and 2 tie at 1+1=2: a tie shuffle (one roll, d2) decides
    d.script.insert(3, (2, 1))
    events = night(st, d, {1: attack_order(3)})
    assert not st.player(3).alive
    assert "AttackFizzled" in kinds(events)


def test_the_attacker_never_learns_whether_it_hit():
    st = duel()
    d = ScriptedDice([(20, 10), (20, 5), (100, 1), (3, 2)])
    events = night(st, d, {1: attack_order(2)})
    # Nothing, but for the Warrior's own stated exception: Cleave is ready (after the night).
    assert [e.kind for e in events if e.seat == 1] == ["CleaveReady"]
    victim_news = [e for e in events if e.seat == 2]
    assert [e.kind for e in victim_news] == ["DamageTaken"]
    assert "source" not in victim_news[0].data


def test_an_actor_wounded_during_its_own_turn_does_nothing_more():
    """E12: a Paladin at HP 1 misses, the Warrior's counter wounds it: its Lay on Hands,
    ordered after the attack, does not happen."""
    st = table(("paladin", "lawful"), ("warrior", "neutral"))
    st.player(1).hp = 1
    # initiative; the Paladin misses (AB 70 − AC 20: 99 > 50); the counter triggers (1 ≤ 50)
    # and hits (1 ≤ 65 − 20) for 1
    d = ScriptedDice([(20, 15), (20, 5), (100, 99), (100, 1), (100, 1), (3, 1)])
    orders = {1: Orders((Action("attack", (2,)), Action("lay_on_hands", (1,))))}
    events = night(st, d, orders)
    assert st.player(1).wounded
    assert "Healed" not in kinds(events)
    assert not d.script
