"""The character sheet: class, faction, numbers, identification rule and skills, as one
embed that reads well on a phone (short fields, no tables)."""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot.i18n import normalize_locale, t, terms
from bot.render import words
from bot.render.palette import FACTION_COLOUR
from engine.classes import class_spec
from engine.view import Sheet


def identify_slot(count: int, what: str, values: Sequence[str], locale: str | None) -> str:
    """One identification slot: "1 name for the Combat or Agility trait", "1个ID指认“战斗”或“敏捷”特质"."""
    if values:
        named = [t("sheet.identify_value", locale, value=terms.guess_value(what, v, locale)) for v in values]
        alternatives = words.listing(named[:-1], locale) + t("sheet.identify_or", locale) + named[-1] if len(named) > 1 else named[0]
        thing = t(f"sheet.identify_values_{what}", locale, values=alternatives)
    else:
        thing = t("sheet.any_value", locale, what=t(f"what.{what}", locale))
    return t("sheet.identify_slot", locale, count=count, what=thing)


def identify_rule(sheet: Sheet, locale: str | None) -> str:
    return "\n".join(identify_slot(s["count"], s["what"], s["values"], locale) for s in sheet["identify"])


def skill_heading(name: str, kinds: Sequence[str], cost: str, locale: str | None) -> str:
    """A skill's field name: "Fireball · active, once per game · standard action"; a
    skill that is not ordered (passive, toggle) costs "—"."""
    shown = words.listing((t(f"kind.{k}", locale) for k in kinds), locale)
    return f"{name} · {shown} · {t(f'cost.{cost}', locale) if 'active' in kinds else '—'}"[:256]


def sheet_embed(sheet: Sheet, locale: str | None, *, states: bool = True) -> discord.Embed:
    """``sheet`` is :func:`engine.view.sheet`'s dict."""
    loc = normalize_locale(locale)
    spec = class_spec(sheet["class_id"])
    embed = discord.Embed(
        title=t(
            "sheet.title",
            loc,
            name=sheet["name"],
            class_name=terms.class_name(sheet["class_id"], loc),
            faction=terms.faction(sheet["faction"], loc),
        ),
        description=spec.blurb[loc],  # type: ignore[index]
        colour=FACTION_COLOUR[sheet["faction"]],
    )
    status = [t("sheet.stats", loc, **sheet), t("sheet.saves", loc, **sheet)]
    if not sheet["alive"]:
        status.append(t("sheet.dead", loc))
    elif sheet["wounded"]:
        status.append(t("sheet.wounded", loc))
    if sheet["holds_grail"]:
        status.append(t("sheet.grail", loc))
    for key, value in sheet["memory"].items():
        status.append(t(f"memory.{key}", loc, value=value))
    embed.add_field(name=t("sheet.traits", loc, traits=words.listing((terms.trait(x, loc) for x in sheet["traits"]), loc)), value="\n".join(status), inline=False)
    embed.add_field(name=t("sheet.identify", loc), value=identify_rule(sheet, loc), inline=False)
    for s in sheet["skills"]:
        skill = spec.skill(s["id"])
        assert skill is not None
        name = skill.name[loc] + (t("sheet.used", loc) if s["used"] else "")  # type: ignore[index]
        embed.add_field(name=skill_heading(name, s["kinds"], s["cost"], loc), value=skill.text[loc][:1024], inline=False)  # type: ignore[index]
    if states and sheet["known_states"]:
        embed.add_field(name=t("sheet.states", loc), value=words.listing((terms.state(s, loc) for s in sheet["known_states"]), loc), inline=False)
    return embed
