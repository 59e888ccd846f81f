"""The rules' refusals in words. The engine raises a :class:`engine.RuleViolation` with a
message key and parameters (``engine.errors``); this words it in a language from the
``refusals`` topic of the catalogues, so the bot, the tools and the tests read it alike.

A parameter of ``KEY_PARAMS`` whose value is itself one of these keys (a reason, a phase,
a faction) is worded first, in the same language and with the other parameters; any
other value (a skill name someone typed) is shown as it is, even if it looks like a key.
A skill id and a class id are shown by their names.
"""

from __future__ import annotations

from typing import Any

from bot.i18n.catalog import catalogue, normalize_locale
from engine.classes import catalogue as class_catalogue
from engine.classes import skill_names
from engine.errors import RuleViolation

# The parameters that carry a message key rather than text, and the sections of the
# catalogues those keys belong to (the refusals topic, and the factions).
KEY_PARAMS = frozenset({"reason", "what", "expected", "phase", "skill", "faction"})
SECTIONS = ("error.", "reason.", "phase.", "what.", "skill.", "faction.")
FALLBACK = "error.rule"  # the text of a key the catalogues do not have


def _is_key(value: object, texts: dict[str, str]) -> bool:
    return isinstance(value, str) and value.startswith(SECTIONS) and value in texts


def _render(texts: dict[str, str], key: str, params: dict[str, Any]) -> str:
    template = texts[key] if _is_key(key, texts) else texts[FALLBACK]
    resolved = {
        k: _render(texts, v, {n: w for n, w in params.items() if n != k}) if k in KEY_PARAMS and _is_key(v, texts) else v
        for k, v in params.items()
    }
    try:
        return template.format(**resolved)
    except (KeyError, IndexError):
        return template


def refusal_text(error: RuleViolation, locale: str | None = "en-US") -> str:
    """``error`` worded for a reader of ``locale``."""
    loc = normalize_locale(locale)
    params = dict(error.params)
    skill = params.get("skill")
    if isinstance(skill, str):
        names = skill_names().get(skill)
        if names:
            params["skill"] = names[loc]  # type: ignore[index]
        elif f"skill.{skill}" in catalogue(loc):  # release: an order, not a class's skill
            params["skill"] = f"skill.{skill}"
    class_id = params.get("class_name")
    if isinstance(class_id, str):
        spec = class_catalogue().get(class_id)
        if spec is not None:
            params["class_name"] = spec.name[loc]  # type: ignore[index]
    return _render(catalogue(loc), error.key, params)
