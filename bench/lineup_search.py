"""Search the fixed line-ups of the presets by sequential halving (docs/moderating.md,
"The presets"; docs/balance.md, "The presets"), and print each round and the winner.

    python -m bench.lineup_search balanced [--sizes 6-15] [--arms 64] [--first 250] [--final 10000] [--jobs 2]
    python -m bench.lineup_search classic [--arms 64] [--first 150] [--final 10000] [--jobs 2]

``balanced`` searches each size on its own: every line-up the rows allow at that size is
rated by the fair deal's class worths (engine.fair_deal.odds), and the ``--arms`` most
even of them, with today's, are played. ``classic`` searches one order per faction row
and the order in which the factions take the extra seats, so that a table one larger
deals the smaller one's classes and one more: every such order (60 per row, as only the
first two, third and fourth place matter below 15, and 6 orders of the factions) is rated
by the worths at every size from 6 to 14, and the ``--arms`` whose worst size is most even
are played, with today's.

The halving: every arm plays ``--first`` games at each of its sizes, the better half twice
as many more, and so on until one is left, which then plays ``--final`` games at each size
on other seeds (the figures to quote). An arm's distance is, over its sizes and factions,
the largest gap between a faction's win rate and 33.5% (a shared win counts for each
sharer, so an even table's rates sum to a little over 100%). Every arm of a round plays
the same seeds. Same arguments, same result.
"""

from __future__ import annotations

import argparse
import itertools
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np

from bot.ai.odds import wilson
from bot.ai.runner import Batch, play_batches
from engine import Settings, fair_deal
from engine.classes import FACTION_ROWS
from engine.lineup import BALANCED, Lineup, parse, preset
from engine.model import FACTIONS

CENTRE = 0.335
SMALL = range(6, 15)  # below 15 every row is dealt in full


@dataclass
class Arm:
    """One candidate: its line-up at each size it is searched at, and its games so far."""

    name: str
    lineups: dict[int, Lineup]
    wins: dict[int, list[int]] = field(default_factory=dict)  # size -> wins per faction
    games: dict[int, int] = field(default_factory=dict)

    def add(self, n: int, games: int, wins: list[int]) -> None:
        self.games[n] = self.games.get(n, 0) + games
        row = self.wins.setdefault(n, [0, 0, 0])
        for i, w in enumerate(wins):
            row[i] += w

    def rates(self, n: int) -> list[float]:
        return [w / self.games[n] for w in self.wins[n]]

    @property
    def distance(self) -> float:
        return max(abs(r - CENTRE) for n in self.lineups for r in self.rates(n))


def play(lineups: Sequence[tuple[Lineup, str]], games: int, jobs: int) -> list[list[int]]:
    """Each (line-up, seed) played ``games`` games, all on one set of processes: the
    wins per faction of each."""
    batches = [Batch(games, lineup.size, seed, Settings(lineup=lineup)) for lineup, seed in lineups]
    return [[sum(f.value in r.winners for r in results) for f in FACTIONS] for results in play_batches(batches, jobs)]


def halve(arms: list[Arm], first: int, jobs: int, say: Callable[[str], None]) -> Arm:
    """Sequential halving down to one arm."""
    alive, budget, rnd = arms, first, 0
    while True:
        cells = [(arm, n) for arm in alive for n in arm.lineups]
        for (arm, n), wins in zip(cells, play([(arm.lineups[n], f"search-{n}-r{rnd}") for arm, n in cells], budget, jobs), strict=True):
            arm.add(n, budget, wins)
        alive.sort(key=lambda a: (a.distance, a.name))
        say(f"round {rnd}: {len(alive)} arms, {budget} games a size; best {alive[0].name} ({alive[0].distance:.3f}), worst kept {alive[(len(alive) - 1) // 2].distance:.3f}")
        if len(alive) == 1:
            return alive[0]
        alive = alive[: (len(alive) + 1) // 2]
        budget *= 2
        rnd += 1


def final(arm: Arm, games: int, jobs: int) -> Arm:
    """The winner on other seeds: the figures to quote."""
    out = Arm(arm.name, arm.lineups)
    sizes = list(arm.lineups)
    for n, wins in zip(sizes, play([(arm.lineups[n], f"final-{n}") for n in sizes], games, jobs), strict=True):
        out.add(n, games, wins)
    return out


def report(arm: Arm) -> str:
    lines = [f"{arm.name}: distance {arm.distance:.3f}"]
    for n, lineup in sorted(arm.lineups.items()):
        cells = []
        for f, w in zip(FACTIONS, arm.wins[n], strict=True):
            low, high = wilson(w, arm.games[n])
            cells.append(f"{f.value} {w / arm.games[n]:.1%} ({low:.1%}–{high:.1%})")
        lines.append(f"  {n}: {lineup.text()!r}  # {'; '.join(cells)} ({arm.games[n]} games)")
    return "\n".join(lines)


def _worst(lineups: dict[int, Lineup]) -> float:
    """How far from a third the worths put the least even faction (0 where no worths)."""
    return max((abs(o - 1 / 3) for n, lu in lineups.items() if n in fair_deal.worths() for o in fair_deal.odds(lu.rows, n)), default=0.0)


def balanced_arms(n: int, count: int) -> list[Arm]:
    """The ``count`` line-ups of ``n`` the worths rate most even, and today's."""
    every = []
    for seats in _seatings(n):
        choices = [itertools.combinations(FACTION_ROWS[f], k) for f, k in zip(FACTIONS, seats, strict=True)]
        every += [Lineup(rows) for rows in itertools.product(*choices)]  # type: ignore[arg-type]
    ranked = sorted(every, key=lambda lu: (_worst({n: lu}), lu.text()))[:count]
    today = parse(BALANCED[n])
    if today not in ranked:
        ranked.append(today)
    return [Arm(lu.text(), {n: lu}) for lu in ranked]


def _seatings(n: int) -> list[tuple[int, ...]]:
    base, extra = divmod(n, 3)
    return [tuple(base + (i in chosen) for i in range(3)) for chosen in itertools.combinations(range(3), extra)]


def _orders(row: Sequence[str]) -> list[tuple[str, ...]]:
    """One order per way of filling the first two places, the third and the fourth."""
    seen: dict[tuple[frozenset[str], str, str], tuple[str, ...]] = {}
    for order in itertools.permutations(row):
        seen.setdefault((frozenset(order[:2]), order[2], order[3]), order)
    return list(seen.values())


def nested(orders: Sequence[Sequence[str]], extra_order: Sequence[int], n: int) -> Lineup:
    """The line-up of ``n``: each faction its order's first seats, the extra seats to the
    factions in ``extra_order``."""
    base, extra = divmod(n, 3)
    return Lineup(tuple(tuple(orders[i][: base + (i in extra_order[:extra])]) for i in range(3)))  # type: ignore[arg-type]


def classic_arms(count: int) -> list[Arm]:
    """The ``count`` nested orders the worths rate most even at their worst size, and today's."""
    rows = [_orders(FACTION_ROWS[f]) for f in FACTIONS]
    scored = []
    for extra_order in itertools.permutations(range(3)):
        worst = np.zeros([len(r) for r in rows])
        for n in SMALL:
            w = fair_deal.worths()[n]
            seats = nested([FACTION_ROWS[f] for f in FACTIONS], extra_order, n).rows
            u = np.meshgrid(*[np.array([w.of(f, o[: len(seats[i])], n) for o in rows[i]]) for i, f in enumerate(FACTIONS)], indexing="ij")
            e = np.exp(np.stack(u, -1) - np.max(np.stack(u, -1), -1, keepdims=True))
            worst = np.maximum(worst, np.abs(e / e.sum(-1, keepdims=True) - 1 / 3).max(-1))
        for flat in np.argsort(worst, axis=None)[:count]:
            idx = np.unravel_index(flat, worst.shape)
            scored.append((float(worst[idx]), tuple(rows[i][int(k)] for i, k in enumerate(idx)), extra_order))
    scored.sort(key=lambda s: (s[0], _name(s[1], s[2])))
    arms = [Arm(_name(o, e), {n: nested(o, e, n) for n in SMALL}) for _, o, e in scored[:count]]
    today = {n: preset("classic", n) for n in SMALL}
    if all(today[n] != arm.lineups[n] for arm in arms for n in SMALL):
        arms.append(Arm("today", today))  # type: ignore[arg-type]
    return arms


def _name(orders: Sequence[Sequence[str]], extra_order: Sequence[int]) -> str:
    return "/".join(",".join(o) for o in orders) + " extra " + ",".join(FACTIONS[i].value for i in extra_order)


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("preset", choices=["balanced", "classic"])
    p.add_argument("--sizes", default="6-15", help="balanced: the sizes to search")
    p.add_argument("--arms", type=int, default=64)
    p.add_argument("--first", type=int)
    p.add_argument("--final", type=int, default=10000)
    p.add_argument("--jobs", type=int, default=2)
    a = p.parse_args()
    began = time.perf_counter()

    def say(text: str) -> None:
        print(f"{text}; {time.perf_counter() - began:.0f} s", flush=True)

    if a.preset == "classic":
        arms = [classic_arms(a.arms)]
    else:
        lo, _, hi = a.sizes.partition("-")
        arms = [balanced_arms(n, a.arms) for n in range(int(lo), int(hi or lo) + 1)]
    for group in arms:
        best = halve(group, a.first or (150 if a.preset == "classic" else 250), a.jobs, say)
        print(report(final(best, a.final, a.jobs)), flush=True)
        say("done")
    return 0


if __name__ == "__main__":
    sys.exit(main())
