"""Engine speed: complete 15-player games per second on one core, baseline AI included.

    .venv/bin/python bench/engine.py [--games N] [--seed S] [--split] [--profile]

Plays N whole games in this one process (one core) and prints the rate, by wall clock and
by CPU time. ``--split`` then replays the very same submissions through ``engine.advance``
alone (the engine's share) and times the views and the AI separately; ``--profile``
prints the functions where the time goes (cProfile).
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.sim import runner
from bot.sim.runner import game_seed, play_game
from engine import Submission, advance, new_game

PLAYERS = 15
TARGET = 500


def timed_games(games: int, seed: str) -> tuple[float, float]:
    """Wall and CPU seconds for ``games`` whole games."""
    wall, cpu = time.perf_counter(), time.process_time()
    for i in range(games):
        play_game(game_seed(seed, i), PLAYERS)
    return time.perf_counter() - wall, time.process_time() - cpu


def split(games: int, seed: str) -> dict[str, float]:
    """CPU seconds per part: the engine alone (a replay of the recorded submissions),
    and, in an instrumented run, the views (sheet/table) and the AI's decisions."""
    records: list[tuple[str, list[dict[int, list[Submission]]]]] = []
    for i in range(games):
        rec: list[dict[int, list[Submission]]] = []
        play_game(game_seed(seed, i), PLAYERS, record=rec)
        records.append((game_seed(seed, i), rec))
    cpu = time.process_time()
    for s, rec in records:
        state = new_game([f"P{i}" for i in range(1, PLAYERS + 1)], s)
        for subs in rec:
            state = advance(state, subs, s, inplace=True).state
    parts = {"engine (new_game + advance, replayed)": time.process_time() - cpu}
    spent = {"views (engine.view sheet/table)": 0.0, "AI decisions": 0.0}
    originals = {name: getattr(runner, name) for name in ("sheet", "table", "ask")}

    def wrap(name: str, bucket: str) -> None:
        fn = originals[name]

        def timed(*args: object, **kwargs: object) -> object:
            t = time.process_time()
            try:
                return fn(*args, **kwargs)
            finally:
                spent[bucket] += time.process_time() - t

        setattr(runner, name, timed)

    wrap("sheet", "views (engine.view sheet/table)")
    wrap("table", "views (engine.view sheet/table)")
    wrap("ask", "AI decisions")
    try:
        timed_games(games, seed)
    finally:
        for name, fn in originals.items():
            setattr(runner, name, fn)
    parts.update(spent)
    return parts


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="bench/engine.py", description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=500, help="games to play (default 500)")
    parser.add_argument("--seed", default="bench", help="seed of the run (default 'bench')")
    parser.add_argument("--split", action="store_true", help="time the engine, the views and the AI apart")
    parser.add_argument("--profile", action="store_true", help="print the top functions by own time")
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error("--games must be 1 or more")
    play_game(game_seed("warm-up", 0), PLAYERS)  # imports, class data, caches
    wall, cpu = timed_games(args.games, args.seed)
    print(f"{args.games} complete {PLAYERS}-player games, baseline AI, one core (Python {sys.version.split()[0]})")
    print(f"games per second (wall clock): {args.games / wall:.1f}")
    print(f"games per second (CPU time):   {args.games / cpu:.1f}   target {TARGET}")
    print(f"per game: {1000 * cpu / args.games:.2f} ms CPU")
    if args.split:
        parts = split(args.games, args.seed)
        print("CPU time per game by part:")
        for name, seconds in parts.items():
            print(f"  {name:40s} {1000 * seconds / args.games:7.2f} ms  ({seconds / cpu:5.1%} of a game)")
    if args.profile:
        prof = cProfile.Profile()
        prof.enable()
        timed_games(min(args.games, 200), args.seed)
        prof.disable()
        pstats.Stats(prof, stream=sys.stdout).sort_stats("tottime").print_stats(25)
    return 0


if __name__ == "__main__":
    sys.exit(main())
