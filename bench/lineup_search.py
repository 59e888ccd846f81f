"""Search the fixed line-ups of the presets by sequential halving (docs/moderating.md,
"The presets"; docs/balance.md, "The presets"), and print each round and the winner.

    python -m bench.lineup_search balanced [--sizes 6-15] [--arms 64] [--first 250] [--final 10000] [--jobs 2]
    python -m bench.lineup_search classic [--sizes 6-12] [--arms 64] [--first 250] [--final 10000] [--jobs 2]

Each size is searched on its own. ``balanced``: every line-up the rows allow at that size
is rated by the fair deal's class worths (engine.fair_deal.odds), and the ``--arms`` most
even of them, with today's, are played. ``classic``: the original's table trimmed (each
row read from its start, the extra seats to Lawful, then Neutral) and the ``--arms``
line-ups of its seats that keep most of its classes, of those the worths rate even
(within the fair deal's spread), are played.

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

from bot.ai.odds import wilson
from bot.ai.runner import Batch, play_batches
from engine import Settings, fair_deal
from engine.classes import FACTION_ROWS
from engine.lineup import BALANCED, Lineup, parse, source_trim
from engine.values import FACTIONS

CENTRE = 0.335


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
        alive = alive[: (len(alive) + 1) // 2]
        if len(alive) == 1:
            return alive[0]
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


def classic_arms(n: int, count: int) -> list[Arm]:
    """The original's table trimmed at ``n`` (each row read from its start, the extra
    seats to Lawful, then Neutral) and the ``count`` line-ups of its seats that keep most
    of its classes among those the worths rate even (within the fair deal's spread),
    the more even first where they keep as many."""
    trim = source_trim(n)
    choices = [itertools.combinations(FACTION_ROWS[f], len(row)) for f, row in zip(FACTIONS, trim.rows, strict=True)]
    every = [Lineup(rows) for rows in itertools.product(*choices)]  # type: ignore[arg-type]
    even = [lu for lu in every if fair_deal.spread(lu.rows, n) <= fair_deal.SPREAD]
    ranked = sorted(even, key=lambda lu: (-kept(lu, trim), _worst({n: lu}), lu.text()))[:count]
    if trim not in ranked:
        ranked.append(trim)
    return [Arm(lu.text(), {n: lu}) for lu in ranked]


def kept(lineup: Lineup, trim: Lineup) -> int:
    """How many of ``trim``'s classes ``lineup`` deals to the same faction."""
    return sum(len(set(a) & set(b)) for a, b in zip(lineup.rows, trim.rows, strict=True))


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("preset", choices=["balanced", "classic"])
    p.add_argument("--sizes", default="6-15", help="the sizes to search")
    p.add_argument("--arms", type=int, default=64)
    p.add_argument("--first", type=int)
    p.add_argument("--final", type=int, default=10000)
    p.add_argument("--jobs", type=int, default=2)
    a = p.parse_args()
    began = time.perf_counter()

    def say(text: str) -> None:
        print(f"{text}; {time.perf_counter() - began:.0f} s", flush=True)

    lo, _, hi = a.sizes.partition("-")
    sizes = range(int(lo), int(hi or lo) + 1)
    arms = [classic_arms(n, a.arms) if a.preset == "classic" else balanced_arms(n, a.arms) for n in sizes]
    for group in arms:
        best = halve(group, a.first or 250, a.jobs, say)
        print(report(final(best, a.final, a.jobs)), flush=True)
        say("done")
    return 0


if __name__ == "__main__":
    sys.exit(main())
