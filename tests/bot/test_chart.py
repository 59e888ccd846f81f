"""The end-of-game chart tells the story in the game's language: each faction's score
round by round against the winning score, the winner marked, whole-number ticks, the
palette's colours; Chinese (Simplified and Traditional) drawn with the bundled subset of
Noto Sans CJK (bot/render/fonts), so no glyph falls back to a box."""

from __future__ import annotations

import warnings

import pytest
from fontTools.ttLib import TTFont

from bot.i18n import LOCALES
from bot.render.chart import chart_texts, pyplot, scoreboard_figure, scoreboard_png
from bot.render.fonts import CJK_FONT, FAMILY
from bot.render.palette import FACTION_HEX, FACTIONS

PNG = b"\x89PNG\r\n\x1a\n"
HISTORY = [
    {"round": 1, "scores": {"lawful": 2, "neutral": 1, "chaotic": 0}},
    {"round": 2, "scores": {"lawful": 5, "neutral": 4, "chaotic": 3}},
    {"round": 3, "scores": {"lawful": 7, "neutral": 12, "chaotic": 3}},
    {"round": 4, "scores": {"lawful": 8, "neutral": 17, "chaotic": 6}},
]
FINAL = HISTORY[-1]["scores"]


@pytest.mark.parametrize("locale", LOCALES)
def test_the_bundled_font_covers_every_chinese_label_of_the_chart(locale: str) -> None:
    """Fails when a translation of the chart changes: rebuild the font with
    ``python -m bot.render.fonts.make_subset`` (see its docstring)."""
    font = TTFont(CJK_FONT)
    cmap = font.getBestCmap()
    labels = chart_texts(locale, win_score=15)
    assert len(labels) == 9
    missing = {ch for text in labels for ch in text if ord(ch) > 0x7F and ord(ch) not in cmap}
    assert not missing, f"rebuild {CJK_FONT.name}: it lacks {''.join(sorted(missing))}"
    assert font["name"].getDebugName(1) == FAMILY and "Adobe" in font["name"].getDebugName(0)
    assert (CJK_FONT.parent / "OFL.txt").read_text(encoding="utf-8").count("SIL OPEN FONT LICENSE Version 1.1") == 1


@pytest.mark.parametrize("locale", LOCALES)
def test_each_label_is_drawn_with_no_missing_glyph(locale: str) -> None:
    with warnings.catch_warnings():
        warnings.filterwarnings("error", message=".*[Gg]lyph.*missing.*")
        png = scoreboard_png(FINAL, ["neutral"], locale, history=HISTORY, win_score=15)
    assert png.startswith(PNG) and len(png) > 5000


def test_the_chart_shows_each_round_the_winning_line_and_the_winner() -> None:
    plt = pyplot()
    fig = scoreboard_figure(FINAL, ["neutral"], "en-US", history=HISTORY, win_score=15)
    try:
        ax = fig.axes[0]
        lines = {line.get_label(): line for line in ax.get_lines()}
        for faction, label in zip(FACTIONS, ["Lawful", "Neutral", "Chaotic"], strict=True):
            line = lines[label]
            assert list(line.get_xdata()) == [0, 1, 2, 3, 4]  # from nothing, round by round
            assert list(line.get_ydata()) == [0, *(h["scores"][faction] for h in HISTORY)]
            assert line.get_color().lower() == FACTION_HEX[faction].lower()  # the palette's colours
        win = lines["winning score (15)"]
        assert set(win.get_ydata()) == {15} and win.get_linestyle() == "--"
        stars = [line for line in ax.get_lines() if line.get_gid() == "winner-neutral"]
        assert len(stars) == 1 and (stars[0].get_xdata()[0], stars[0].get_ydata()[0]) == (4, 17)
        assert not any(line.get_gid() == "winner-lawful" for line in ax.get_lines())
        assert any(a.get_text() == "Neutral 17 · winner" for a in ax.texts)
        fig.canvas.draw()
        for tick in [*ax.get_xticks(), *ax.get_yticks()]:
            assert float(tick).is_integer(), tick  # whole numbers: scores and rounds are counts
        assert ax.get_xlabel() == "round" and ax.get_ylabel() == "points"
    finally:
        plt.close(fig)


def test_the_chart_labels_are_in_the_games_language() -> None:
    assert chart_texts("zh-CN")[5:8] == ["守序", "中立", "混乱"]
    assert chart_texts("zh-TW")[5:8] == ["守序", "中立", "混亂"]
    assert chart_texts("en-US")[5:8] == ["Lawful", "Neutral", "Chaotic"]
    assert chart_texts("zh-TW", 15)[3] == "勝利分數（15）"


def test_the_simulator_and_the_embeds_use_the_same_palette() -> None:
    from bot.render.sheet import FACTION_COLOUR
    from bot.sim import plot

    assert {f: f"#{c:06X}" for f, c in FACTION_COLOUR.items()} == FACTION_HEX
    assert [(h.get_label(), h.get_facecolor()) for h in plot.faction_legend()] == [
        (f, pytest.approx((*tuple(int(FACTION_HEX[f][i:i + 2], 16) / 255 for i in (1, 3, 5)), 1.0))) for f in FACTIONS
    ]


def test_the_survivor_bonus_is_a_step_of_its_own_the_axis_starts_at_0_and_no_end_labels_overlap() -> None:
    """A game won by outnumbering: Chaotic's 11 after the last round and its +2 a
    survivor are drawn apart (the last round ends at 11, a dotted, labelled step then
    climbs to 24), the points axis starts at 0, and the end labels, close together,
    do not overlap (their boxes as the renderer lays them out)."""
    history = [
        {"round": 1, "scores": {"lawful": 2, "neutral": 0, "chaotic": 1}},
        {"round": 2, "scores": {"lawful": 4, "neutral": 3, "chaotic": 5}},
        {"round": 3, "scores": {"lawful": 8, "neutral": 9, "chaotic": 24}},
    ]
    final = history[-1]["scores"]
    survivors = {"lawful": 0, "neutral": 0, "chaotic": 13}
    plt = pyplot()
    for locale in LOCALES:
        fig = scoreboard_figure(final, ["chaotic"], locale, history=history, win_score=15, survivors=survivors)
        try:
            ax = fig.axes[0]
            lines = {line.get_label(): line for line in ax.get_lines()}
            chaotic = lines[chart_texts(locale)[7]]
            assert list(chaotic.get_ydata()) == [0, 1, 5, 11]  # the last round without the bonus
            step = next(line for line in ax.get_lines() if line.get_gid() == "survivors-chaotic")
            assert list(step.get_xdata()) == [3, 4] and list(step.get_ydata()) == [11, 24]
            named = [tx.get_text() for tx in ax.texts if tx.get_gid() == "survivors-label"]
            assert named == [chart_texts(locale)[8]]
            assert ax.get_ylim()[0] == 0
            renderer = fig.canvas.get_renderer()
            boxes = [tx.get_window_extent(renderer) for tx in ax.texts if tx.get_gid() == "end-label"]
            assert len(boxes) == 3
            for i, a in enumerate(boxes):
                for b in boxes[i + 1 :]:
                    assert not a.overlaps(b), (a, b)
        finally:
            plt.close(fig)


def test_end_labels_of_equal_scores_are_moved_apart() -> None:
    """Three factions ending on the same score: three labels, none over another (the
    check above could fail: without the spacing they would sit on one line)."""
    plt = pyplot()
    even = {"lawful": 6, "neutral": 6, "chaotic": 6}
    fig = scoreboard_figure(even, ["lawful", "neutral", "chaotic"], "en-US", history=[{"round": 1, "scores": even}], win_score=15)
    try:
        renderer = fig.canvas.get_renderer()
        boxes = [tx.get_window_extent(renderer) for tx in fig.axes[0].texts if tx.get_gid() == "end-label"]
        assert len(boxes) == 3 and not any(a.overlaps(b) for i, a in enumerate(boxes) for b in boxes[i + 1 :])
        assert fig.axes[0].get_ylim()[0] == 0
    finally:
        plt.close(fig)
