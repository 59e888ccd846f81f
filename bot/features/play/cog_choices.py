"""Autocomplete and parsing of the caller's own skills and identification guesses.

Both come from the caller's sheet (``engine.view.sheet``), so a player is only ever
offered their own class's skills and the guesses their class may make. Whatever is
typed instead (an id, a name in either language, a pasted label) is read by the
engine (``engine.parse_skill``, ``engine.parse_guess``, with the catalogues' words), which
also has the last word on whether it is allowed.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable

from discord import app_commands

from bot.i18n import LOCALES, t, terms
from engine.classes import SkillSpec, catalogue, class_spec
from engine.names import fold, guess_values
from engine.view import Sheet

MAX_CHOICES = 25


def orderable_skills(sheet: Sheet) -> list[SkillSpec | str]:
    """The skills the caller can put in tonight's orders: active ones not yet spent,
    toggles, and letting go of a grapple while holding someone."""
    spec = class_spec(sheet["class_id"])
    used = {s["id"] for s in sheet["skills"] if s.get("used")}
    out: list[SkillSpec | str] = [s for s in spec.skills if s.mode == "toggle" or (s.mode == "active" and s.id not in used)]
    if "grappling" in (sheet.get("memory") or {}):
        out.insert(0, "release")
    return out


def skill_label(class_id: str, skill: SkillSpec | str, locale: str) -> str:
    if isinstance(skill, str):
        return t(f"reply.skill.{skill}", locale)
    name = terms.skill_name(class_id, skill.id, locale)
    if skill.mode == "toggle":
        return t("reply.skill.toggle_label", locale, name=name)
    lo, hi = skill.targets
    if hi == 0:
        return name
    count: int | str = lo if lo == hi else f"{lo}–{hi}"  # a number picks the singular for 1
    return t("reply.skill.target_label", locale, name=name, count=count)


def skill_choices(sheet: Sheet, current: str, locale: str) -> list[app_commands.Choice[str]]:
    want = fold(current or "")
    out = []
    for skill in orderable_skills(sheet):
        label = skill_label(sheet["class_id"], skill, locale)
        value = skill if isinstance(skill, str) else skill.id
        if want and want not in fold(label) and want not in value:
            continue
        out.append(app_commands.Choice(name=label[:100], value=value))
    return out[:MAX_CHOICES]


@functools.cache
def _toggle_names() -> frozenset[str]:
    return frozenset(
        name
        for spec in catalogue().values()
        for s in spec.skills
        if s.mode == "toggle"
        for name in {fold(s.id)} | {fold(s.name[loc]) for loc in LOCALES}  # type: ignore[index]
    )


def may_flip(text: str) -> bool:
    """Whether ``text`` may name a toggle skill of some class (by id, or name in either
    language), read without the caller's sheet: ordered without a switch such a skill is
    flipped, which done twice is not done (``bot.discord.first_response``)."""
    return fold(text or "") in _toggle_names()


def guess_options(sheet: Sheet) -> list[tuple[str, str]]:
    """Every (what, value) the caller's identification rule can name, in sheet order."""
    out: list[tuple[str, str]] = []
    for slot in sheet["identify"]:
        values: Iterable[str] = slot["values"] or guess_values(slot["what"])
        for v in values:
            if (slot["what"], v) not in out:
                out.append((slot["what"], v))
    return out


def guess_label(what: str, value: str, locale: str) -> str:
    return t("reply.guess_label", locale, value=terms.guess_value(what, value, locale), what=t(f"reply.what.{what}", locale))


def guess_choices(sheet: Sheet, current: str, locale: str) -> list[app_commands.Choice[str]]:
    want = fold(current or "")
    out = []
    for what, value in guess_options(sheet):
        label = guess_label(what, value, locale)
        if want and want not in fold(label) and want not in value:
            continue
        out.append(app_commands.Choice(name=label[:100], value=f"{what}:{value}"))
    return out[:MAX_CHOICES]
