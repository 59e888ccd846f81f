"""Traditional Chinese (zh-TW) twins of the class data's Simplified (zh-CN) texts (names,
descriptions, skills: the line-up parser reads a class's name in any script), read from
``engine/data/zh-TW.toml``. That file is generated with OpenCC and the game's terms
checked by hand (``python -m bot.i18n.make_zh_tw``); a text not listed reads the same in
both scripts. The engine itself converts nothing."""

from __future__ import annotations

import tomllib
from functools import cache
from importlib import resources


@cache
def _table() -> dict[str, str]:
    text = (resources.files("engine") / "data" / "zh-TW.toml").read_text(encoding="utf-8")
    return {str(k): str(v) for k, v in tomllib.loads(text).items()}


def traditional(text: str) -> str:
    """``text`` (Simplified) as Traditional Chinese readers get it."""
    return _table().get(text, text)
