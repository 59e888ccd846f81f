"""Skills and guesses as players type them, read into the engine's values.

A skill is named by its id or its name in any language of the class data (en-US, zh-CN
and zh-TW, ``engine/data``); a guess by ``what:value``, or a trait, faction or class by
its value or its name. The words for traits and factions, and for letting go of a
grapple, are the bot's (its catalogues), which the engine does not read: the caller
passes them. What names nothing is None; the caller words the refusal.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import cache

from engine.classes import SkillSpec, catalogue, class_spec
from engine.submissions import RELEASE, GuessKind
from engine.values import FACTIONS, Trait

# What a guess may be about (a guess's ``what``), in the order a bare name is looked for.
GUESS_KINDS: tuple[GuessKind, ...] = ("trait", "faction", "class")


def fold(text: str) -> str:
    """A skill's or a guess's name, or what was typed for it, folded for comparison."""
    return text.casefold().strip()


@cache
def guess_values(what: str) -> tuple[str, ...]:
    """Every value a guess about ``what`` may name: the traits, the factions, or the
    class ids (sorted); none for anything else."""
    if what == "trait":
        return tuple(t.value for t in Trait)
    if what == "faction":
        return tuple(f.value for f in FACTIONS)
    if what == "class":
        return tuple(sorted(catalogue()))
    return ()


def parse_skill(text: str, class_id: str, release: Iterable[str] = ()) -> SkillSpec | str | None:
    """The skill of ``class_id`` that ``text`` names, by its id or its name in any
    language of the class data; :data:`~engine.submissions.RELEASE` (letting go of a
    grapple, which is no class's skill) by that id or any of the words ``release``
    holds for it. None when it names none (whether the class may use it now is
    :func:`engine.validate`'s)."""
    want = fold(text or "")
    if want == RELEASE or want in {fold(word) for word in release}:
        return RELEASE
    for s in class_spec(class_id).skills:
        if want == fold(s.id) or want in {fold(name) for name in s.name.values()}:
            return s
    return None


def no_words(what: str, value: str) -> tuple[str, ...]:
    """No words for anything: a guess is then read by values and class names alone."""
    return ()


def parse_guess(text: str, words: Callable[[str, str], Iterable[str]] = no_words) -> tuple[GuessKind, str] | None:
    """What ``text`` guesses a seat is, as (what, value): ``trait:holy`` as written, else
    the first trait, faction or class (in that order) whose value or name it is, folded
    (``holy``, ``Holy``, a class's name in any language of the class data). ``words``
    gives a trait's or a faction's words (``words("trait", "holy")``), which are the
    bot's. None when it names nothing."""
    raw = (text or "").strip()
    if ":" in raw:
        what, _, value = raw.partition(":")
        named = next((kind for kind in GUESS_KINDS if kind == what), None)
        if named is not None and value in guess_values(named):
            return named, value
    want = fold(raw)
    for kind in GUESS_KINDS:
        for value in guess_values(kind):
            names = catalogue()[value].name.values() if kind == "class" else words(kind, value)
            if want == value or want in {fold(name) for name in names}:
                return kind, value
    return None
