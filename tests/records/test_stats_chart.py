"""The /stats chart (win rate by class, form over the last games) is drawn in both
languages with no missing glyph: the bundled CJK subset holds every Chinese word it can
show, every class name included."""

from __future__ import annotations

import warnings
from datetime import UTC, datetime

import pytest
from fontTools.ttLib import TTFont

from bot.db.models import SeatRecord
from bot.features.stats.look import chart_png
from bot.features.stats.look_chart import stats_chart_texts
from bot.features.stats.stats import wilson
from bot.i18n import LOCALES
from bot.render.fonts import CJK_FONT
from engine.classes import catalogue
from tests.records.helpers import summarise

PNG = b"\x89PNG\r\n\x1a\n"


def _records() -> list[SeatRecord]:
    classes = sorted(catalogue())
    results = ["win", "loss", "shared", "loss", "win"]
    return [
        SeatRecord(
            game_id=100 - i, guild_id=1, user_id=7, name="A", ai=False, seat=1 + i % 6, class_id=classes[i % len(classes)],
            faction=("lawful", "neutral", "chaotic")[i % 3], result=results[i % 5], fate="survived" if i % 2 else "killed",
            kills=i % 3, teamkills=int(i % 7 == 0), steals=i % 2, grails=i % 4, rounds=3, faction_score=10,
            ended_at=datetime(2026, 1, 1, tzinfo=UTC),
        )
        for i in range(24)
    ]


def test_the_font_covers_every_chinese_word_of_the_stats_chart() -> None:
    cmap = TTFont(CJK_FONT).getBestCmap()
    texts = stats_chart_texts("zh-CN")
    assert "战士" in texts and len(texts) >= 8 + len(catalogue())
    missing = {ch for text in texts for ch in text if ord(ch) > 0x7F and ord(ch) not in cmap}
    assert not missing, f"rebuild {CJK_FONT.name} (bot/render/fonts/make_subset.py): it lacks {''.join(sorted(missing))}"


@pytest.mark.parametrize("locale", sorted(LOCALES))
def test_the_stats_chart_is_drawn_in_each_language_with_no_missing_glyph(locale: str) -> None:
    stats = summarise(7, 1, _records(), 12.5)
    assert len(stats.by_class) == len(catalogue()) and len(stats.form) == 20
    with warnings.catch_warnings():
        warnings.filterwarnings("error", message=".*[Gg]lyph.*missing.*")
        png = chart_png(stats, locale)
    assert png.startswith(PNG) and len(png) > 10000


def test_summary_figures() -> None:
    rows = _records()
    stats = summarise(7, None, rows, None)
    assert stats.games == 24 and stats.wins == sum(r.result != "loss" for r in rows)
    assert stats.survived == 12 and stats.kills == sum(r.kills for r in rows)
    assert stats.interval == wilson(stats.wins, 24)
    assert [g.game_id for g in stats.recent] == [100, 99, 98, 97, 96]
    assert stats.form[-1] == rows[0].result  # oldest first, newest last
    assert summarise(7, None, rows[:4], None).interval is None  # too few games for an interval


def test_wilson_interval() -> None:
    low, high = wilson(5, 10)
    assert low == pytest.approx(0.2366, abs=1e-4) and high == pytest.approx(0.7634, abs=1e-4)
    assert wilson(0, 5)[0] == 0.0 and wilson(5, 5)[1] == 1.0


@pytest.mark.parametrize("form", [["win"], ["loss", "win", "shared"]])
def test_the_form_axis_counts_whole_games_even_after_one(form: list[str]) -> None:
    """After one game the games axis read "0.96 … 1.04": its ticks are whole games."""
    from bot.features.stats.look_chart import stats_figure

    fig = stats_figure({"fighter": (1, 1)}, form, "en-US")
    fig.canvas.draw()
    ax = fig.axes[1]
    ticks = [x for x in ax.get_xticks() if ax.get_xlim()[0] <= x <= ax.get_xlim()[1]]
    assert ticks and all(float(x).is_integer() and x >= 1 for x in ticks), ticks
    assert 1 in ticks and len(form) in ticks
