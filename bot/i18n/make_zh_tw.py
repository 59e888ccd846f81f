"""Build the Traditional Chinese texts (zh-TW, what Discord's Traditional Chinese
clients get) from the Simplified ones (zh-CN) with OpenCC, then put the game's own
terms right by hand (``OVERRIDES``). Writes:

* ``bot/i18n/zh-TW.toml`` and ``bot/i18n/zh-TW/<topic>.toml``: each zh-CN catalogue file
  converted line by line (keys, order and comments kept);
* ``engine/data/zh-TW.toml``: each Simplified text of the class data (the classes' names,
  descriptions and skills) with its Traditional twin.

``python -m bot.i18n.make_zh_tw`` after changing a zh-CN text; ``--check`` exits 1 when
the committed files are not what it would write (the tests run it). OpenCC is a
development dependency only: the bot reads the committed files.
"""

from __future__ import annotations

import argparse
import json
import sys
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from opencc import OpenCC

ROOT = Path(__file__).resolve().parents[2]
I18N = ROOT / "bot" / "i18n"
ENGINE_TABLE = ROOT / "engine" / "data" / "zh-TW.toml"
CONFIG = "s2twp"  # Simplified to Taiwan's characters and words (伺服器, 設定, 選單 as Discord says them)

# What OpenCC writes where this game means something else: its words as the forum's
# players use them, checked by hand (tests/bot/test_zh_tw.py lists the terms).
OVERRIDES = {
    "全域性": "全局",  # 全局技能: a skill once per game, the forum's word (not "global scope")
    "聖盃": "聖杯",  # the grail
    "物件": "對象",  # 攻擊對象: whom an attack is aimed at (not a programming object)
    "遠端": "遠程",  # 遠程攻擊: a ranged attack (not "remote")
    "型別": "類型",  # kinds of submission (not a programming type)
    "許可權": "權限",  # Discord's permissions, as its Traditional Chinese client says
    "身份組": "身分組",  # Discord's roles, likewise
    "引數": "參數",
    "釋出": "發布",  # to post (not a software release)
    "連線詞": "連接詞",
    # OpenCC's wrong characters (tests/bot/test_zh_tw.py scans the output for them):
    "輪迴顧": "輪回顧",  # 逐輪回顧: round by round looking back (not 輪迴, reincarnation)
    "輪迴放": "輪回放",  # 逐輪回放: the game replayed round by round (not 輪迴)
    "隻能": "只能",  # "only" (隻 counts animals)
    "隻有": "只有",
    "傷愈": "傷癒",  # a wound healed: 癒 in Taiwan's usage
    "療愈": "療癒",
    "治愈": "治癒",
    "痊愈": "痊癒",
    "頻道里": "頻道裡",  # in the channel: 裡, inside (里 is a village, a mile)
}
HEADER = "# Generated from {source} by `python -m bot.i18n.make_zh_tw` (OpenCC s2twp and the game's terms): do not edit.\n"


def converter() -> OpenCC:
    import opencc

    return opencc.OpenCC(CONFIG)


def traditional(text: str, cc: OpenCC | None = None) -> str:
    """``text`` in Traditional Chinese as this game writes it."""
    out: str = (cc or converter()).convert(text)  # OpenCC.convert has no return type
    for wrong, right in OVERRIDES.items():
        out = out.replace(wrong, right)
    return out


def catalogue_pairs() -> Iterator[tuple[Path, Path]]:
    """Each zh-CN catalogue file and its zh-TW twin."""
    yield I18N / "zh-CN.toml", I18N / "zh-TW.toml"
    for source in sorted((I18N / "zh-CN").glob("*.toml")):
        yield source, I18N / "zh-TW" / source.name


def engine_texts() -> list[str]:
    """Every Simplified text of the class data, in a stable order."""
    from engine.classes import catalogue

    texts: list[str] = []
    for spec in catalogue().values():
        texts += [spec.name["zh-CN"], spec.blurb["zh-CN"]]
        for skill in spec.skills:
            texts += [skill.name["zh-CN"], skill.text["zh-CN"]]
    return list(dict.fromkeys(texts))


def outputs() -> dict[Path, str]:
    """What each generated file should hold."""
    cc = converter()
    out: dict[Path, str] = {}
    for source, target in catalogue_pairs():
        text = source.read_text(encoding="utf-8")
        out[target] = HEADER.format(source=source.relative_to(ROOT).as_posix()) + traditional(text, cc)
    lines = [HEADER.format(source="the class data's zh-CN texts (engine/data/classes)")]
    lines.append("# Simplified text = its Traditional twin; a text the same in both is not listed.\n")
    for text in engine_texts():
        tw = traditional(text, cc)
        if tw != text:
            lines.append(f"{json.dumps(text, ensure_ascii=False)} = {json.dumps(tw, ensure_ascii=False)}\n")
    out[ENGINE_TABLE] = "".join(lines)
    return out


def stale() -> list[Path]:
    """The generated files that are missing or differ from what would be written, and
    zh-TW topic files with no zh-CN source."""
    want = outputs()
    odd = [p for p, text in want.items() if not p.exists() or p.read_text(encoding="utf-8") != text]
    odd += [p for p in sorted((I18N / "zh-TW").glob("*.toml")) if p not in want]
    return odd


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.i18n.make_zh_tw", description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="write nothing: exit 1 if a generated file is out of date")
    args = parser.parse_args(argv)
    if args.check:
        odd = stale()
        for path in odd:
            print(f"out of date: {path.relative_to(ROOT)} (run python -m bot.i18n.make_zh_tw)", file=sys.stderr)
        return 1 if odd else 0
    for path, text in outputs().items():
        tomllib.loads(text)  # what is written must read back
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        print(f"wrote {path.relative_to(ROOT)}")
    for path in sorted((I18N / "zh-TW").glob("*.toml")):
        if not (I18N / "zh-CN" / path.name).exists():
            path.unlink()
            print(f"removed {path.relative_to(ROOT)} (no zh-CN source)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
