"""The fair deal's class worths (engine.fair_deal, docs/balance.md "The fair deal"): at
each table size from 6 to 14, plays games between the baseline AI players, fits which
faction wins to the classes each holds, and writes ``engine/data/class_worth.toml``.
Prints, per size and round, the games' win rates by faction and share, and the time.

    python -m bench.fair_deal [--sizes 6-14] [--games 20000] [--rounds 2] [--jobs 2] [--by-seating] [--write]

The model: faction f's share of the wins is the softmax over the three factions of the
sum of its classes' worths, each class worth one number per faction row and per share of
the table the faction holds (larger, equal or smaller than a third), fitted by Newton's
method on the multinomial likelihood (a shared win counts a part to each sharer) with an
L2 penalty of 2 (a worth stays near 0 unless the games say otherwise), rounded to
hundredths. With ``--by-seating`` each seating (which factions hold the extra seats:
``3/2/2`` is Lawful, Neutral, Chaotic) has its own worths, fitted on its own games, and
the file written is ``engine/data/seating_worth.toml`` (rules version 7's, at 7 and 8).

Round 0 deals by plain lot (every line-up alike); each later round deals by the fair deal
under the worths fitted so far and fits again on every round's games. A model fitted on
the plain lot alone errs most on the line-ups it rates even, which are those the fair
deal keeps; the rounds fit it where it is used. Game i of round r is seeded
``fit-<size>:<i>`` (r = 0) or ``fairfit<r>-<size>:<i>``: same arguments, same file.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

import numpy as np

from bot.ai.runner import play_many
from engine import Settings, fair_deal
from engine.classes import FACTION_ROWS
from engine.values import FACTIONS

DATA = Path(__file__).resolve().parent.parent / "engine" / "data"
OUT = DATA / "class_worth.toml"
OUT_BY_SEATING = DATA / "seating_worth.toml"
SHARES = ("larger", "equal", "smaller")
PAIRS = [(f, c) for f in FACTIONS for c in FACTION_ROWS[f]]
PENALTY = 2.0
Games = list[tuple[tuple[tuple[str, str], ...], tuple[str, ...]]]  # roles, winners


def column(share: str, faction: fair_deal.Faction, class_id: str) -> int:
    """The model's column of ``class_id`` in ``faction``'s row at ``share``."""
    return SHARES.index(share) * len(PAIRS) + PAIRS.index((faction, class_id))


def encode(roles: tuple[tuple[str, str], ...], players: int) -> np.ndarray:
    """Per faction: which (share, faction, class) it holds, 45 columns."""
    x = np.zeros((3, len(SHARES) * len(PAIRS)))
    seats = Counter(faction for faction, _ in roles)
    for faction, class_id in roles:
        i = [f.value for f in FACTIONS].index(faction)
        x[i, column(fair_deal.share(seats[faction], players), FACTIONS[i], class_id)] = 1
    return x


def fit(x: np.ndarray, y: np.ndarray, iterations: int = 60) -> np.ndarray:
    """Newton's method for the penalised multinomial logit: x (games, 3, k), y (games, 3)."""
    w = np.zeros(x.shape[2])
    for _ in range(iterations):
        u = x @ w
        u -= u.max(1, keepdims=True)
        p = np.exp(u)
        p /= p.sum(1, keepdims=True)
        grad = np.einsum("gfk,gf->k", x, p - y) + PENALTY * w
        xp = np.einsum("gfk,gf->gk", x, p)
        hess = np.einsum("gfk,gf,gfl->kl", x, p, x) - xp.T @ xp + PENALTY * np.eye(len(w))
        w -= np.linalg.solve(hess, grad)
    return w


def worths(w: np.ndarray, players: int) -> fair_deal.Worths:
    """The fitted weights as the engine reads them (rounded; the shares the size has)."""
    base, extra = divmod(players, 3)
    present = {fair_deal.share(base + 1, players)} if extra else set()
    present |= {fair_deal.share(base, players)}
    return fair_deal.Worths({
        s: {f: {c: round(float(w[column(s, f, c)]), 2) for c in FACTION_ROWS[f]} for f in FACTIONS}
        for s in SHARES if s in present
    })


def play(players: int, games: int, jobs: int, rnd: int, table: dict[int, fair_deal.Worths]) -> Games:
    seed = f"fit-{players}" if rnd == 0 else f"fairfit{rnd}-{players}"
    with fair_deal.by_lot() if rnd == 0 else fair_deal.trying(table):
        results = play_many(games, players, seed, jobs=jobs, settings=Settings())
    return [(r.roles, r.winners) for r in results]


def _weights(players: int, games: Games) -> np.ndarray:
    x = np.stack([encode(roles, players) for roles, _ in games])
    y = np.zeros((len(games), 3))
    for g, (_, winners) in enumerate(games):
        for winner in winners:
            y[g, [f.value for f in FACTIONS].index(winner)] = 1 / len(winners)
    return fit(x, y)


def fitted(players: int, games: Games) -> fair_deal.Worths:
    return worths(_weights(players, games), players)


def seating_of(roles: tuple[tuple[str, str], ...]) -> str:
    """The engine's seating key (``3/2/2``) of a game's roles."""
    return fair_deal.seating(tuple(tuple(c for g, c in roles if g == f.value) for f in FACTIONS))


def fitted_by_seating(players: int, games: Games) -> fair_deal.Worths:
    """Worths per seating, each fitted on its own seating's games."""
    groups: dict[str, Games] = {}
    for game in games:
        groups.setdefault(seating_of(game[0]), []).append(game)
    out: dict[str, dict[fair_deal.Faction, dict[str, float]]] = {}
    for key in sorted(groups, reverse=True):
        w = _weights(players, groups[key])
        seats = dict(zip(FACTIONS, map(int, key.split("/")), strict=True))
        out[key] = {
            f: {c: round(float(w[column(fair_deal.share(seats[f], players), f, c)]), 2) for c in FACTION_ROWS[f]}
            for f in FACTIONS
        }
    return fair_deal.Worths(out)


def rates(players: int, games: Games) -> str:
    """The games' win rates by faction and share."""
    tally: dict[str, list[int]] = {}
    for roles, winners in games:
        seats = Counter(faction for faction, _ in roles)
        for f in FACTIONS:
            row = tally.setdefault(f"{f.value} ({fair_deal.share(seats[f.value], players)})", [0, 0])
            row[0] += 1
            row[1] += f.value in winners
    return "; ".join(f"{key} {won / dealt:.1%}" for key, (dealt, won) in sorted(tally.items()))


def toml(table: dict[int, fair_deal.Worths], games: int, rounds: int, by_seating: bool = False) -> str:
    if by_seating:
        lines = [
            f"# Written by bench/fair_deal.py --by-seating ({games} games a size and round, {rounds} rounds",
            "# after the plain lot; baseline AI, default house rules): each class's worth per",
            "# faction row, by seating (which factions hold the extra seats). engine.fair_deal",
            "# reads it; docs/balance.md says how it was fitted.",
        ]
    else:
        lines = [
            f"# Written by bench/fair_deal.py ({games} games a size and round, {rounds} rounds after the",
            "# plain lot; baseline AI, default house rules): each class's worth per faction row, by",
            "# the share of the table the faction holds. engine.fair_deal reads it; docs/balance.md",
            "# says how it was fitted.",
        ]
    for n, w in sorted(table.items()):
        for s in sorted(w.groups, key=lambda k: SHARES.index(k) if k in SHARES else -1):  # seatings as fitted
            key = s if s in SHARES else f'"{s}"'
            lines += ["", f'[sizes."{n}".{key}]']
            for f in FACTIONS:
                cells = ", ".join(f"{c} = {w.groups[s][f][c]:.2f}" for c in FACTION_ROWS[f])
                lines.append(f"{f.value} = {{ {cells} }}")
    return "\n".join(lines) + "\n"


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--sizes", default="6-14")
    p.add_argument("--games", type=int, default=20000)
    p.add_argument("--rounds", type=int, default=2)
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--by-seating", action="store_true", help="worths per seating, not per share")
    p.add_argument("--write", action="store_true", help=f"write {OUT.name} ({OUT_BY_SEATING.name} with --by-seating)")
    a = p.parse_args()
    lo, _, hi = a.sizes.partition("-")
    table: dict[int, fair_deal.Worths] = {}
    began = time.perf_counter()
    for n in range(int(lo), int(hi or lo) + 1):
        games: Games = []
        for rnd in range(a.rounds + 1):
            dealt = play(n, a.games, a.jobs, rnd, table)
            print(f"{n} players, round {rnd} ({'plain lot' if rnd == 0 else 'fair deal'}): {rates(n, dealt)}; {time.perf_counter() - began:.0f} s", flush=True)
            games += dealt
            table[n] = fitted_by_seating(n, games) if a.by_seating else fitted(n, games)
    if a.write:
        out = OUT_BY_SEATING if a.by_seating else OUT
        out.write_text(toml(table, a.games, a.rounds, a.by_seating), encoding="utf-8")
        print(f"wrote {out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
