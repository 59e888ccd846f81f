"""Identification answers (RULES: Identification; R6): one private message at the night's
start listing only the confirmed guesses."""

from engine.events import Audience
from engine.submissions import Guess, Identification
from tests.engine.helpers import ScriptedDice, night, table


def ident(*guesses):
    return Identification(tuple(Guess(*g) for g in guesses))


def answers(events, seat):
    return [e for e in events if e.kind == "IdentificationAnswered" and e.seat == seat]


def test_the_rules_example_only_b_is_holy_is_confirmed():
    # A is a Cleric; B a Druid (Holy, Neutral); C a Warrior (not Holy)
    st = table(("cleric", "lawful"), ("druid", "neutral"), ("warrior", "chaotic"))
    asked = ident((2, "trait", "holy"), (3, "trait", "holy"), (2, "faction", "lawful"))
    events = night(st, ScriptedDice([(20, 3), (20, 2), (20, 1)]), idents={1: asked})
    [answer] = answers(events, 1)
    assert answer.audience is Audience.PRIVATE
    assert answer.data["confirmed"] == [{"target": 2, "what": "trait", "value": "holy"}]
    assert st.player(1).memory["confirmed"] == [{"target": 2, "what": "trait", "value": "holy"}]


def test_a_right_faction_and_class_are_confirmed_wrong_ones_are_not():
    st = table(("wizard", "lawful"), ("rogue", "chaotic"), ("ranger", "chaotic"))
    events = night(
        st,
        ScriptedDice([(20, 3), (20, 2), (20, 1)]),
        idents={1: ident((2, "trait", "spellcasting"), (3, "class", "ranger")), 2: ident((1, "class", "cleric"))},
    )
    assert answers(events, 1)[0].data["confirmed"] == [{"target": 3, "what": "class", "value": "ranger"}]
    assert answers(events, 2)[0].data["confirmed"] == []
    st = table(("cleric", "lawful"), ("rogue", "neutral"), ("warrior", "lawful"))
    events = night(
        st,
        ScriptedDice([(20, 3), (20, 2), (20, 1)]),
        idents={1: ident((2, "trait", "holy"), (2, "faction", "chaotic"))},
    )
    assert answers(events, 1)[0].data["confirmed"] == []
    events = night(st, ScriptedDice([(20, 3), (20, 2), (20, 1)]), idents={1: ident((3, "faction", "lawful"))})
    assert answers(events, 1)[0].data["confirmed"] == [{"target": 3, "what": "faction", "value": "lawful"}]


def test_the_dead_are_not_answered():
    st = table(("warrior", "lawful"), ("warrior", "neutral"), ("warrior", "chaotic"))
    st.player(1).alive = False
    events = night(st, ScriptedDice([(20, 2), (20, 1)]), idents={1: ident((2, "trait", "combat"))})
    assert answers(events, 1) == []
