"""Search, for each uneven table size, the compensation that makes a faction's chances
the same whatever the seats it was dealt (house rule ``uneven_tables``, engine.uneven),
and print the figures and the time the search took.

    python -m bench.compensation_search [--sizes 7,8,10,11,13,14] [--first 100] [--jobs 2] [--json]

The candidates (162): every :class:`engine.uneven.Compensation` with a head start of 0-8
points, a short faction's kills worth 0-2 more, its survivors 0-2 more, its grails 0-1
more (per seat short). The search is **sequential halving**: every candidate plays
``--first`` games of the random deal, the better half goes on to play twice as many
more, and so on until one is left (about 9 x 162 x ``--first`` games a size). The games
are the same for every candidate of a round (common random numbers: game *i* is seeded
``uneven-<size>:<i>`` whatever the candidate), so a difference between two candidates is
the rule's, not the deal's. A candidate's distance is the gap between the win rate of a
faction dealt the larger share of the table and one dealt the smaller (a shared win
counts for each sharer), over every game it played.

At the end of each size: the winner, the runners-up with their rates, and the best
candidate that is a head start alone, beside the house rule's (the points a seat is
worth: ``engine.uneven.seat_worth``). Same arguments, same result.
"""

from __future__ import annotations

import argparse
import itertools
import json
import multiprocessing
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from bot.ai.odds import wilson
from bot.ai.runner import play_game
from bot.sim.report import share_of
from engine import Settings, new_game
from engine.uneven import Compensation, seat_worth, trying
from engine.values import FACTIONS

UNEVEN = (7, 8, 10, 11, 13, 14)


def candidates() -> list[Compensation]:
    """Every candidate the search tries, the head start alone first."""
    grid = itertools.product(range(9), range(3), range(3), range(2))
    return sorted((Compensation(h, k, s, g) for h, k, s, g in grid), key=lambda c: (c.kill + c.survivor + c.grail > 0, c.head_start, c.text()))


def _play(job: tuple[str, int, int, int]) -> tuple[str, dict[str, list[int]]]:
    """Play games ``start``..``start+count`` of a size under one candidate: per share
    (larger, smaller), [factions dealt it, of which won]."""
    text, players, start, count = job
    tally: dict[str, list[int]] = {"larger": [0, 0], "smaller": [0, 0]}
    names = [f"P{i}" for i in range(1, players + 1)]
    with trying(Compensation.parse(text)):
        for i in range(start, start + count):
            seed = f"uneven-{players}:{i}"
            result = play_game(seed, players, start=new_game(names, seed, Settings()))
            seats = Counter(faction for faction, _ in result.roles)
            for f in FACTIONS:
                row = tally[share_of(seats[f.value], players)]
                row[0] += 1
                row[1] += f.value in result.winners
    return text, tally


@dataclass
class Arm:
    """One candidate's games so far."""

    comp: Compensation
    games: int = 0
    tally: dict[str, list[int]] = field(default_factory=lambda: {"larger": [0, 0], "smaller": [0, 0]})

    def rate(self, share: str) -> float:
        dealt, won = self.tally[share]
        return won / dealt if dealt else 0.0

    @property
    def gap(self) -> float:
        return abs(self.rate("larger") - self.rate("smaller"))

    def row(self) -> dict[str, Any]:
        out: dict[str, Any] = {"compensation": self.comp.text(), "games": self.games, "gap": round(self.gap, 4)}
        for share in ("larger", "smaller"):
            dealt, won = self.tally[share]
            out[share] = {"rate": round(self.rate(share), 4), "interval": [round(x, 4) for x in wilson(won, dealt)]}
        return out


def halve(players: int, first: int, jobs: int, chunk: int = 50) -> tuple[list[Arm], list[Arm], int]:
    """Sequential halving at one size: (the arms of the last round, best first; every
    arm as it ended; games played)."""
    arms = [Arm(c) for c in candidates()]
    alive, played, budget, start = arms, 0, first, 0
    methods = multiprocessing.get_all_start_methods()
    ctx = multiprocessing.get_context("fork" if "fork" in methods else None)
    with ctx.Pool(jobs) as pool:
        while True:
            work = [(a.comp.text(), players, s, min(chunk, start + budget - s)) for a in alive for s in range(start, start + budget, chunk)]
            by_text = {a.comp.text(): a for a in alive}
            for text, tally in pool.imap_unordered(_play, work):
                arm = by_text[text]
                for share, (dealt, won) in tally.items():
                    arm.tally[share][0] += dealt
                    arm.tally[share][1] += won
            for a in alive:
                a.games += budget
            played += budget * len(alive)
            alive.sort(key=lambda a: (a.gap, a.comp.kill + a.comp.survivor + a.comp.grail, a.comp.head_start))
            if len(alive) <= 2:
                return alive, arms, played
            start += budget
            alive = alive[: (len(alive) + 1) // 2]
            budget *= 2


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--sizes", default=",".join(map(str, UNEVEN)))
    p.add_argument("--first", type=int, default=100, help="games each candidate plays in the first round")
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--json", action="store_true")
    a = p.parse_args()
    report = []
    for n in (int(x) for x in a.sizes.split(",")):
        began = time.perf_counter()
        cpu = time.process_time()
        final, arms, played = halve(n, a.first, a.jobs)
        seconds = time.perf_counter() - began
        # the head start alone that went furthest in the halving, then the closest
        heads = sorted((arm for arm in arms if arm.comp.kill + arm.comp.survivor + arm.comp.grail == 0), key=lambda arm: (-arm.games, arm.gap))
        entry = {
            "players": n,
            "candidates": len(arms),
            "games": played,
            "seconds": round(seconds, 1),
            "parent_cpu_seconds": round(time.process_time() - cpu, 1),
            "winner": final[0].row(),
            "runner_up": final[1].row() if len(final) > 1 else None,
            "best_head_start_alone": heads[0].row() if heads else None,
            "house_rule": Compensation(head_start=seat_worth(15, (n + 2) // 3)).text(),
        }
        report.append(entry)
        if not a.json:
            w = entry["winner"]
            print(f"{n} players: {played:,} games in {seconds:.0f} s; winner {w['compensation']} over {w['games']:,} games: "
                  f"larger {w['larger']['rate']:.1%}, smaller {w['smaller']['rate']:.1%} (gap {w['gap']:.1%}); "
                  f"best head start alone {entry['best_head_start_alone']['compensation'] if heads else '-'}; house rule {entry['house_rule']}", flush=True)
    if a.json:
        json.dump(report, sys.stdout, indent=1)
        print()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
