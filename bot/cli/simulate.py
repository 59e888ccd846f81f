"""``wolfhowl simulate``: whole games between baseline AI players, and a report.

    wolfhowl simulate --games N [--players P] [--seed S] [--jobs J] [--json] [--plot FILE.png]
                      [--killing-blow steal|killer_takes] [--departures dawn|morning]
                      [--vote-damage public|private] [--lineup PRESET|CLASSES]

The house rules default to the rules' defaults (docs/rules.md, "House rules"). The
line-up, as a moderator sets it with /mod lineup: a preset (random, the default: dealt
by lot; classic, balanced, varied) or the classes of each faction, Lawful first
(``warrior,monk/barbarian,druid/sorcerer,bard``), which also gives the number of players.

A progress bar goes to stderr when it is a terminal (not with ``--json``). The report
goes to stdout: tables, or one JSON object with ``--json``. Bad arguments print a clear
error and exit with status 2.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

from bot.ai.runner import play_many
from bot.i18n import refusal_text
from bot.sim.plot import plot
from bot.sim.report import render, summarise
from engine import HOUSE_RULES, MAX_PLAYERS, MIN_PLAYERS, RuleViolation, Settings
from engine import lineup as lineups

DEFAULT_GAMES = 1000


def _int_at_least(low: int, high: int | None = None) -> type:
    """An argparse type: a whole number within [low, high], with a clear message."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"must be a whole number, not {text!r}") from None
        if value < low or (high is not None and value > high):
            span = f"from {low} to {high}" if high is not None else f"of {low} or more"
            raise argparse.ArgumentTypeError(f"must be a whole number {span}, not {value}")
        return value

    parse.__name__ = "number"
    return parse  # type: ignore[return-value]


def _png_path(text: str) -> Path:
    path = Path(text)
    if path.suffix.lower() != ".png":
        raise argparse.ArgumentTypeError(f"must be a .png file name, not {text!r}")
    parent = path.parent if str(path.parent) else Path(".")
    if not parent.is_dir():
        raise argparse.ArgumentTypeError(f"folder {str(parent)!r} does not exist")
    # Found out now, not after all the games have been played.
    if path.is_dir():
        raise argparse.ArgumentTypeError(f"{text!r} is a folder")
    if not os.access(path if path.exists() else parent, os.W_OK):
        raise argparse.ArgumentTypeError(f"cannot write {text!r}")
    return path


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``wolfhowl simulate``."""
    parser.add_argument(
        "--games", type=_int_at_least(1), default=DEFAULT_GAMES, metavar="N", help=f"games to play (default {DEFAULT_GAMES})"
    )
    parser.add_argument(
        "--players",
        type=_int_at_least(MIN_PLAYERS, MAX_PLAYERS),
        default=None,
        metavar="P",
        help=f"players per game, {MIN_PLAYERS}-{MAX_PLAYERS} (default {MAX_PLAYERS}, or the line-up's own)",
    )
    parser.add_argument(
        "--lineup",
        default=lineups.RANDOM,
        metavar="LINEUP",
        help=f"a preset ({', '.join(lineups.PRESETS)}) or the classes of each faction, "
        "Lawful first: warrior,monk/barbarian,druid/sorcerer,bard (default random: dealt by lot)",
    )
    parser.add_argument("--seed", default="0", metavar="S", help="seed of the run: same seed, same report (default 0)")
    parser.add_argument(
        "--jobs", type=_int_at_least(1), default=1, metavar="J", help="worker processes (default 1)"
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object instead of tables")
    parser.add_argument("--plot", type=_png_path, metavar="FILE.png", help="also draw the report into a PNG")
    for rule, kind in HOUSE_RULES.items():
        choices = [c.value for c in kind]
        parser.add_argument(
            f"--{rule.replace('_', '-')}", choices=choices, default=choices[0], help=f"house rule {rule} (default {choices[0]})"
        )


def run(args: argparse.Namespace) -> int:
    """Play the games, print the report, draw the plot; the exit status."""
    jobs = min(args.jobs, args.games, os.cpu_count() or 1) if args.jobs > 1 else 1
    try:
        choice = lineups.normalize(args.lineup)
        if args.players is None:
            args.players = lineups.fixed_size(choice) or MAX_PLAYERS
        lineup = lineups.resolve(choice, args.players)
    except RuleViolation as exc:
        print(f"wolfhowl simulate: --lineup: {refusal_text(exc, 'en-US')}", file=sys.stderr)
        return 2
    rules = {rule: kind(getattr(args, rule)) for rule, kind in HOUSE_RULES.items()}
    settings = Settings(**rules, lineup=lineup)  # type: ignore[arg-type]
    show_progress = not args.json and sys.stderr.isatty()
    start = time.perf_counter()
    if show_progress:
        from rich.console import Console
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeRemainingColumn,
        )

        columns = (TextColumn("simulating"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
        with Progress(*columns, console=Console(stderr=True), transient=True) as bar:
            task = bar.add_task("games", total=args.games)
            results = play_many(
                args.games, args.players, args.seed, jobs, progress=lambda k: bar.advance(task, k), settings=settings
            )
    else:
        results = play_many(args.games, args.players, args.seed, jobs, settings=settings)
    seconds = time.perf_counter() - start
    summary = summarise(results, players=args.players, seed=args.seed, seconds=seconds, jobs=jobs)
    summary["house_rules"] = {rule: getattr(args, rule) for rule in HOUSE_RULES}
    summary["lineup"] = {"setting": choice, "classes": lineup.text() if lineup is not None else None}
    if args.plot is not None:
        try:
            plot(summary, args.plot)
        except OSError as exc:
            print(f"wolfhowl simulate: cannot write {args.plot}: {exc.strerror or exc}", file=sys.stderr)
            return 2
        summary["plot"] = str(args.plot)
    try:
        if args.json:
            sys.stdout.write(json.dumps(summary, ensure_ascii=False) + "\n")
        else:
            render(summary)
            if args.plot is not None:
                print(f"plot written to {args.plot}")
        sys.stdout.flush()
    except BrokenPipeError:
        # The reader went away (``| head``): not an error of ours; keep Python quiet.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return 0

