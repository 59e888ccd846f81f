"""The ``/stats`` chart (a PNG): win rate by class, and form over the last games (each
game a mark: won, shared or lost, with the running win rate), in the reader's language.
Chinese is drawn with the bundled subset font, which must hold every word here
(``stats_chart_texts``; ``make_subset`` builds the font from it)."""

from __future__ import annotations

import io
from typing import Any

from bot.i18n import t, terms
from bot.render.chart import pyplot
from bot.render.fonts import FAMILY
from engine.classes import catalogue

RESULT_COLOURS = {"win": "#16A34A", "shared": "#F59E0B", "loss": "#DC2626"}
RESULTS = ("win", "shared", "loss")
# Latin text in matplotlib's own font, Chinese in the bundled subset.
FONT: dict[str, Any] = {"fontfamily": ["DejaVu Sans", FAMILY]}


def stats_chart_texts(locale: str | None) -> list[str]:
    """Every word the chart may show in ``locale``: titles, axes, the results and every
    class's name."""
    keys = ("stats.chart_classes", "stats.chart_form", "stats.chart_rate", "stats.chart_games", "stats.chart_running")
    return [
        *(t(k, locale) for k in keys),
        *(t(f"stats.result.{r}", locale) for r in RESULTS),
        *(terms.class_name(c, locale) for c in sorted(catalogue())),
    ]


def stats_png(by_class: dict[str, tuple[int, int]], form: list[str], locale: str | None) -> bytes:
    """The chart as a PNG: ``by_class`` maps a class id to (wins, games), ``form`` is the
    last games' results (win, shared, loss), oldest first. Drawn on a Figure of its own (no pyplot state, every font
    given where it is used), so the bot can draw it in a worker thread and keep
    answering while it does."""
    fig = stats_figure(by_class, form, locale)
    buf = io.BytesIO()
    fig.savefig(buf, format="png")
    return buf.getvalue()


def stats_figure(by_class: dict[str, tuple[int, int]], form: list[str], locale: str | None) -> Any:
    """The Figure :func:`stats_png` draws (no pyplot state: nothing to close)."""
    pyplot()  # registers the bundled CJK font once
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(8.0, 3.4), dpi=100)
    FigureCanvasAgg(fig)
    left, right = fig.subplots(1, 2, gridspec_kw={"width_ratios": [1.1, 1]})
    _by_class(left, by_class, locale)
    _form(right, form, locale)
    fig.subplots_adjust(left=0.14, right=0.98, bottom=0.15, top=0.9, wspace=0.3)
    return fig


def _by_class(ax: Any, by_class: dict[str, tuple[int, int]], locale: str | None) -> None:
    classes = list(by_class)
    rates = [100 * by_class[c][0] / by_class[c][1] if by_class[c][1] else 0.0 for c in classes]
    ys = list(range(len(classes)))
    bars = ax.barh(ys, rates, color="#3B82F6")
    ax.set_yticks(ys, [terms.class_name(c, locale) for c in classes], **FONT)
    for bar, c in zip(bars, classes, strict=True):
        wins, games = by_class[c]
        ax.annotate(f"{wins}/{games}", (bar.get_width(), bar.get_y() + bar.get_height() / 2), va="center", xytext=(3, 0), textcoords="offset points", fontsize=8)
    ax.set_xlim(0, 115)
    ax.invert_yaxis()
    ax.set_xlabel(t("stats.chart_rate", locale), **FONT)
    ax.set_title(t("stats.chart_classes", locale), **FONT)
    ax.spines[["top", "right"]].set_visible(False)


def _form(ax: Any, form: list[str], locale: str | None) -> None:
    from matplotlib.ticker import MaxNLocator

    xs = list(range(1, len(form) + 1))
    wins = 0
    running = []
    for i, r in enumerate(form, start=1):
        wins += r != "loss"
        running.append(100 * wins / i)
    ax.plot(xs, running, color="#6B7280", linewidth=1.5, label=t("stats.chart_running", locale))
    for r in RESULTS:
        pts = [(x, y) for x, y, res in zip(xs, running, form, strict=True) if res == r]
        if pts:
            ax.scatter([p[0] for p in pts], [p[1] for p in pts], color=RESULT_COLOURS[r], s=28, zorder=3, label=t(f"stats.result.{r}", locale))
    ax.set_ylim(-5, 105)
    # Games are counted: whole-number ticks, and room either side of a single game
    # (matplotlib's own margins around one point read "0.96 … 1.04").
    ax.xaxis.set_major_locator(MaxNLocator(integer=True, min_n_ticks=1))
    ax.set_xlim(0.5, max(len(form), 1) + 0.5)
    ax.set_xlabel(t("stats.chart_games", locale), **FONT)
    ax.set_ylabel(t("stats.chart_rate", locale), **FONT)
    ax.set_title(t("stats.chart_form", locale), **FONT)
    ax.legend(prop={"family": FONT["fontfamily"], "size": 7}, loc="lower left", frameon=False)
    ax.spines[["top", "right"]].set_visible(False)
