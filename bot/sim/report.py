"""Statistics over simulated games: faction win rates with 95% Wilson intervals, game
length, the seat-count effect (a faction's win rate by whether it was dealt more, as
many or fewer seats than a third of the table), and per-class and per-role survival,
kills, steals and grails.

:func:`summarise` turns the games into one JSON-safe dict (the ``--json`` output and the
input of :mod:`bot.sim.plot`); :func:`render` prints it as tables. Everything but the
timing is a function of the games alone, so the same seed gives the same report.
"""

from __future__ import annotations

import math
import statistics
from collections import Counter
from collections.abc import Sequence
from typing import Any

from rich.console import Console
from rich.table import Table

from bot.ai.knowledge import FACTIONS, ROLES
from bot.ai.odds import TARGET_WIN, wilson
from bot.ai.runner import GameResult
from engine.fair_deal import share as share_of  # (a faction's share of the table: the deal's own)

# The balance target (docs/balance.md): the median length (the win rate's is
# bot.ai.odds.TARGET_WIN).
TARGET_MEDIAN_ROUNDS = (5, 12)
# The band every class must sit in (docs/balance.md): the share of its seats alive at the
# end, and the points a seat scores for its faction in a game (3 a kill of another
# faction, 2 a steal, 1 a grail banked) relative to the mean seat's.
TARGET_SURVIVAL = (1 / 3, 2 / 3)
TARGET_POINTS = (0.5, 1.5)
KILL_POINTS, STEAL_POINTS, GRAIL_POINTS = 3, 2, 1


def percentile(values: Sequence[float], q: float) -> float:
    """Nearest-rank percentile (``q`` in 0..1) of a non-empty sequence."""
    if not values:
        raise ValueError("percentile of no values")
    ordered = sorted(values)
    rank = max(1, math.ceil(q * len(ordered)))
    return ordered[rank - 1]


def summarise(
    results: Sequence[GameResult],
    *,
    players: int,
    seed: str,
    seconds: float,
    jobs: int = 1,
) -> dict[str, Any]:
    """The report of a run, JSON-safe. A shared win counts as a win for each sharer."""
    n = len(results)
    if n == 0:
        raise ValueError("no games to summarise")
    wins = Counter(w for r in results for w in r.winners)
    rounds = [r.rounds for r in results]
    rate = {f: wins[f] / n for f in FACTIONS}
    interval = {f: [round(x, 6) for x in wilson(wins[f], n)] for f in FACTIONS}
    classes = _classes(results)
    return {
        "games": n,
        "players": players,
        "seed": seed,
        "jobs": jobs,
        "seconds": round(seconds, 3),
        "games_per_second": round(n / seconds, 2) if seconds > 0 else None,
        "faction_win_rate": {f: round(rate[f], 6) for f in FACTIONS},
        "faction_win_interval": interval,
        "faction_wins": {f: wins[f] for f in FACTIONS},
        "shared_wins": sum(1 for r in results if len(r.winners) > 1),
        "rounds": {
            "median": statistics.median(rounds),
            "mean": round(statistics.fmean(rounds), 4),
            "p90": percentile(rounds, 0.9),
            "min": min(rounds),
            "max": max(rounds),
            "histogram": {str(k): v for k, v in sorted(Counter(rounds).items())},
        },
        "end_reasons": dict(sorted(Counter(r.end_reason for r in results).items())),
        "kills_per_game": round(sum(sum(r.kills) for r in results) / n, 4),
        "teamkills_per_game": round(sum(sum(r.teamkills) for r in results) / n, 4),
        "steals_per_game": round(sum(sum(r.steals) for r in results) / n, 4),
        "grails_per_game": round(sum(sum(r.grails) for r in results) / n, 4),
        "survivors_per_game": round(sum(sum(r.survived) for r in results) / n, 4),
        "seat_share": seat_share(results),
        "class_survival": {row["class_id"]: row["survival"] for row in classes},
        "points_per_seat": round(_mean_points(classes), 6),
        "classes": classes,
        "roles": _roles(results),
        "invalid_submissions": sum(r.dropped for r in results),
    }


SHARES = ("larger", "equal", "smaller")


def seat_share(results: Sequence[GameResult]) -> dict[str, Any]:
    """The seat-count effect: for each share (larger, equal, smaller), the games in which
    a faction was dealt that share, how many it won, its rate with the 95% Wilson
    interval, pooled over the factions and per faction. A shared win counts for each
    sharer. A share no faction was dealt is left out (at 9 only "equal" is there)."""
    acc: dict[tuple[str, str], list[int]] = {}
    for r in results:
        players = len(r.roles)
        counts = Counter(faction for faction, _ in r.roles)
        for faction in FACTIONS:
            share = share_of(counts[faction], players)
            for key in ((share, "all"), (share, faction)):
                a = acc.setdefault(key, [0, 0])
                a[0] += 1
                a[1] += faction in r.winners

    def row(games: int, won: int) -> dict[str, Any]:
        return {"games": games, "wins": won, "rate": round(won / games, 6), "interval": [round(x, 6) for x in wilson(won, games)]}

    return {
        share: {
            "all": row(*acc[(share, "all")]),
            "factions": {f: row(*acc[(share, f)]) for f in FACTIONS if (share, f) in acc},
        }
        for share in SHARES
        if (share, "all") in acc
    }


def _roles(results: Sequence[GameResult]) -> list[dict[str, Any]]:
    """Per role (faction, class): how often dealt, survival, and per-seat averages."""
    rows = _tally(results, lambda role: role)
    return [{"faction": f, "class_id": c, **row} for (f, c), row in rows.items()]


def _classes(results: Sequence[GameResult]) -> list[dict[str, Any]]:
    """Per class, whatever the faction: how often dealt, survival, per-seat averages."""
    rows = _tally(results, lambda role: role[1])
    return [{"class_id": c, **row} for c, row in sorted(rows.items())]


def _tally(results: Sequence[GameResult], key: Any) -> dict[Any, dict[str, Any]]:
    """Seats dealt, seats alive at the end, and per-seat kills, teamkills, grails and
    steals, grouped by ``key(role)``, in the order of ``ROLES``; groups never dealt are
    left out."""
    acc: dict[Any, list[int]] = {}
    for role in ROLES:
        acc.setdefault(key(role), [0, 0, 0, 0, 0, 0])
    for r in results:
        for i, role in enumerate(r.roles):
            a = acc[key(role)]
            a[0] += 1
            a[1] += r.survived[i]
            a[2] += r.kills[i]
            a[3] += r.teamkills[i]
            a[4] += r.grails[i]
            a[5] += r.steals[i]
    return {
        group: {
            "seats": seats,
            "survived": alive,
            "survival": round(alive / seats, 6),
            "kills": round(kills / seats, 6),
            "teamkills": round(team / seats, 6),
            "grails": round(grails / seats, 6),
            "steals": round(steals / seats, 6),
            "points": round((KILL_POINTS * kills + STEAL_POINTS * steals + GRAIL_POINTS * grails) / seats, 6),
        }
        for group, (seats, alive, kills, team, grails, steals) in acc.items()
        if seats
    }


def _mean_points(classes: list[dict[str, Any]]) -> float:
    seats = sum(row["seats"] for row in classes)
    return sum(row["points"] * row["seats"] for row in classes) / seats if seats else 0.0


def out_of_band(summary: dict[str, Any]) -> list[str]:
    """The classes whose survival or points (relative to the mean seat's) fall outside
    the band, each with the figure that does ("bard points 0.49"); empty when all fit."""
    slo, shi = TARGET_SURVIVAL
    plo, phi = TARGET_POINTS
    mean = summary["points_per_seat"]
    out = []
    for row in summary["classes"]:
        if not slo <= row["survival"] <= shi:
            out.append(f"{row['class_id']} survival {row['survival']:.1%}")
        share = row["points"] / mean if mean else 0.0
        if not plo <= share <= phi:
            out.append(f"{row['class_id']} points {share:.2f}")
    return out


def on_target(summary: dict[str, Any]) -> bool:
    """True when every faction's win rate and the median length are within the target."""
    lo, hi = TARGET_WIN
    rlo, rhi = TARGET_MEDIAN_ROUNDS
    rates = summary["faction_win_rate"].values()
    return all(lo <= r <= hi for r in rates) and rlo <= summary["rounds"]["median"] <= rhi


def render(summary: dict[str, Any], console: Console | None = None) -> None:
    """Print the report as tables."""
    console = console or Console()
    n = summary["games"]
    speed = summary.get("games_per_second")
    console.print(
        f"[bold]{n} games[/] at {summary['players']} players, seed {summary['seed']!r}"
        + (f" — {speed:.1f} games/s on {summary['jobs']} process(es)" if speed else "")
    )
    if summary.get("house_rules"):
        console.print("house rules: " + ", ".join(f"{k} {v}" for k, v in summary["house_rules"].items()))
    if summary.get("lineup"):
        lineup = summary["lineup"]
        console.print(f"line-up: {lineup['setting']}" + (f" ({lineup['classes']})" if lineup["classes"] and lineup["classes"] != lineup["setting"] else ""))
    wins = Table(title="Faction wins", caption="a shared win counts for each sharer")
    for col in ("faction", "wins", "rate", "95% interval"):
        wins.add_column(col, justify="right" if col != "faction" else "left")
    for f in FACTIONS:
        lo, hi = summary["faction_win_interval"][f]
        wins.add_row(
            f, str(summary["faction_wins"][f]), f"{summary['faction_win_rate'][f]:.1%}", f"{lo:.1%} – {hi:.1%}"
        )
    console.print(wins)
    r = summary["rounds"]
    console.print(
        f"Rounds: median {r['median']}, mean {r['mean']:.2f}, p90 {r['p90']} (min {r['min']}, max {r['max']}); "
        f"ends: " + ", ".join(f"{k} {v}" for k, v in summary["end_reasons"].items())
    )
    console.print(
        f"Per game: kills {summary['kills_per_game']:.2f} (teamkills {summary['teamkills_per_game']:.2f}), "
        f"steals {summary['steals_per_game']:.2f}, grails banked {summary['grails_per_game']:.2f}, "
        f"survivors {summary['survivors_per_game']:.2f}; shared wins {summary['shared_wins']}; "
        f"refused submissions {summary['invalid_submissions']}"
    )
    console.print(_share_table(summary["seat_share"]))
    console.print(_seat_table("Per class (per seat dealt, every faction)", summary["classes"], ("class",)))
    slo, shi = TARGET_SURVIVAL
    plo, phi = TARGET_POINTS
    outside = out_of_band(summary)
    console.print(
        f"Class band: survival {slo:.0%}–{shi:.0%}, points {plo}–{phi} × the mean seat's "
        f"({summary['points_per_seat']:.2f}): " + ("; ".join(outside) + " outside" if outside else "every class within")
    )
    console.print(_seat_table("Per role (per seat dealt)", summary["roles"], ("faction", "class")))


def _share_table(shares: dict[str, Any]) -> Table:
    """The seat-count effect: a row per share dealt, pooled and per faction."""
    table = Table(
        title="Win rate by the seats a faction holds",
        caption="larger / equal / smaller than a third of the table; a faction's games at that share",
    )
    for col in ("seats", "faction", "games", "wins", "rate", "95% interval"):
        table.add_column(col, justify="left" if col in ("seats", "faction") else "right")
    for share, found in shares.items():
        for faction, cell in (("every faction", found["all"]), *found["factions"].items()):
            lo, hi = cell["interval"]
            table.add_row(share, faction, str(cell["games"]), str(cell["wins"]), f"{cell['rate']:.1%}", f"{lo:.1%} – {hi:.1%}")
    return table


def _seat_table(title: str, rows: list[dict[str, Any]], groups: tuple[str, ...]) -> Table:
    """One row per group (class, or faction and class) of per-seat figures."""
    table = Table(title=title)
    for col in (*groups, "dealt", "survival", "kills", "teamkills", "steals", "grails", "points"):
        table.add_column(col, justify="left" if col in groups else "right")
    for row in rows:
        table.add_row(
            *(row["class_id" if g == "class" else g] for g in groups),
            str(row["seats"]),
            f"{row['survival']:.1%}",
            f"{row['kills']:.2f}",
            f"{row['teamkills']:.2f}",
            f"{row['steals']:.2f}",
            f"{row['grails']:.2f}",
            f"{row['points']:.2f}",
        )
    return table
