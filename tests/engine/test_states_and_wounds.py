"""States (异常状态), wounds and death."""

from engine.model import Condition, State
from engine.night.context import Night
from engine.stats import armor_class, attack_bonus, dex_bonus, initiative_modifier
from engine.submissions import Action, Orders
from tests.engine.helpers import ScriptedDice, kinds, night, table


def one(*conds):
    st = table(("warrior", "lawful"), ("warrior", "neutral"))
    for c in conds:
        st.player(1).conditions[c] = Condition(None, None)
    return st


def test_dazed_costs_ten_ab_and_all_dex():
    st = one(State.DAZED)
    p = st.player(1)
    assert attack_bonus(p) == 65 and dex_bonus(p) == 0 and armor_class(p) == 15
    assert initiative_modifier(p) == 0


def test_shaken_costs_five_dex_not_below_zero():
    st = one(State.SHAKEN)
    assert dex_bonus(st.player(1)) == 0  # Warrior: 5 - 5
    st.player(1).dex_mod = 15  # after Combat Expertise: 20 - 5
    assert dex_bonus(st.player(1)) == 15


def test_grappled_loses_dex_fatigued_and_prelude_cost_ab():
    assert dex_bonus(one(State.GRAPPLED).player(1)) == 0
    assert attack_bonus(one(State.FATIGUED).player(1)) == 70
    assert attack_bonus(one(State.HYPNOTIC_PRELUDE).player(1)) == 73
    assert attack_bonus(one(State.FATIGUED, State.DAZED).player(1)) == 60


def test_initiative_modifier_is_dex_bonus_over_five():
    st = one()
    assert initiative_modifier(st.player(1)) == 1
    st.player(1).dex_mod = 15
    assert initiative_modifier(st.player(1)) == 4


def test_states_expire_at_the_end_of_their_night():
    st = one()
    st.player(1).conditions[State.DAZED] = Condition(until_round=1, source=None)
    st.player(1).conditions[State.SHAKEN] = Condition(until_round=2, source=None)
    night(st, ScriptedDice([(20, 1), (20, 2)]))
    assert not st.player(1).has(State.DAZED)
    assert st.player(1).has(State.SHAKEN)


def test_damage_to_zero_wounds_and_below_zero_kills():
    from engine.health import apply_damage

    st = one()
    events: list = []
    apply_damage(st, events, st.player(2), 10, 1, "attack")
    assert st.player(2).wounded and st.player(2).alive and st.player(2).wound_source == 1
    apply_damage(st, events, st.player(2), 3, 1, "attack")
    assert not st.player(2).alive
    assert "WoundedNow" in kinds(events) and "PlayerLeft" in kinds(events)
    # The victim learns the killing blow's damage (as it learns any damage), not who.
    [died] = [e for e in events if e.kind == "YouDied"]
    assert died.seat == 2 and died.data == {"amount": 3}


def test_first_wound_roll_recovers_on_fifty():
    st = one()
    st.player(2).hp = 0
    events = night(st, ScriptedDice([(20, 10), (20, 5), (100, 50)]))
    assert st.player(2).hp == 1 and "Recovered" in kinds(events)


def test_first_wound_roll_stays_wounded_on_fifty_one():
    st = one()
    st.player(2).hp = 0
    events = night(st, ScriptedDice([(20, 10), (20, 5), (100, 51)]))
    assert st.player(2).wounded and st.player(2).wound_rolls == 1 and "StillWounded" in kinds(events)


def test_second_wound_roll_recovers_on_sixty_dies_on_sixty_one_credited_to_the_wounder():
    st = one()
    st.player(2).hp = 0
    st.player(2).wound_rolls = 1
    st.player(2).wound_source = 1
    night(st, ScriptedDice([(20, 10), (20, 5), (100, 60)]))
    assert st.player(2).hp == 1

    st = one()
    st.player(2).hp = 0
    st.player(2).wound_rolls = 1
    st.player(2).wound_source = 1
    events = night(st, ScriptedDice([(20, 10), (20, 5), (100, 61)]))
    assert not st.player(2).alive
    assert [e.data for e in events if e.kind == "YouDied"] == [{"how": "wound"}]
    assert st.scores["lawful"] == 3  # the wounder's faction scores the kill
    assert "PlayerLeft" in kinds(events)


def test_wounded_the_same_night_rolls_at_its_own_later_turn():
    st = one()
    st.player(2).hp = 1
    # 1 acts first: hit for 1 → seat 2 wounded; at its turn seat 2 rolls (51: stays wounded)
    d = ScriptedDice([(20, 15), (20, 5), (100, 1), (3, 1), (100, 51)])
    night(st, d, {1: Orders((Action("attack", (2,)),)), 2: Orders((Action("attack", (1,)),))})
    assert st.player(2).wounded and st.player(1).hp == 10


def test_vote_wound_then_death_by_wound_roll_scores_nobody():
    st = one()
    st.player(2).hp = 0
    st.player(2).wound_rolls = 1
    st.player(2).wound_source = None
    night(st, ScriptedDice([(20, 10), (20, 5), (100, 99)]))
    assert not st.player(2).alive
    assert sum(st.scores.values()) == 0


def test_grappled_player_is_never_told():
    st = one()
    st.player(2).conditions[State.GRAPPLED] = Condition(None, 1)
    st.player(1).memory["grappling"] = 2
    n = Night(st, ScriptedDice(), [], {})
    assert dex_bonus(st.player(2), n) == 0
    events = night(st, ScriptedDice([(20, 10), (20, 5), (100, 99)]), {2: Orders((Action("attack", (1,)),))})
    assert not [e for e in events if e.seat == 2]
    assert "OrdersVoid" in kinds(events)


def test_a_removed_player_is_told_it_was_removed_not_that_it_died():
    from engine import remove_player

    outcome = remove_player(one(), 2)
    private_to_2 = [e.kind for e in outcome.events if e.seat == 2]
    assert private_to_2 == ["YouWereRemoved"]
    assert "PlayerLeft" in kinds(outcome.events)


def test_orders_and_guesses_naming_a_player_removed_at_dusk_keep_their_other_parts():
    """R3: an order aimed at a player who left before it resolves fizzles; the rest of
    the orders stand, and the guesses about the others are answered."""
    from engine import advance, remove_player
    from engine.submissions import Guess, Identification

    st = table(("cleric", "lawful"), ("warrior", "neutral"), ("rogue", "chaotic"), ("monk", "lawful"), ("wizard", "neutral"), ("bard", "chaotic"))
    orders = Orders((Action("attack", (2,)), Action("divine_intervention", (3,))))
    guesses = Identification((Guess(2, "trait", "combat"), Guess(3, "faction", "chaotic")))
    st = remove_player(st, 2).state
    events = advance(st, {1: [orders, guesses]}, "seed").events
    assert "SubmissionDropped" not in kinds(events)
    assert any(e.kind == "AttackFizzled" and e.data["target"] == 2 for e in events)
    assert any(e.kind == "SpellCast" and e.data["why"] == "divine_intervention" for e in events)
    answer = next(e for e in events if e.kind == "IdentificationAnswered")
    assert answer.data["confirmed"] == [{"target": 3, "what": "faction", "value": "chaotic"}]


def test_a_vote_or_guesses_naming_only_a_removed_player_are_dropped():
    from engine import Phase, advance, remove_player
    from engine.submissions import Guess, Identification, Vote

    roles = (("cleric", "lawful"), ("warrior", "neutral"), ("rogue", "chaotic"), ("monk", "lawful"), ("wizard", "neutral"), ("bard", "chaotic"))
    dusk = remove_player(table(*roles), 2).state
    events = advance(dusk, {1: [Identification((Guess(2, "trait", "combat"),))]}, "seed").events
    assert "IdentificationAnswered" not in kinds(events) and "SubmissionDropped" in kinds(events)
    morning = remove_player(table(*roles, phase=Phase.MORNING), 2).state
    events = advance(morning, {1: [Vote(2)], 3: [Vote(4)]}, "seed").events
    dropped = [e.data for e in events if e.kind == "SubmissionDropped"]
    assert dropped == [{"seat": 1, "submission": "vote", "key": "error.dead_target"}]


def test_no_break_free_attempt_without_an_action_left():
    """Breaking free costs a free action (or the standard one in its stead): a held
    Warrior whose two actions went on counter-attack steals earlier tonight stays held."""
    from engine.night.resolve import take_turn

    st = one()
    st.player(1).conditions[State.GRAPPLED] = Condition(None, 2)
    st.player(2).memory["grappling"] = 1
    n = Night(st, ScriptedDice(), [], {1: Orders((Action("attack", (2,)),))})
    n.turn(1).free = n.turn(1).standard = 0
    take_turn(n, st.player(1))  # no opposed roll is made: the dice have nothing scripted
    assert st.player(1).has(State.GRAPPLED) and st.player(2).memory["grappling"] == 1
    assert "AttackRolled" not in kinds(n.events)


def test_a_grapple_voids_actions_but_not_toggles():
    """Rules (Grappled): toggles are set at nightfall, before anyone acts, and hold for
    the held player: a held Wizard's Mage Armor still turns an attack aside."""
    from engine.dice import Dice

    def need_against_the_wizard(toggles: frozenset[str]) -> int:
        st = table(("wizard", "neutral"), ("monk", "lawful"), ("warrior", "chaotic"), ("rogue", "chaotic"), ("cleric", "lawful"), ("bard", "neutral"))
        st.player(1).conditions[State.GRAPPLED] = Condition(None, 2)
        st.player(2).memory["grappling"] = 1
        orders = {1: Orders((), toggles), 3: Orders((Action("attack", (1,)),))}
        events = night(st, Dice.for_phase("held-toggle", 1, "dusk"), orders)
        return next(e.data["need"] for e in events if e.kind == "AttackRolled" and e.data["target"] == 1)

    assert need_against_the_wizard(frozenset({"mage_armor"})) == need_against_the_wizard(frozenset()) - 10
