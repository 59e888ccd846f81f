"""Look up and format a message in a language.

Catalogues are ``bot/i18n/<locale>.toml`` (the game itself) and, for the features
around it, one file per topic in ``bot/i18n/<locale>/*.toml``; nested tables form
dotted keys (``[event] GrailWon = "..."`` is ``event.GrailWon``), and a key may be
defined in one file only. The engine's refusals (``error.*``, ``reason.*``, ``phase.*``)
are the ``refusals`` topic, worded by :mod:`bot.i18n.refusals`.

Plurals: where a language says "1 name" but "2 names", its catalogue has ``<key>_one``
beside ``<key>``, used when the ``count`` parameter is 1. Chinese needs none.
"""

from __future__ import annotations

import tomllib
from functools import cache
from importlib import resources
from importlib.resources.abc import Traversable
from typing import Any

# zh-TW (Traditional Chinese) is generated from zh-CN: bot/i18n/make_zh_tw.py.
LOCALES = ("en-US", "zh-CN", "zh-TW")
SINGULAR = "_one"  # suffix of a key's form for a count of 1 (see the module docstring)
DEFAULT_LOCALE = "en-US"
TRADITIONAL = ("zh-tw", "zh-hk", "zh-mo", "zh-hant")  # the locales that read Traditional Chinese


def normalize_locale(locale: str | None) -> str:
    """Map any Discord locale to one we speak: Traditional Chinese (Discord's zh-TW) to
    zh-TW, other Chinese to zh-CN, the rest to en-US."""
    low = str(locale or DEFAULT_LOCALE).lower()
    if low.startswith(TRADITIONAL):
        return "zh-TW"
    return "zh-CN" if low.startswith("zh") else DEFAULT_LOCALE


def _flatten(prefix: str, table: dict[str, Any], out: dict[str, str]) -> None:
    for k, v in table.items():
        key = f"{prefix}.{k}" if prefix else k
        if isinstance(v, dict):
            _flatten(key, v, out)
        else:
            out[key] = str(v)


def _files(locale: str, root: Traversable | None = None) -> list[Traversable]:
    root = root or resources.files("bot.i18n")
    topics = root / locale
    extra = sorted((f for f in topics.iterdir() if f.name.endswith(".toml")), key=lambda f: f.name) if topics.is_dir() else []
    return [root / f"{locale}.toml", *extra]


def load(locale: str, root: Traversable | None = None) -> dict[str, str]:
    """Every key of ``locale``'s catalogue files under ``root`` (the package's own by default)."""
    out: dict[str, str] = {}
    for file in _files(locale, root):
        part: dict[str, str] = {}
        _flatten("", tomllib.loads(file.read_text(encoding="utf-8")), part)
        twice = sorted(part.keys() & out.keys())
        if twice:
            raise ValueError(f"{locale}: {file.name} defines keys another catalogue file has: {', '.join(twice)}")
        out.update(part)
    return out


@cache
def catalogue(locale: str) -> dict[str, str]:
    return load(locale)


def keys(locale: str) -> set[str]:
    return set(catalogue(locale))


def has_key(key: str) -> bool:
    return all(key in catalogue(loc) for loc in LOCALES)


class _Params(dict[str, Any]):
    """Missing parameters show as ``{name}`` instead of raising: a typo never crashes a post."""

    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


# The parameters that carry a catalogue key (a phase's, e.g. "phase.dusk") rather than
# text. Only these are translated: a player who calls themselves "phase.day", or types
# it, sees what they wrote.
KEY_PARAMS = frozenset({"phase", "expected"})


def t(key: str, locale: str | None = None, **params: Any) -> str:
    """The text of ``key`` in ``locale``, formatted with ``params``. A ``KEY_PARAMS``
    parameter whose value is a catalogue key is translated first."""
    loc = normalize_locale(locale)
    cat = catalogue(loc)
    template = cat.get(key + SINGULAR) if params.get("count") == 1 else None
    template = template or cat.get(key)
    if template is None:
        template = catalogue(DEFAULT_LOCALE).get(key, key)
    plain = {k: v for k, v in params.items() if not (k in KEY_PARAMS and isinstance(v, str) and v in cat)}
    resolved = dict(plain)
    for k, v in params.items():
        if k not in plain:
            resolved[k] = cat[v].format_map(_Params(plain))
    return template.format_map(_Params(resolved))
