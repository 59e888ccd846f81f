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
def pyplot() -> Any:
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
        t("ui.chart_survivors", locale),
    ]


def scoreboard_png(
    scores: dict[str, int],
    winners: list[str],
    locale: str | None,
    *,
    history: list[dict[str, Any]] | None = None,
    win_score: int | None = None,
    survivors: dict[str, int] | None = None,
) -> bytes:
    """The chart of :func:`scoreboard_figure` as PNG bytes."""
    plt = pyplot()
    with plt.rc_context({"font.family": ["DejaVu Sans", FAMILY]}):
        fig = scoreboard_figure(scores, winners, locale, history=history, win_score=win_score, survivors=survivors)
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
    survivors: dict[str, int] | None = None,
) -> Any:
    """Each faction's score after each round (``history``: ``{"round", "scores"}`` in
    order; the final ``scores`` alone when there is none), the winning score as a dashed
    line, the winners' last points starred and labelled; whole-number ticks, the score
    axis from 0. ``survivors``: each faction's survivor bonus at the end (+2 a living
    seat), drawn as a step of its own after the last round, dashed and labelled, not as
    part of that round. The end labels are moved apart where they would overlap. A
    matplotlib Figure: the caller closes it."""
    from matplotlib.ticker import MaxNLocator

    plt = pyplot()
    title, points, round_label, win_label, winner_label, *labels, survivors_label = chart_texts(locale, win_score or 0)
    rounds = _rounds(scores, history)
    bonus = {f: int(v) for f, v in (survivors or {}).items() if v}
    if bonus:  # the last round ends before the bonus: the bonus is the step after it
        last_round, last = rounds[-1]
        rounds[-1] = (last_round, {f: last.get(f, 0) - bonus.get(f, 0) for f in FACTIONS})
    fig, ax = plt.subplots(figsize=(6.4, 3.4), dpi=110)
    xs = [r for r, _ in rounds]
    end_x = xs[-1] + 1 if bonus else xs[-1]
    ends: list[tuple[float, str, str, bool]] = []
    for faction, label in zip(FACTIONS, labels, strict=True):
        ys = [s.get(faction, 0) for _, s in rounds]
        ax.plot(xs, ys, marker="o", markersize=4, linewidth=2, color=FACTION_HEX[faction], label=label)
        final = ys[-1]
        if bonus:
            final = scores.get(faction, 0)
            ax.plot([xs[-1], end_x], [ys[-1], final], linestyle=":", linewidth=2, marker="o", markersize=4, color=FACTION_HEX[faction], gid=f"survivors-{faction}")
        if faction in winners:
            ax.plot([end_x], [final], marker="*", markersize=18, color=WINNER_HEX, markeredgecolor=FACTION_HEX[faction], zorder=5, gid=f"winner-{faction}")
        text = f"{label} {final} · {winner_label}" if faction in winners else f"{label} {final}"
        ends.append((final, text, FACTION_HEX[faction], faction in winners))
    if win_score:
        ax.axhline(win_score, color=NEUTRAL_HEX, linestyle="--", linewidth=1, label=win_label)
    ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    if bonus:
        ticks = [x for x in MaxNLocator(integer=True).tick_values(xs[0], xs[-1]) if xs[0] <= x <= xs[-1]]
        ax.set_xticks(ticks, [str(int(x)) for x in ticks])
        ax.axvspan(xs[-1], end_x, color="#F3F4F6", zorder=0)
        # The step's name, written up its band: a tick label there would run into the last round's.
        # On the band's own colour, above the dotted steps, so that a step crossing it does not strike it through.
        ax.text(
            (xs[-1] + end_x) / 2, 0.03, survivors_label, transform=ax.get_xaxis_transform(), rotation=90, ha="center", va="bottom",
            fontsize="small", color="#6B7280", gid="survivors-label", zorder=4,
            bbox={"facecolor": "#F3F4F6", "edgecolor": "none", "pad": 1.5},
        )  # fmt: skip
    else:
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    top = max([win_score or 0, *(v for _, s in rounds for v in s.values()), *scores.values(), 1])
    ax.set_ylim(0, top * 1.12 + 1)
    ax.set_xlim(min(xs) - 0.2, end_x + 0.3)
    ax.set_xlabel(round_label)
    ax.set_ylabel(points)
    ax.set_title(title)
    ax.legend(loc="best", fontsize="small", frameon=False)
    ax.spines[["top", "right"]].set_visible(False)
    fig.tight_layout(rect=(0, 0, 0.72, 1))
    _end_labels(fig, ax, end_x, ends)
    return fig


def _end_labels(fig: Any, ax: Any, x: float, ends: list[tuple[float, str, str, bool]]) -> None:
    """Each faction's final score written right of the plot, at the height its line
    ends, moved up or down just enough that no two labels overlap (measured in pixels
    by the renderer)."""
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    texts = []
    for y, text, colour, won in sorted(ends):
        texts.append(
            ax.annotate(text, (x, y), xytext=(8, 0), textcoords="offset points", va="center", ha="left", color=colour, fontweight="bold" if won else "normal", annotation_clip=False, gid="end-label")
        )
    heights = [tx.get_window_extent(renderer).height for tx in texts]
    gap = 2.0
    placed: list[float] = []  # each label's centre in display pixels, bottom up
    for tx, h in zip(texts, heights, strict=True):
        centre = ax.transData.transform((x, tx.xy[1]))[1]
        if placed:
            floor = placed[-1] + (heights[len(placed) - 1] + h) / 2 + gap
            centre = max(centre, floor)
        placed.append(centre)
    shift = [p - ax.transData.transform((x, tx.xy[1]))[1] for tx, p in zip(texts, placed, strict=True)]
    dpi = fig.dpi
    for tx, dy in zip(texts, shift, strict=True):
        tx.xyann = (8, dy * 72 / dpi)


def survivor_bonus(roster: list[dict[str, Any]], per_seat: int) -> dict[str, int]:
    """Each faction's survivor points at the end, from the end's roster."""
    out: dict[str, int] = {}
    for p in roster:
        if p.get("alive"):
            out[str(p["faction"])] = out.get(str(p["faction"]), 0) + per_seat
    return out


def _rounds(scores: dict[str, int], history: list[dict[str, Any]] | None) -> list[tuple[int, dict[str, int]]]:
    """(round, scores) points, starting from nothing at round 0; the final scores last."""
    points = [(int(h["round"]), {str(k): int(v) for k, v in h["scores"].items()}) for h in history or []]
    if not points or points[0][0] > 0:
        points.insert(0, (0, dict.fromkeys(FACTIONS, 0)))
    if points[-1][1] != scores:
        last = points[-1][0] if history else max(1, points[-1][0])
        points = [p for p in points if p[0] != last] + [(last, dict(scores))]
    return points
