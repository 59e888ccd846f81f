"""The class files (engine/data/classes/*.toml) are data an engineer edits by hand: a
mistake in one is refused at load with the file and the field named, never half-loaded."""

from __future__ import annotations

from importlib import resources

import pytest

from engine.classes import ClassDataError, catalogue, parse_class

WARRIOR = (resources.files("engine") / "data" / "classes" / "warrior.toml").read_text(encoding="utf-8")


def test_every_shipped_class_loads_and_the_warrior_is_the_sources():
    assert len(catalogue()) == 11
    warrior = parse_class(WARRIOR, "warrior.toml")
    assert (warrior.hp, warrior.ab, warrior.armor, warrior.dex) == (10, 75, 15, 5)


@pytest.mark.parametrize(
    ("change", "named"),
    [
        (lambda s: s.replace("hp = 10", "hp = ten"), "warrior.toml: "),  # not TOML
        (lambda s: s.replace("hp = 10", "hp = 0"), "warrior.toml: hp: "),
        (lambda s: s.replace("armor = 15", "armor = 12"), "warrior.toml: armor: "),
        (lambda s: s.replace('traits = ["combat"]', "traits = []"), "warrior.toml: traits: "),
        (lambda s: s.replace(', "zh-CN" = "战士"', ""), "warrior.toml: name: "),
        (lambda s: s.replace('id = "combat_reflexes"', 'id = "cleave"'), "skill ids repeat"),
        (lambda s: s.replace('id = "combat_reflexes"', 'id = "attack"'), "'attack' is reserved"),
        (lambda s: s.replace("grail = true", "grail = false"), "at least one grail skill"),
        (lambda s: s.replace('mode = "passive"\ncost = "none"\nparams = { chance = 50', 'mode = "passive"\ncost = "none"\ntargets = [1, 1]\nparams = { chance = 50'), "only active skills take targets"),
        (lambda s: s.replace("targets = [1, 1]", "targets = [2, 1]", 1), "must be 0 <= min <= max <= 3"),
        (lambda s: s + '\nsurprise = "field"\n', "surprise"),
    ],
)
def test_a_mistake_in_a_class_file_is_refused_naming_the_file_and_the_field(change, named):
    text = change(WARRIOR)
    assert text != WARRIOR, "the change must apply to the shipped file"
    with pytest.raises(ClassDataError) as err:
        parse_class(text, "warrior.toml")
    assert str(err.value).startswith("warrior.toml: ") and named in str(err.value), str(err.value)


def test_every_stat_toggle_names_a_number_of_the_night_and_a_parameter_of_its_data():
    """A StatToggle's modifiers are data: each pairs an int field of the night's Turn with
    a parameter its class file has, so a typo fails here and not in the middle of a game."""
    from dataclasses import fields

    from engine.night.context import Turn
    from engine.skills.base import StatToggle, skills_of

    numbers = {f.name for f in fields(Turn) if f.type in (int, "int")}
    toggles = [s for cid in catalogue() for s in skills_of(cid).values() if isinstance(s, StatToggle)]
    assert len(toggles) >= 4
    for s in toggles:
        assert s.spec.mode == "toggle", s.skill_id
        assert s.BONUSES, s.skill_id
        for stat, param in s.BONUSES:
            assert stat in numbers, (s.skill_id, stat)
            assert isinstance(s.param(param), int), (s.skill_id, param)


def test_every_skill_of_the_data_has_exactly_one_behaviour_and_a_second_is_refused():
    """A skill's behaviour is the Skill subclass naming its class and skill id: every skill
    of every class file has one, and a second class claiming the same pair is an error
    rather than a silent choice between the two."""
    import gc

    from engine.skills.base import Skill, _registry, skills_of

    registry = _registry()
    for cid in catalogue():
        behaviours = skills_of(cid)
        assert behaviours, cid
        for sid, behaviour in behaviours.items():
            assert registry[(cid, sid)] is type(behaviour)
            assert (behaviour.class_id, behaviour.skill_id) == (cid, sid)

    class Twin(Skill):
        class_id = "warrior"
        skill_id = next(iter(skills_of("warrior")))

    try:
        with pytest.raises(ValueError, match="defined twice"):
            _registry()
    finally:
        del Twin
        gc.collect()
    assert _registry() == registry
