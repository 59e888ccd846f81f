"""The end-of-game scoreboard chart speaks the game's language: Chinese is drawn with the
bundled subset of Noto Sans CJK (bot/render/fonts), so no glyph falls back to a box."""

from __future__ import annotations

import warnings

import pytest
from fontTools.ttLib import TTFont

from bot.i18n import LOCALES
from bot.render.chart import chart_texts, scoreboard_png
from bot.render.fonts import CJK_FONT, FAMILY

PNG = b"\x89PNG\r\n\x1a\n"


def test_the_bundled_font_covers_every_chinese_word_of_the_chart():
    """Fails when a translation of the chart changes: rebuild the font with
    ``python -m bot.render.fonts.make_subset`` (see its docstring)."""
    font = TTFont(CJK_FONT)
    cmap = font.getBestCmap()
    missing = {ch for text in chart_texts("zh-CN") for ch in text if ord(ch) > 0x7F and ord(ch) not in cmap}
    assert not missing, f"rebuild {CJK_FONT.name}: it lacks {''.join(sorted(missing))}"
    assert font["name"].getDebugName(1) == FAMILY and "Adobe" in font["name"].getDebugName(0)
    assert (CJK_FONT.parent / "OFL.txt").read_text(encoding="utf-8").count("SIL OPEN FONT LICENSE Version 1.1") == 1


@pytest.mark.parametrize("locale", sorted(LOCALES))
def test_the_chart_is_drawn_in_each_language_with_no_missing_glyph(locale):
    with warnings.catch_warnings():
        warnings.filterwarnings("error", message=".*[Gg]lyph.*missing.*")
        png = scoreboard_png({"lawful": 6, "neutral": 20, "chaotic": 2}, ["neutral"], locale)
    assert png.startswith(PNG) and len(png) > 5000


def test_the_chart_labels_are_in_the_games_language():
    assert chart_texts("zh-CN")[2:] == ["守序", "中立", "混乱"]
    assert chart_texts("en-US")[2:] == ["Lawful", "Neutral", "Chaotic"]
