"""Bard: every skill with scripted dice, and its identification rule.

Every night a living Bard ends with Bardic Knowledge: a d<others> to pick a player (no
roll when there is only one), then a die for the trait when that class has several."""

import pytest

from engine.classes import SkillSpec, class_spec
from engine.errors import IdentificationError, MalformedSubmissionError, SkillUnavailableError
from engine.events import Audience
from engine.model import Condition, State
from engine.submissions import Action, Guess, Identification
from engine.validate import validate
from tests.engine.helpers import ScriptedDice, kinds, night, orders, skill_of, table

INIT = [(20, 20), (20, 10), (20, 1)]  # seats act 1, 2, 3
KNOW = (2, 1)  # Bardic Knowledge picks seat 2 (a warrior: one trait, no second roll)

# Balance numbers come from the class data, so a tuning pass needs no test change.
SPEC = class_spec("bard")


def skill(skill_id: str) -> SkillSpec:
    return skill_of("bard", skill_id)


HP = SPEC.hp
FINALE = int(skill("hypnotic_finale").params["damage"])
SONG_WILL = int(skill("countersong").params["will_defense"])
SONG_AB = int(skill("countersong").params["ab_mod"])
WARRIOR_HP = class_spec("warrior").hp


def trio():
    # bard: AB 65, AC 20, Will 60; warriors: AB 75, AC 20, Will 20 (HP: the class data)
    return table(("bard", "chaotic"), ("warrior", "lawful"), ("warrior", "neutral"))


def prelude(st, *seats):
    for s in seats:
        st.player(s).conditions[State.HYPNOTIC_PRELUDE] = Condition(None, 1)


def test_data_is_complete_in_both_languages():
    spec = class_spec("bard")
    assert [t.value for t in spec.traits] == ["spellcasting", "agility"]
    for s in spec.skills:
        assert set(s.name) == set(s.text) == {"en-US", "zh-CN", "zh-TW"}  # zh-TW from zh-CN (engine.zh_tw)


# -- Hypnotic Prelude ----------------------------------------------------------------------


def test_hypnotic_prelude_is_a_free_action_that_lasts_and_is_not_told():
    st = trio()
    # Prelude (free): 60 - 20 = 40, a 40 succeeds; then the standard attack on 3:
    # 65 - 20 = 45, 99 misses; 3 does not counter (51).
    d = ScriptedDice([*INIT, (100, 40), (100, 99), (100, 51), KNOW])
    events = night(st, d, {1: orders(Action("hypnotic_prelude", (2,)), Action("attack", (3,)))})
    cond = st.player(2).conditions[State.HYPNOTIC_PRELUDE]
    assert cond.until_round is None and cond.source == 1
    assert not any(e.audience is Audience.PRIVATE and e.seat == 2 for e in events)
    assert "ActionLost" not in kinds(events)
    assert not d.script


def test_hypnotic_prelude_resisted():
    st = trio()
    night(st, ScriptedDice([*INIT, (100, 41), KNOW]), {1: orders(Action("hypnotic_prelude", (2,)))})
    assert not st.player(2).conditions


def test_hypnotic_prelude_costs_two_ab():
    st = trio()
    prelude(st, 2)
    # Warrior 2 in Prelude: AB 73 - 20 = 53; 54 misses (it would hit at 55).
    d = ScriptedDice([*INIT, (100, 54), KNOW])
    night(st, d, {2: orders(Action("attack", (1,)))})
    assert st.player(1).hp == HP


# -- Hypnotic Finale -----------------------------------------------------------------------


def test_hypnotic_finale_hurts_every_listener_and_ends_the_state():
    st = trio()
    prelude(st, 2, 3)
    st.grail_holder = 1
    d = ScriptedDice([*INIT, KNOW])  # no roll: fixed damage, nobody else has the grail
    night(st, d, {1: orders(Action("hypnotic_finale"))})
    assert st.player(2).hp == st.player(3).hp == WARRIOR_HP - FINALE
    assert not st.player(2).conditions and not st.player(3).conditions
    assert st.player(1).grails_banked == 1
    assert not d.script


def test_hypnotic_finale_steals_back_from_a_listener():
    st = trio()
    prelude(st, 2, 3)
    st.grail_holder = 1
    # Order: 2, 3, 1. Warrior 2 (in Prelude: AB 73, need 53) hits the Bard (10), d3 1,
    # steals (50). The Bard's Finale: its fixed damage to each, then steals it back (50).
    d = ScriptedDice([(20, 1), (20, 20), (20, 10), (100, 10), (3, 1), (100, 50), (100, 50), KNOW])
    events = night(st, d, {1: orders(Action("hypnotic_finale")), 2: orders(Action("attack", (1,)))})
    assert st.player(1).grails_banked == 1
    assert st.player(2).hp == st.player(3).hp == WARRIOR_HP - FINALE
    assert st.scores == {"lawful": 2, "neutral": 0, "chaotic": 2}
    assert [e.data["thief"] for e in events if e.kind == "StealRolled"] == [2, 1]
    assert not d.script


def test_hypnotic_finale_fizzles_without_the_grail():
    st = trio()
    prelude(st, 2)
    events = night(st, ScriptedDice([*INIT, KNOW]), {1: orders(Action("hypnotic_finale"))})
    assert "SkillFizzled" in kinds(events)
    assert st.player(2).hp == WARRIOR_HP and st.player(2).has(State.HYPNOTIC_PRELUDE)


# -- Countersong ---------------------------------------------------------------------------


@pytest.mark.parametrize("song", [True, False])
def test_countersong_makes_will_checks_against_the_bard_harder(song):
    st = table(("bard", "chaotic"), ("wizard", "lawful"), ("warrior", "neutral"))
    # Wizard Hold Person: Will 80 - 60 = 20 normally; Countersong adds its Will defense to
    # the Bard's 60: the roll just above that need fails, and holds without the song.
    need = class_spec("wizard").will - (SPEC.will + SONG_WILL)
    roll = max(1, need + 1)
    assert roll <= class_spec("wizard").will - SPEC.will
    d = ScriptedDice([*INIT, (100, roll), KNOW])
    toggles = {"countersong"} if song else set()
    night(st, d, {1: orders(toggles=toggles), 2: orders(Action("hold_person", (1,)))})
    assert st.player(1).has(State.DAZED) is not song


@pytest.mark.parametrize(("roll", "held"), [(40, True), (41, False)])
def test_countersong_leaves_the_bards_own_checks_alone(roll, held):
    st = trio()
    # 60 - 20 = 40 exactly as without the song (not 90 - 20).
    d = ScriptedDice([*INIT, (100, roll), KNOW])
    night(st, d, {1: orders(Action("hypnotic_prelude", (2,)), toggles={"countersong"})})
    assert st.player(2).has(State.HYPNOTIC_PRELUDE) is held


def test_countersong_costs_its_ab():
    st = trio()
    # AB 55 - 20 = 35, less the song's AB: one above that misses; warrior 2 does not counter (51).
    need = SPEC.ab + SONG_AB - 20
    d = ScriptedDice([*INIT, (100, need + 1), (100, 51), KNOW])
    events = night(st, d, {1: orders(Action("attack", (2,)), toggles={"countersong"})})
    assert [e.data["need"] for e in events if e.kind == "AttackRolled"] == [need]
    assert st.player(2).hp == WARRIOR_HP
    assert not d.script


# -- Bardic Knowledge ----------------------------------------------------------------------


def test_bardic_knowledge_tells_one_true_trait_of_a_random_other_player():
    st = table(("bard", "chaotic"), ("druid", "neutral"), ("warrior", "lawful"))
    st.player(3).alive = False
    st.player(3).hp = -1
    # Only seat 2 is another living player: no pick roll; a druid has two traits: d2 -> holy.
    d = ScriptedDice([(20, 20), (20, 10), (2, 2)])
    events = night(st, d)
    [e] = [e for e in events if e.kind == "BardicKnowledge"]
    assert e.audience is Audience.PRIVATE and e.seat == 1
    assert e.data == {"target": 2, "trait": "holy"}
    assert {"target": 2, "what": "trait", "value": "holy"} in st.player(1).memory["confirmed"]
    assert not d.script


def test_bardic_knowledge_picks_among_the_living():
    st = trio()
    events = night(st, ScriptedDice([*INIT, (2, 2)]))
    [e] = [e for e in events if e.kind == "BardicKnowledge"]
    assert e.data == {"target": 3, "trait": "combat"}


# -- Suggestion ----------------------------------------------------------------------------


def test_suggestion_turns_the_subjects_orders_into_an_attack_on_the_victim():
    st = trio()
    # 60 - 20 = 40: 40 succeeds. Warrior 2 meant to attack the Bard; it attacks 3 instead:
    # need 55, 1 hits, d3 2.
    d = ScriptedDice([*INIT, (100, 40), (100, 1), (3, 2), KNOW])
    night(st, d, {1: orders(Action("suggestion", (2, 3))), 2: orders(Action("attack", (1,)))})
    assert st.player(3).hp == WARRIOR_HP - 2 and st.player(1).hp == HP
    assert "suggestion" in st.player(1).used_once
    assert not d.script
    with pytest.raises(SkillUnavailableError):
        validate(st, 1, orders(Action("suggestion", (2, 3))))


def test_suggestion_resisted_leaves_the_orders_alone():
    st = trio()
    d = ScriptedDice([*INIT, (100, 41), (100, 1), (3, 2), KNOW])
    night(st, d, {1: orders(Action("suggestion", (2, 3))), 2: orders(Action("attack", (1,)))})
    assert st.player(1).hp == HP - 2 and st.player(3).hp == WARRIOR_HP


def test_suggestion_on_a_subject_that_already_acted_is_spent_without_a_roll():
    st = trio()
    d = ScriptedDice([(20, 1), (20, 20), (20, 10), KNOW])  # the Bard acts last
    events = night(st, d, {1: orders(Action("suggestion", (2, 3)))})
    assert any(e.kind == "SpellFizzled" and e.data.get("reason") == "acted" for e in events)
    assert "suggestion" in st.player(1).used_once
    assert not d.script


def test_suggestion_names_exactly_two():
    with pytest.raises(MalformedSubmissionError):
        validate(trio(), 1, orders(Action("suggestion", (2,))))


# -- Identification ----------------------------------------------------------------------


def test_identification_one_faction_and_one_trait():
    st = trio()
    validate(st, 1, Identification((Guess(2, "faction", "lawful"), Guess(3, "trait", "combat"))))
    validate(st, 1, Identification((Guess(2, "faction", "lawful"), Guess(2, "trait", "combat"))))
    with pytest.raises(IdentificationError):
        validate(st, 1, Identification((Guess(2, "faction", "lawful"), Guess(3, "faction", "neutral"))))
    with pytest.raises(IdentificationError):
        validate(st, 1, Identification((Guess(2, "class", "warrior"),)))
