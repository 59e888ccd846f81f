"""Skills and guesses as players type them (engine.names): by id, by a name in any
language of the class data, and by the words the caller passes for what the data does
not name (traits, factions, letting go of a grapple)."""

from __future__ import annotations

import pytest

from engine import RELEASE, class_spec, guess_values, parse_guess, parse_skill
from engine.classes import catalogue

WORDS = {("trait", "holy"): ("Holy", "神圣"), ("faction", "chaotic"): ("Chaotic", "混乱")}


def words(what: str, value: str) -> tuple[str, ...]:
    return WORDS.get((what, value), ())


@pytest.mark.parametrize("locale", ["en-US", "zh-CN", "zh-TW"])
def test_a_skill_by_its_id_or_its_name_in_each_language(locale):
    for s in class_spec("monk").skills:
        assert parse_skill(s.id, "monk") == s
        assert parse_skill(f"  {s.name[locale].upper()} ", "monk") == s


def test_release_by_its_id_or_the_words_given_and_nothing_else():
    assert parse_skill("Release", "monk") == RELEASE
    assert parse_skill("松开", "monk") is None
    assert parse_skill("松开", "monk", ("Release (let go)", "松开")) == RELEASE
    assert parse_skill("smite", "monk") is None  # another class's skill
    assert parse_skill("", "monk") is None


def test_a_guess_as_written():
    assert parse_guess("trait:holy") == ("trait", "holy")
    assert parse_guess("class:monk") == ("class", "monk")
    assert parse_guess(" faction:lawful ") == ("faction", "lawful")
    assert parse_guess("trait:monk") is None and parse_guess("colour:red") is None


def test_a_guess_by_value_or_name_traits_first():
    assert parse_guess("HOLY") == ("trait", "holy")
    assert parse_guess("chaotic") == ("faction", "chaotic")
    for locale in ("en-US", "zh-CN", "zh-TW"):
        assert parse_guess(class_spec("cleric").name[locale]) == ("class", "cleric")
    assert parse_guess("神圣") is None  # a trait's words are the caller's
    assert parse_guess("神圣", words) == ("trait", "holy")
    assert parse_guess("混乱", words) == ("faction", "chaotic")
    assert parse_guess("nobody", words) is None


def test_the_values_a_guess_may_name():
    assert guess_values("trait") == ("combat", "spellcasting", "holy", "agility")
    assert guess_values("faction") == ("lawful", "neutral", "chaotic")
    assert guess_values("class") == tuple(sorted(catalogue()))
    assert guess_values("colour") == ()
