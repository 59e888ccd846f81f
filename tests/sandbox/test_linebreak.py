"""The demo's line breaking: Chinese wraps as a Chinese reader expects, English as before."""

from __future__ import annotations

import io
import re
import tomllib
from pathlib import Path

import pytest
from rich.cells import cell_len
from rich.console import Console
from rich.panel import Panel

from bot.i18n.catalog import catalogue
from bot.sandbox.linebreak import Prose, wrap

ROOT = Path(__file__).resolve().parents[2]
CLOSING = "。，、：；！？）」』”"
OPENING = "（「『“"
EMOJI = ("🪓", "💀", "🔎", "☀️", "🗳️", "🩸", "🤼", "📬")
WIDTHS = (8, 13, 20, 37, 76)


def chinese_texts() -> list[str]:
    """Every zh-CN text the bot has: its catalogue and the class sheets."""
    texts = [v for v in catalogue("zh-CN").values() if re.search(r"[\u4e00-\u9fff]", v)]

    def walk(node: object) -> None:
        if isinstance(node, dict):
            for key, value in node.items():
                if key == "zh-CN" and isinstance(value, str):
                    texts.append(value)
                walk(value)
        elif isinstance(node, list):
            for item in node:
                walk(item)

    for path in sorted((ROOT / "engine" / "data" / "classes").glob("*.toml")):
        walk(tomllib.loads(path.read_text(encoding="utf-8")))
    return texts


TEXTS = chinese_texts()


def test_the_corpus_is_the_bots_chinese() -> None:
    assert len(TEXTS) > 300 and any("🪓" in x for x in TEXTS) and any("擒抱" in x for x in TEXTS)


@pytest.mark.parametrize("width", WIDTHS)
def test_chinese_wraps_within_the_width_without_losing_anything_or_breaking_a_kinsoku_rule(width: int) -> None:
    for paragraph in (p for text in TEXTS for p in text.split("\n")):
        lines = wrap(paragraph, width)
        assert "".join(lines) == paragraph
        for n, line in enumerate(lines):
            shown = line.rstrip()  # spaces at a break stay on the line before, unseen
            assert cell_len(shown) <= width, (paragraph, lines)
            if n > 0:
                assert shown[:1] not in CLOSING, (paragraph, lines)
            if n < len(lines) - 1:
                assert shown[-1:] not in OPENING and not shown.endswith(EMOJI), (paragraph, lines)


def test_a_line_is_filled_before_it_breaks_between_two_chinese_characters() -> None:
    # rich moves the whole unspaced sentence to the next line and chops it anywhere there.
    assert wrap("Seed: 本局的秘密种子将在游戏结束时公布。", 20) == ["Seed: 本局的秘密种子", "将在游戏结束时公布。"]
    assert wrap("主动技能。对一名ID进行一次攻击", 10) == ["主动技能。", "对一名ID进", "行一次攻击"]


def test_punctuation_is_kept_off_the_wrong_end_of_a_line() -> None:
    # "，" would start the second line: "标" goes down with it.
    assert wrap("陷入被擒抱状态（不告知目标，但会告知你）", 26) == ["陷入被擒抱状态（不告知目", "标，但会告知你）"]
    # "（" would end the first line: it goes down with what it opens.
    assert wrap("截止：08:11（1分钟后）。", 13) == ["截止：08:11", "（1分钟后）。"]


def test_an_emoji_stays_with_the_text_after_it_and_latin_words_stay_whole() -> None:
    assert wrap("请保密。🪓 不屈（已用尽）", 12) == ["请保密。", "🪓 不屈（已", "用尽）"]
    assert wrap("🔎 Identification: #3 阿明 has the Combat trait", 20) == [
        "🔎 Identification: ",
        "#3 阿明 has the ",
        "Combat trait",
    ]
    assert wrap("请一并发送 /行动（/act skill）", 12) == ["请一并发送 ", "/行动（/act ", "skill）"]


def test_english_wraps_at_spaces_as_before_and_an_overlong_word_is_folded() -> None:
    assert wrap("When your attack hits, next night you may", 16) == ["When your attack ", "hits, next night ", "you may"]
    assert wrap("seed ecfce884f0edff30bd17", 10) == ["seed ", "ecfce884f0", "edff30bd17"]


def test_rich_renders_prose_with_its_styles_and_cjk_counted_as_two_cells() -> None:
    out = io.StringIO()
    console = Console(file=out, width=24, color_system=None, legacy_windows=False)
    console.print(Panel(Prose.from_markup("[bold]主动技能[/]。对一名ID进行一次不造成伤害的近战攻击；若命中"), expand=False))
    assert out.getvalue().splitlines() == [
        "╭──────────────────────╮",
        "│ 主动技能。对一名ID进 │",
        "│ 行一次不造成伤害的近 │",
        "│ 战攻击；若命中       │",
        "╰──────────────────────╯",
    ]
