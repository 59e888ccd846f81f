"""The end-of-game scoreboard chart (a PNG, drawn with matplotlib's Agg backend)."""

from __future__ import annotations

import functools
import io
from typing import Any

from bot.i18n import t, terms
from bot.render.fonts import CJK_FONT, FAMILY

COLOURS = {"lawful": "#3B82F6", "neutral": "#9CA3AF", "chaotic": "#DC2626"}


FACTIONS = ("lawful", "neutral", "chaotic")


@functools.cache
def _pyplot() -> Any:
    """matplotlib, imported the first time a chart is drawn: it costs the bot about a
    second and tens of megabytes at start-up, for one picture at the end of a game.
    Chinese is drawn with the bundled subset font, other text with matplotlib's own."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib import font_manager

    font_manager.fontManager.addfont(str(CJK_FONT))
    return plt


def chart_texts(locale: str | None) -> list[str]:
    """Every word the chart shows in ``locale`` (the bundled font must cover zh-CN's)."""
    return [t("ui.chart_title", locale), t("ui.chart_points", locale), *(terms.faction(f, locale) for f in FACTIONS)]


def scoreboard_png(scores: dict[str, int], winners: list[str], locale: str | None) -> bytes:
    """A bar chart of the final scores, winners outlined, labelled in ``locale``."""
    plt = _pyplot()
    title, points, *labels = chart_texts(locale)
    with plt.rc_context({"font.family": ["DejaVu Sans", FAMILY]}):
        fig, ax = plt.subplots(figsize=(4.8, 3.0), dpi=110)
        try:
            values = [scores.get(f, 0) for f in FACTIONS]
            bars = ax.bar(labels, values, color=[COLOURS[f] for f in FACTIONS])
            for bar, f, v in zip(bars, FACTIONS, values, strict=True):
                if f in winners:
                    bar.set_edgecolor("#F59E0B")
                    bar.set_linewidth(3)
                ax.annotate(str(v), (bar.get_x() + bar.get_width() / 2, v), ha="center", va="bottom")
            ax.margins(y=0.12)  # room above the tallest bar for its number
            ax.set_ylabel(points)
            ax.set_title(title)
            ax.spines[["top", "right"]].set_visible(False)
            fig.tight_layout()
            buf = io.BytesIO()
            fig.savefig(buf, format="png")
            return buf.getvalue()
        finally:
            plt.close(fig)
