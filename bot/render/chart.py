"""The end-of-game scoreboard chart (a PNG, drawn with matplotlib's Agg backend)."""

from __future__ import annotations

import functools
import io
from typing import Any

from bot.render import words

COLOURS = {"lawful": "#3B82F6", "neutral": "#9CA3AF", "chaotic": "#DC2626"}


@functools.cache
def _pyplot() -> Any:
    """matplotlib, imported the first time a chart is drawn: it costs the bot about a
    second and tens of megabytes at start-up, for one picture at the end of a game."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def scoreboard_png(scores: dict[str, int], winners: list[str], locale: str | None) -> bytes:
    """A bar chart of the final scores, winners outlined."""
    plt = _pyplot()
    factions = ["lawful", "neutral", "chaotic"]
    fig, ax = plt.subplots(figsize=(4.8, 3.0), dpi=110)
    try:
        # CJK labels need a font that has them; fall back to the faction's English id.
        labels = [words.faction(f, "en-US") for f in factions]
        values = [scores.get(f, 0) for f in factions]
        bars = ax.bar(labels, values, color=[COLOURS[f] for f in factions])
        for bar, f, v in zip(bars, factions, values, strict=True):
            if f in winners:
                bar.set_edgecolor("#F59E0B")
                bar.set_linewidth(3)
            ax.annotate(str(v), (bar.get_x() + bar.get_width() / 2, v), ha="center", va="bottom")
        ax.set_ylabel("points")
        ax.set_title("Wolf Howl Tavern")
        ax.spines[["top", "right"]].set_visible(False)
        fig.tight_layout()
        buf = io.BytesIO()
        fig.savefig(buf, format="png")
        return buf.getvalue()
    finally:
        plt.close(fig)
