"""Engine speed: complete 15-player games per second on one core, baseline AI included.

    .venv/bin/python bench/engine.py [--games N] [--seed S] [--split] [--profile] [--compiled]

Plays N whole games in this one process (one core) and prints the rate, by wall clock and
by CPU time. ``--split`` then replays the very same submissions through ``engine.advance``
alone (the engine's share) and times the views and the AI separately; ``--profile``
prints the functions where the time goes (cProfile). ``--compiled`` also compiles a copy
of the engine and the simulator with mypyc in a temporary directory (never the installed
code), plays the same games there and checks that every result is the same.
"""

from __future__ import annotations

import argparse
import cProfile
import dataclasses
import os
import pickle
import pstats
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

# A compiled run (``--compiled``) points WHT_BENCH_ROOT at its build directory.
sys.path.insert(0, os.environ.get("WHT_BENCH_ROOT") or str(Path(__file__).resolve().parent.parent))

from bot.ai import runner
from bot.ai.runner import GameResult, game_seed, play_game
from engine import Submission, advance, new_game

REPO = Path(__file__).resolve().parent.parent
PLAYERS = 15
TARGET = 500
# What --compiled builds with mypyc: the engine, its skills and the simulator. Not
# engine/classes.py, whose pydantic models must stay interpreted.
COMPILED = [
    *(f"engine/{m}.py" for m in ("__init__", "advance", "day", "dice", "ending", "errors", "events", "health", "messages",
                                  "model", "morning", "scoring", "setup", "stats", "submissions", "validate", "values", "view")),
    *(f"engine/night/{m}.py" for m in ("__init__", "attacks", "combat", "context", "identify", "initiative", "resolve")),
    *(f"engine/skills/{m}.py" for m in ("__init__", "base")),
    *(f"engine/skills/classes/{m}.py" for m in ("__init__", "barbarian", "bard", "cleric", "druid", "monk", "paladin",
                                                "ranger", "rogue", "sorcerer", "warrior", "wizard")),
    *(f"bot/ai/{m}.py" for m in ("player", "knowledge", "tactics", "runner")),
]


def timed_games(games: int, seed: str, results: list[GameResult] | None = None) -> tuple[float, float]:
    """Wall and CPU seconds for ``games`` whole games (their results into ``results``)."""
    wall, cpu = time.perf_counter(), time.process_time()
    for i in range(games):
        r = play_game(game_seed(seed, i), PLAYERS)
        if results is not None:
            results.append(r)
    return time.perf_counter() - wall, time.process_time() - cpu


def plain(results: list[GameResult]) -> list[tuple[object, ...]]:
    """Results as plain tuples: mypyc's build of the slotted GameResult does not pickle."""
    return [dataclasses.astuple(r) for r in results]


def build_compiled(dest: Path) -> None:
    """Copy the engine and the simulator to ``dest`` and compile them there with mypyc."""
    shutil.copytree(REPO / "engine", dest / "engine", ignore=shutil.ignore_patterns("__pycache__"))
    (dest / "bot").mkdir()
    shutil.copy(REPO / "bot" / "__init__.py", dest / "bot")
    shutil.copytree(REPO / "bot" / "sim", dest / "bot" / "sim", ignore=shutil.ignore_patterns("__pycache__"))
    (dest / "mypy.ini").write_text("[mypy]\npython_version = 3.11\nignore_missing_imports = True\n")
    done = subprocess.run([sys.executable, "-m", "mypyc", *COMPILED], cwd=dest, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"mypyc failed:\n{done.stdout[-3000:]}{done.stderr[-3000:]}")


def compiled_run(games: int, seed: str, results: list[GameResult]) -> int:
    """Build, then play the same games in a child process on the compiled modules; True
    when every game's result equals the interpreted run's."""
    with tempfile.TemporaryDirectory(prefix="wht-mypyc-") as tmp:
        build = Path(tmp)
        print(f"compiling {len(COMPILED)} modules with mypyc ...", flush=True)
        build_compiled(build)
        out = build / "results.pickle"
        env = dict(os.environ, WHT_BENCH_ROOT=str(build))
        cmd = [sys.executable, __file__, "--games", str(games), "--seed", seed, "--results", str(out)]
        done = subprocess.run(cmd, env=env)
        if done.returncode != 0:
            return done.returncode
        same = pickle.loads(out.read_bytes()) == plain(results)
    print(f"compiled results identical to the interpreted run's ({games} games): {'yes' if same else 'NO'}")
    return 0 if same else 1


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
    parser.add_argument("--compiled", action="store_true", help="then the same games on a mypyc build (temporary)")
    parser.add_argument("--results", type=Path, help=argparse.SUPPRESS)  # the compiled child's results
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error("--games must be 1 or more")
    play_game(game_seed("warm-up", 0), PLAYERS)  # imports, class data, caches
    results: list[GameResult] = []
    wall, cpu = timed_games(args.games, args.seed, results)
    built = sum(1 for m in sys.modules.values() if getattr(m, "__file__", None) and m.__file__.endswith(".so")
                and m.__name__.startswith(("engine", "bot.ai")))
    kind = f"mypyc-compiled ({built} modules)" if built else "interpreted"
    print(f"{args.games} complete {PLAYERS}-player games, baseline AI, one core (Python {sys.version.split()[0]}, {kind})")
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
    if args.results is not None:
        args.results.write_bytes(pickle.dumps(plain(results)))
    if args.compiled:
        return compiled_run(args.games, args.seed, results)
    return 0


if __name__ == "__main__":
    sys.exit(main())
