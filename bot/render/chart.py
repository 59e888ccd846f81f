"""The end-of-game chart (a PNG, drawn with matplotlib's Agg backend): each faction's
score round by round against the winning score, the winners marked, in the factions'
colours (bot.render.palette) and the game's language."""

from __future__ import annotations

import functools
import io
from typing import Any

from bot.i18n import t, terms
from bot.render.fonts import CJK_FONT, FAMILY
from bot.render.palette import FACTION_HEX, FACTIONS, NEUTRAL_HEX, WINNER_HEX


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


def chart_texts(locale: str | None, win_score: int = 15) -> list[str]:
    """Every word the chart shows in ``locale`` (the bundled font must cover the Chinese
    ones): title, axes, the winning line, the winner's mark, then the factions."""
    return [
        t("ui.chart_title", locale),
        t("ui.chart_points", locale),
        t("ui.chart_round", locale),
        t("ui.chart_win_line", locale, score=win_score),
        t("ui.chart_winner", locale),
        *(terms.faction(f, locale) for f in FACTIONS),
    ]


def scoreboard_png(
    scores: dict[str, int],
    winners: list[str],
    locale: str | None,
    *,
    history: list[dict[str, Any]] | None = None,
    win_score: int | None = None,
) -> bytes:
    """The chart of :func:`scoreboard_figure` as PNG bytes."""
    plt = _pyplot()
    with plt.rc_context({"font.family": ["DejaVu Sans", FAMILY]}):
        fig = scoreboard_figure(scores, winners, locale, history=history, win_score=win_score)
        try:
            buf = io.BytesIO()
            fig.savefig(buf, format="png")
            return buf.getvalue()
        finally:
            plt.close(fig)


def scoreboard_figure(
    scores: dict[str, int],
    winners: list[str],
    locale: str | None,
    *,
    history: list[dict[str, Any]] | None = None,
    win_score: int | None = None,
) -> Any:
    """Each faction's score after each round (``history``: ``{"round", "scores"}`` in
    order; the final ``scores`` alone when there is none), the winning score as a dashed
    line, the winners' last points starred and labelled; whole-number ticks. A matplotlib
    Figure: the caller closes it."""
    from matplotlib.ticker import MaxNLocator

    plt = _pyplot()
    title, points, round_label, win_label, winner_label, *labels = chart_texts(locale, win_score or 0)
    rounds = _rounds(scores, history)
    fig, ax = plt.subplots(figsize=(5.6, 3.4), dpi=110)
    xs = [r for r, _ in rounds]
    for faction, label in zip(FACTIONS, labels, strict=True):
        ys = [s.get(faction, 0) for _, s in rounds]
        ax.plot(xs, ys, marker="o", markersize=4, linewidth=2, color=FACTION_HEX[faction], label=label)
        if faction in winners:
            ax.plot([xs[-1]], [ys[-1]], marker="*", markersize=18, color=WINNER_HEX, markeredgecolor=FACTION_HEX[faction], zorder=5, gid=f"winner-{faction}")
            ax.annotate(f"{label} {ys[-1]} · {winner_label}", (xs[-1], ys[-1]), textcoords="offset points", xytext=(-6, 10), ha="right", color=FACTION_HEX[faction])
        else:
            ax.annotate(str(ys[-1]), (xs[-1], ys[-1]), textcoords="offset points", xytext=(6, -3), color=FACTION_HEX[faction])
    if win_score:
        ax.axhline(win_score, color=NEUTRAL_HEX, linestyle="--", linewidth=1, label=win_label)
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlim(min(xs) - 0.2, max(xs) + 0.6)
    ax.margins(y=0.15)
    ax.set_xlabel(round_label)
    ax.set_ylabel(points)
    ax.set_title(title)
    ax.legend(loc="best", fontsize="small", frameon=False)
    ax.spines[["top", "right"]].set_visible(False)
    fig.tight_layout()
    return fig


def _rounds(scores: dict[str, int], history: list[dict[str, Any]] | None) -> list[tuple[int, dict[str, int]]]:
    """(round, scores) points, starting from nothing at round 0; the final scores last."""
    points = [(int(h["round"]), {str(k): int(v) for k, v in h["scores"].items()}) for h in history or []]
    if not points or points[0][0] > 0:
        points.insert(0, (0, dict.fromkeys(FACTIONS, 0)))
    if points[-1][1] != scores:
        last = points[-1][0] if history else max(1, points[-1][0])
        points = [p for p in points if p[0] != last] + [(last, dict(scores))]
    return points
