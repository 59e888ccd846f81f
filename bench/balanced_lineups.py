"""Search, for each table size, the line-up whose factions' win rates lie closest to a
third each (the ``balanced`` preset, engine.lineup.BALANCED), and print the figures.

    python -m bench.balanced_lineups [--sizes 6-15] [--candidates 12] [--quick 250] [--final 1000]

Each size: the classic and varied presets and ``--candidates`` line-ups drawn at random
(faction sizes as equal as possible, classes from each row) are played ``--quick`` games
each; the three closest to a third are played ``--final`` more games on other seeds, and
the closest of them is printed. Same arguments, same result.
"""

from __future__ import annotations

import argparse
import random
import sys
import time

from bot.ai.odds import wilson
from bot.ai.runner import play_many
from engine import Settings
from engine.classes import FACTION_ROWS
from engine.lineup import Lineup, preset
from engine.model import FACTIONS


def spread(lineup: Lineup, games: int, seed: str) -> tuple[float, dict[str, float]]:
    """The largest distance of a faction's win rate from a third, and the rates."""
    results = play_many(games, lineup.size, seed, settings=Settings(lineup=lineup))
    rates = {f.value: sum(f.value in r.winners for r in results) / games for f in FACTIONS}
    return max(abs(r - 1 / 3) for r in rates.values()), rates


def candidates(n: int, count: int, rng: random.Random) -> list[Lineup]:
    out = {preset("classic", n), preset("varied", n)}
    tries = 0
    while len(out) < count + 2 and tries < 1000:
        tries += 1
        base, extra = divmod(n, 3)
        order = list(FACTIONS)
        rng.shuffle(order)
        rows = tuple(tuple(sorted(rng.sample(FACTION_ROWS[f], base + (f in order[:extra])))) for f in FACTIONS)
        out.add(Lineup(rows).check(n))  # type: ignore[arg-type]
    return sorted((x for x in out if x is not None), key=Lineup.text)


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--sizes", default="6-15")
    p.add_argument("--candidates", type=int, default=12)
    p.add_argument("--quick", type=int, default=250)
    p.add_argument("--final", type=int, default=1000)
    a = p.parse_args()
    lo, _, hi = a.sizes.partition("-")
    for n in range(int(lo), int(hi or lo) + 1):
        start = time.perf_counter()
        rng = random.Random(f"balanced-{n}")
        quick = sorted((spread(c, a.quick, f"q{n}")[0], c.text(), c) for c in candidates(n, a.candidates, rng))
        final = []
        for _, text, c in quick[:3]:
            d, rates = spread(c, a.final, f"f{n}")
            final.append((d, text, rates))
        d, text, rates = min(final)
        shown = "  ".join(
            f"{f} {rates[f]:.1%} ({wilson(round(rates[f] * a.final), a.final)[0]:.1%}–{wilson(round(rates[f] * a.final), a.final)[1]:.1%})"
            for f in rates
        )
        print(f"{n}: {text!r}  # {shown}; {time.perf_counter() - start:.0f} s", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
