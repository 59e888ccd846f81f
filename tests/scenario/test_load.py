"""Loading scenario files: the examples load, and every kind of bad file is refused with
a problem naming its field."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.scenario import ScenarioError, loads
from engine import Phase, State

EXAMPLES = sorted((Path(__file__).resolve().parents[2] / "docs" / "examples").glob("*.toml"))

TWO = """
phase = "dusk"
[[players]]
class = "warrior"
faction = "lawful"
{one}
[[players]]
class = "warrior"
faction = "neutral"
{two}
"""


def problems(text: str, locale: str = "en-US") -> list[str]:
    with pytest.raises(ScenarioError) as info:
        loads(text, locale=locale)
    return [str(p) for p in info.value.problems]


def two(one: str = "", two: str = "", **top: str) -> str:
    head = "".join(f"{k} = {v}\n" for k, v in top.items())
    text = TWO.format(one=one, two=two)
    return head + text if "phase" not in top else head + text.replace('phase = "dusk"\n', "", 1)


def test_examples_exist_for_every_phase_and_situation() -> None:
    names = {p.stem for p in EXAMPLES}
    assert {"warrior-attacks-grail-carrier", "monk-grapple", "vote-tie", "grail-allocation"} <= names
    phases = {loads(p.read_text(encoding="utf-8")).state.phase for p in EXAMPLES}
    assert phases == {Phase.DAY, Phase.DUSK, Phase.MORNING}


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_every_example_loads(path: Path) -> None:
    sc = loads(path.read_text(encoding="utf-8"), str(path))
    assert sc.submissions, "an example with nothing sent shows nothing"


def test_a_valid_file_builds_the_state_it_describes() -> None:
    sc = loads(two(
        one='hp = 0\nwound_rolls = 1\nwounded_by = 2\nmemory = { cleave_ready = true }\nused_once = ["combat_expertise"]\nmodifiers = { ab = -15, dex = 15 }',
        two='name = "Bo"\nhp = 4\nholds_grail = true\nstates = { dazed = {}, fatigued = { until_round = 3, source = 1 } }\norders = [{ skill = "attack", targets = 1 }]',
        round="2",
    ))
    a, b = sc.state.players
    assert (a.hp, a.wounded, a.wound_rolls, a.wound_source) == (0, True, 1, 2)
    assert a.memory["cleave_round"] == 2 and a.used_once == ["combat_expertise"]
    assert (a.ab_mod, a.dex_mod) == (-15, 15)
    assert b.name == "Bo" and sc.state.grail_holder == 2
    assert b.conditions[State.DAZED].until_round == 2  # default: through the coming night
    assert (b.conditions[State.FATIGUED].until_round, b.conditions[State.FATIGUED].source) == (3, 1)
    assert sc.submissions[2][0].actions[0].targets == (1,)  # `targets = 1` is short for [1]


def test_grappled_records_the_hold_on_the_grappler() -> None:
    sc = loads("""
phase = "dusk"
[[players]]
class = "monk"
faction = "lawful"
[[players]]
class = "rogue"
faction = "neutral"
states = { grappled = { source = 1 } }
[[players]]
class = "bard"
faction = "chaotic"
""")
    monk, rogue, _ = sc.state.players
    assert monk.memory["grappling"] == 2
    assert rogue.conditions[State.GRAPPLED].source == 1 and rogue.conditions[State.GRAPPLED].until_round is None


@pytest.mark.parametrize(
    ("one", "two_", "expected"),
    [
        ('', 'hp = "ten"', "players[2].hp: expected an integer, got 'ten'"),
        ('', 'hp = 11', "players[2].hp: 11 is above the warrior's maximum HP 10"),
        ('holds_grail = true', 'holds_grail = true', "players[2].holds_grail: two grail holders (seat 1 and seat 2)"),
        ('', 'colour = "red"', "players[2].colour: unknown field"),
        ('', 'states = ["wounded"]', "players[2].states: 'wounded' is not set as a state: it is HP 0"),
        ('', 'states = ["asleep"]', "players[2].states.asleep: 'asleep' is not one of"),
        ('', 'states = { grappled = { source = 1 } }', "players[2].states.grappled.source: seat 1 is a warrior, which cannot grapple (grapplers: monk)"),
        ('', 'states = { grappled = {} }', "players[2].states.grappled.source: a grappled player is held by someone"),
        ('', 'states = { dazed = { until_round = 1 } }', "players[2].states.dazed.until_round: a state lasting through round 1's night would have ended"),
        ('', 'hp = -1\nstates = ["dazed"]', "players[2].states: a dead player has no states"),
        ('', 'wound_rolls = 1', "players[2].wound_rolls: only a wounded player (hp = 0) has wound rolls"),
        ('', 'used_once = ["whirlwind"]', "players[2].used_once: 'whirlwind' is not a once-per-game skill of the warrior (those are: combat_expertise)"),
        ('', 'memory = { spell_points = 2 }', "players[2].memory.spell_points: a warrior has no spell points"),
        ('', 'memory = { companion_hp = 2 }', "players[2].memory.companion_hp: a warrior has no companion"),
        ('', 'seat = 5', "players[2].seat: is 5, but this is [[players]] table number 2"),
        ('', 'wounded_by = 9\nhp = 0', "players[2].wounded_by: no seat 9 at this table"),
    ],
)
def test_table_problems_name_their_field(one: str, two_: str, expected: str) -> None:
    found = problems(two(one, two_, round="2"))
    assert any(p.startswith(expected) for p in found), found


def test_unknown_class_lists_the_known_ones() -> None:
    found = problems(two().replace('class = "warrior"', 'class = "wizzard"', 1))
    assert found[0].startswith("players[1].class: unknown class 'wizzard' (known: ")
    assert "warrior" in found[0] and "monk" in found[0]


def test_class_outside_its_factions_row() -> None:
    found = problems(two().replace('faction = "neutral"', 'faction = "chaotic"'))
    assert found == ["players[2].faction: a warrior cannot be chaotic: the roster deals it to lawful or neutral"]


def test_grail_holder_outside_dusk() -> None:
    found = problems(two("holds_grail = true", "", phase='"morning"'))
    assert found[0].startswith("players[1].holds_grail: nobody holds the grail at morning")


def test_a_game_that_would_already_be_over() -> None:
    found = problems(two("", "hp = -1"))
    assert found == ["players: this game would already be over: one faction has more living members than all the others together (RULES: the end, R13)"]
    found = problems(two() + "[scores]\nlawful = 15\n")
    assert "already has 15 points" in found[0]


def test_immunities_are_impossible_states() -> None:
    text = """
phase = "dusk"
[[players]]
class = "paladin"
faction = "lawful"
states = ["dazed"]
[[players]]
class = "rogue"
faction = "neutral"
[[players]]
class = "bard"
faction = "chaotic"
"""
    assert problems(text)[0].startswith("players[1].states.dazed: a paladin is immune to dazed")


def test_rule_refusals_show_the_engines_text() -> None:
    found = problems(two('orders = [{ skill = "attack", targets = [1] }]', "vote = 1"))
    assert found == [
        "players[1].orders: You cannot target or vote for yourself.",
        "players[2].vote: That can only be sent during Morning (the vote); it is now Dusk (identifications and orders).",
    ]
    zh = problems(two('orders = [{ skill = "attack", targets = [1] }]'), locale="zh-CN")
    assert zh == ["players[1].orders: 你不能以自己为目标或给自己投票。"]


def test_rule_refusals_of_skills_and_identification() -> None:
    found = problems(two('orders = [{ skill = "cleave", targets = [2] }]\nidentify = [{ target = 2, faction = "neutral" }]'))
    assert found[0].startswith("players[1].identify: Your identification rule does not allow that")
    assert found[1].startswith("players[1].orders: You cannot use Cleave now")


def test_guess_must_name_one_thing() -> None:
    found = problems(two('identify = [{ target = 2, trait = "combat", faction = "lawful" }]'))
    assert found == ["players[1].identify[1]: a guess names exactly one of trait, class or faction"]


def test_toml_syntax_and_missing_fields() -> None:
    assert problems("phase = \n")[0].startswith("not valid TOML:")
    assert problems("[[players]]\nclass = 'warrior'\nfaction = 'lawful'\n")[0] == "phase: this field is required"
    assert problems('phase = "night"\nplayers = []\n')[:2] == ["phase: 'night' is not one of 'day', 'dusk' or 'morning'", "players: needs at least 2 entries, got 0"]
