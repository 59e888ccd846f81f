"""The fairness goal at every table size (docs/balance.md, "Uneven tables"): with the
default house rules, each faction's win rate, by the seats it was dealt, in the random
deal and the ``classic`` and ``balanced`` line-ups, against the band 30-37% (its 95%
Wilson interval inside 28-39%). Prints one markdown table (or ``--json``).

    python -m bench.uneven_goal [--sizes 6-15] [--lineups random,classic,balanced] [--games 10000] [--jobs 2] [--uneven-tables compensate|off]

A cell is a faction with the share of the table it was dealt (larger, equal or smaller
than a third: in the random deal each faction has a cell per share it was dealt), with
its rate and interval, marked ✗ when outside the band. Game i of
a size is seeded ``goal-<size>:<i>`` whatever the line-up. Same arguments, same table.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from typing import Any

from bot.ai.odds import wilson
from bot.ai.runner import play_many
from bot.sim.report import share_of
from engine import Settings, UnevenTablesRule
from engine.lineup import preset
from engine.values import FACTIONS

BAND = (0.30, 0.37)
INTERVAL_BAND = (0.28, 0.39)


def cells(players: int, lineup: str, games: int, jobs: int, uneven: str) -> dict[str, dict[str, Any]]:
    """The cells of one size and line-up: "faction (share)" -> games, wins, rate,
    interval, ok."""
    settings = Settings(lineup=preset(lineup, players), uneven_tables=UnevenTablesRule(uneven))
    results = play_many(games, players, f"goal-{players}", jobs=jobs, settings=settings)
    acc: dict[str, list[int]] = {}
    for r in results:
        seats = Counter(faction for faction, _ in r.roles)
        for f in FACTIONS:
            share = share_of(seats[f.value], players)
            key = f"{f.value} ({share})"
            row = acc.setdefault(key, [0, 0])
            row[0] += 1
            row[1] += f.value in r.winners
    out = {}
    for key, (dealt, won) in sorted(acc.items()):
        low, high = wilson(won, dealt)
        rate = won / dealt
        ok = BAND[0] <= rate <= BAND[1] and INTERVAL_BAND[0] <= low and high <= INTERVAL_BAND[1]
        out[key] = {"games": dealt, "wins": won, "rate": round(rate, 4), "interval": [round(low, 4), round(high, 4)], "ok": ok}
    return out


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--sizes", default="6-15")
    p.add_argument("--lineups", default="random,classic,balanced")
    p.add_argument("--games", type=int, default=10000)
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--uneven-tables", default="compensate", choices=[r.value for r in UnevenTablesRule])
    p.add_argument("--json", action="store_true")
    a = p.parse_args()
    lo, _, hi = a.sizes.partition("-")
    sizes = range(int(lo), int(hi or lo) + 1) if "," not in a.sizes else [int(x) for x in a.sizes.split(",")]
    report: list[dict[str, Any]] = []
    began = time.perf_counter()
    if not a.json:
        print("| players | line-up | cells (win rate, 95% interval; ✗ outside 30–37% or 28–39%) |\n|---:|---|---|")
    for n in sizes:
        for lineup in a.lineups.split(","):
            row = {"players": n, "lineup": lineup, "cells": cells(n, lineup, a.games, a.jobs, a.uneven_tables)}
            report.append(row)
            if not a.json:
                text = "; ".join(
                    f"{key} {c['rate']:.1%} ({c['interval'][0]:.1%}–{c['interval'][1]:.1%}){'' if c['ok'] else ' ✗'}" for key, c in row["cells"].items()
                )
                print(f"| {n} | {lineup} | {text} |", flush=True)
    failing = sum(not c["ok"] for row in report for c in row["cells"].values())
    if a.json:
        json.dump({"games": a.games, "uneven_tables": a.uneven_tables, "seconds": round(time.perf_counter() - began, 1), "failing": failing, "rows": report}, sys.stdout, indent=1)
        print()
    else:
        print(f"\n{failing} cells outside the band; {time.perf_counter() - began:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
