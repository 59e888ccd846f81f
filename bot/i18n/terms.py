"""The game's vocabulary in both languages, for everything that names the game's nouns.

The renderers (posts, DMs, replies), the rules documents (``bot/docs_gen``) and the
scenario tool all take their words from here, so they say the same ones. The Chinese
terms are the original rules' own (圣杯, 指认, 标准动作, 自由动作, 先攻, 受伤...).
Factions, traits and states are catalogue keys (``bot/i18n``); class and skill names
live in the class data (``engine/data/classes/*.toml``); skill kinds, costs, saves,
phases and audiences as the documents spell them out are tables here.
"""

from __future__ import annotations

from typing import Literal

from bot.i18n import catalog
from bot.i18n.catalog import catalogue, normalize_locale, t
from engine.classes import catalogue as class_catalogue
from engine.classes import class_spec

Lang = Literal["en", "zh"]

LOCALES: dict[Lang, Literal["en-US", "zh-CN"]] = {"en": "en-US", "zh": "zh-CN"}


def _from_catalogue(section: str) -> dict[str, dict[Lang, str]]:
    """One section of the bot's message catalogue (``bot/i18n``) as a term table, so the
    rules documents name factions, traits and states exactly as the bot does."""
    found = [key.split(".", 1)[1] for key in catalogue("en-US") if key.startswith(f"{section}.")]
    return {k: {lang: t(f"{section}.{k}", loc) for lang, loc in LOCALES.items()} for k in found}


FACTIONS = _from_catalogue("faction")
TRAITS = _from_catalogue("trait")
STATES = _from_catalogue("state")

# Skill kinds (技能种类) as SkillSpec.kinds names them.
KINDS: dict[str, dict[Lang, str]] = {
    "active": {"en": "active", "zh": "主动技能"},
    "passive": {"en": "passive", "zh": "被动技能"},
    "toggle": {"en": "toggle", "zh": "抉择技能"},
    "grail": {"en": "grail", "zh": "圣杯技能"},
    "once": {"en": "once per game", "zh": "全局技能"},
}

COSTS: dict[str, dict[Lang, str]] = {
    "standard": {"en": "a standard action", "zh": "一个标准动作"},
    "free": {"en": "a free action", "zh": "一个自由动作"},
    "none": {"en": "no action", "zh": "不消耗动作"},
}

SAVES: dict[str, dict[Lang, str]] = {
    "will": {"en": "Will", "zh": "意志"},
    "reflex": {"en": "Reflex", "zh": "反射"},
    "fortitude": {"en": "Fortitude", "zh": "强韧"},
}

PHASES: dict[str, dict[Lang, str]] = {
    "day": {"en": "Day (grail allocation)", "zh": "白天（分配圣杯）"},
    "dusk": {"en": "Dusk (identification and orders)", "zh": "黄昏（指认与行动）"},
    "night": {"en": "Night (initiative and resolution)", "zh": "夜晚（先攻与结算）"},
    "morning": {"en": "Morning (vote and announcement)", "zh": "清晨（公决投票与公告）"},
    "over": {"en": "the game is over", "zh": "游戏结束"},
}

AUDIENCES: dict[str, dict[Lang, str]] = {
    "public": {"en": "public", "zh": "公开"},
    "private": {"en": "private", "zh": "私信"},
    "audit": {"en": "audit", "zh": "审计"},
}


def term(table: dict[str, dict[Lang, str]], key: str, lang: Lang) -> str:
    """Look ``key`` up in ``table``; an unknown key is shown as itself rather than failing."""
    entry = table.get(key)
    return entry[lang] if entry else key


def lang_of(locale: str) -> Lang:
    """'zh', 'zh-CN', 'zh_CN' -> 'zh'; anything else -> 'en'."""
    return "zh" if locale.lower().startswith("zh") else "en"


def faction(value: str, locale: str | None) -> str:
    return t(f"faction.{value}", locale)


def trait(value: str, locale: str | None) -> str:
    return t(f"trait.{value}", locale)


def state(value: str, locale: str | None) -> str:
    return t(f"state.{value}", locale)


def class_name(class_id: str, locale: str | None) -> str:
    spec = class_catalogue().get(class_id)
    return spec.name[normalize_locale(locale)] if spec else class_id  # type: ignore[index]


def skill_name(class_id: str, skill_id: str, locale: str | None) -> str:
    spec = class_spec(class_id).skill(skill_id)
    return spec.name[normalize_locale(locale)] if spec else skill_id  # type: ignore[index]


def guess_value(what: str, value: str, locale: str | None) -> str:
    """The thing a guess names, in words: "Holy", "a Cleric", "Lawful"."""
    if what == "trait":
        return trait(value, locale)
    if what == "faction":
        return faction(value, locale)
    return class_name(value, locale)


def typed_words(what: str, value: str) -> tuple[str, ...]:
    """What a guess names (a trait, a faction: ``what``, ``value``) in the words of every
    catalogue, each a way a player may type it (``engine.parse_guess`` reads them)."""
    return tuple(guess_value(what, value, locale) for locale in catalog.LOCALES)


def release_words() -> tuple[str, ...]:
    """Letting go of a grapple in the words of every catalogue, as a skill is named and
    as the orders' menu labels it: each a way a player may type it (``engine.parse_skill``)."""
    return tuple(t(key, locale) for key in ("skill.release", "reply.skill.release") for locale in catalog.LOCALES)
