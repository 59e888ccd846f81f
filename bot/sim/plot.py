"""Charts of a simulation report (matplotlib, Agg backend, no display needed).

One PNG with six panels: faction win rates with their 95% intervals and the balance
band; the distribution of game lengths; how games end; survival by role; kills and
grails by role; steals and teamkills by role.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bot.ai.odds import TARGET_WIN
from bot.render.palette import FACTION_HEX, FACTIONS
from bot.sim.report import TARGET_MEDIAN_ROUNDS


def faction_legend() -> list[Any]:
    """Legend entries naming each faction's colour (the roles' bars are drawn in them)."""
    from matplotlib.patches import Patch

    return [Patch(color=FACTION_HEX[f], label=f) for f in FACTIONS]


def plot(summary: dict[str, Any], path: str | Path) -> Path:
    """Draw ``summary`` (from :func:`bot.sim.report.summarise`) into the PNG ``path``."""
    # The Agg canvas, bound to this figure only: no pyplot, no global backend switch.
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(17, 10), dpi=72)
    FigureCanvasAgg(fig)
    (ax_win, ax_len, ax_end), (ax_surv, ax_kill, ax_steal) = fig.subplots(2, 3)
    fig.subplots_adjust(left=0.08, right=0.98, top=0.92, bottom=0.07, wspace=0.45, hspace=0.3)
    fig.suptitle(
        f"Wolf Howl Tavern — {summary['games']} simulated games, {summary['players']} players "
        f"(seed {summary['seed']!r})"
    )
    _wins(ax_win, summary)
    _lengths(ax_len, summary)
    ends = summary["end_reasons"]
    ax_end.bar(list(ends), list(ends.values()), color="#777777")
    for i, v in enumerate(ends.values()):
        ax_end.annotate(f"{v / summary['games']:.0%}", (i, v), textcoords="offset points", xytext=(-8, 4))
    ax_end.set_ylabel("games")
    ax_end.set_title(f"How games end ({summary['shared_wins']} shared wins)")
    roles = summary["roles"]
    labels = [f"{r['class_id']} ({r['faction'][0].upper()})" for r in roles]
    colours = [FACTION_HEX.get(r["faction"], "grey") for r in roles]
    ys = range(len(roles))
    ax_surv.barh(ys, [r["survival"] for r in roles], color=colours)
    ax_surv.set_yticks(list(ys), labels)
    ax_surv.invert_yaxis()
    ax_surv.set_xlim(0, 1)
    ax_surv.set_xlabel("share of seats alive at the end")
    ax_surv.set_title("Survival by role")
    ax_surv.legend(handles=faction_legend(), loc="lower right", title="faction")
    _pair_by_role(ax_kill, roles, labels, colours, ("kills", "kills"), ("grails", "grails banked", "#d4a72c"))
    ax_kill.set_title("Kills and grails by role")
    _pair_by_role(ax_steal, roles, labels, colours, ("steals", "steals"), ("teamkills", "teamkills", "#999999"))
    ax_steal.set_title("Steals and teamkills by role")
    out = Path(path)
    fig.savefig(out, format="png")
    return out


def _pair_by_role(
    ax: Any,
    roles: list[dict[str, Any]],
    labels: list[str],
    colours: list[str],
    first: tuple[str, str],
    second: tuple[str, str, str],
) -> None:
    """Two per-seat-per-game figures side by side for each role: ``first`` (field, label)
    in the roles' faction colours, ``second`` (field, label, colour) in one colour."""
    height = 0.4
    ys = range(len(roles))
    (field, label), (field2, label2, colour2) = first, second
    ax.barh([y - height / 2 for y in ys], [r[field] for r in roles], height, label=label, color=colours)
    ax.barh([y + height / 2 for y in ys], [r[field2] for r in roles], height, label=label2, color=colour2)
    ax.set_yticks(list(ys), labels)
    ax.invert_yaxis()
    ax.set_xlabel("per seat per game")
    ax.legend(loc="lower right")


def _wins(ax: Any, summary: dict[str, Any]) -> None:
    factions = list(summary["faction_win_rate"])
    rates = [summary["faction_win_rate"][f] for f in factions]
    lows = [r - summary["faction_win_interval"][f][0] for f, r in zip(factions, rates, strict=True)]
    highs = [summary["faction_win_interval"][f][1] - r for f, r in zip(factions, rates, strict=True)]
    ax.axhspan(*TARGET_WIN, color="#dddddd", label=f"target {TARGET_WIN[0]:.0%}–{TARGET_WIN[1]:.0%}")
    ax.bar(factions, rates, yerr=[lows, highs], capsize=6, color=[FACTION_HEX.get(f, "grey") for f in factions])
    for i, r in enumerate(rates):
        ax.annotate(f"{r:.1%}", (i, r), textcoords="offset points", xytext=(14, 4))
    ax.set_ylim(0, max(0.6, *(summary['faction_win_interval'][f][1] + 0.05 for f in factions)))
    ax.set_ylabel("win rate (95% Wilson interval)")
    ax.set_title("Faction win rates")
    ax.legend(loc="upper right")


def _lengths(ax: Any, summary: dict[str, Any]) -> None:
    hist = {int(k): v for k, v in summary["rounds"]["histogram"].items()}
    xs = sorted(hist)
    ax.bar(xs, [hist[x] for x in xs], color="#777777")
    r = summary["rounds"]
    ax.axvline(r["median"], color="black", linestyle="--", label=f"median {r['median']}")
    ax.axvline(r["p90"], color="black", linestyle=":", label=f"p90 {r['p90']}")
    ax.axvspan(TARGET_MEDIAN_ROUNDS[0], TARGET_MEDIAN_ROUNDS[1], color="#dddddd", alpha=0.5, zorder=0, label="median target")
    ax.set_xlabel("rounds")
    ax.set_ylabel("games")
    ax.set_title(f"Game length (mean {r['mean']:.2f})")
    ax.legend(loc="upper right")
