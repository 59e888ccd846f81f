"""``wolfhowl scenario FILE.toml [--seed S] [--repeat N] [--json] [--lang zh-CN]``.

Exit codes: 0 the phase was resolved; 2 the file is bad (each problem printed as
``path: message`` on standard error, no traceback); 1 the engine failed while resolving
(a bug: the seed is printed so the run can be repeated).
"""

from __future__ import annotations

import argparse
import json
import sys
import traceback

from bot.i18n.terms import lang_of
from bot.scenario import (
    Scenario,
    ScenarioError,
    load,
    run_many,
    run_once,
    single_json,
    single_text,
    stats_text,
)

MAX_REPEAT = 1_000_000


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The subcommand's options."""
    parser.add_argument("file", help="the scenario, a TOML file (format: docs/scenario.md)")
    parser.add_argument("--seed", help="the seed (default: the file's `seed`, else 'scenario'); with --repeat, the base of the run seeds")
    parser.add_argument("--repeat", type=int, metavar="N", help="run N times (seeds BASE#0 .. BASE#N-1) and print how often each outcome came up")
    parser.add_argument("--json", action="store_true", help="machine-readable output")
    parser.add_argument("--lang", default="en-US", choices=["en-US", "en", "zh-CN", "zh"], help="language of the text (default en-US)")
    parser.add_argument("--traceback", action="store_true", help="show the traceback when the engine itself fails")


def run(args: argparse.Namespace) -> int:
    """Load, check and resolve; return the exit code."""
    lang = lang_of(args.lang)
    locale = "zh-CN" if lang == "zh" else "en-US"
    if args.repeat is not None and not 1 <= args.repeat <= MAX_REPEAT:
        print(f"--repeat: must be from 1 to {MAX_REPEAT}, got {args.repeat}", file=sys.stderr)
        return 2
    try:
        scenario = load(args.file, locale)
    except ScenarioError as exc:
        for problem in exc.problems:
            print(f"{args.file}: {problem}", file=sys.stderr)
        return 2
    seed = args.seed if args.seed is not None else scenario.spec.seed
    try:
        text = _resolve(scenario, seed, args.repeat, args.json, lang)
    except Exception as exc:  # an engine bug must not look like a bad file
        if args.traceback:
            traceback.print_exc()
        print(f"{args.file}: the engine failed while resolving (seed {seed!r}): {type(exc).__name__}: {exc}", file=sys.stderr)
        return 1
    try:
        print(text)
        sys.stdout.flush()
    except BrokenPipeError:  # `| head` closed the pipe: not an error of ours
        sys.stderr.close()
    return 0


def _resolve(scenario: Scenario, seed: str, repeat: int | None, as_json: bool, lang: str) -> str:
    lg = lang_of(lang)
    if repeat is None:
        outcome = run_once(scenario, seed)
        if as_json:
            return json.dumps(single_json(scenario, seed, outcome, lg), ensure_ascii=False, indent=2)
        return single_text(scenario, seed, outcome, lg)
    stats = run_many(scenario, seed, repeat)
    if as_json:
        return json.dumps({"title": scenario.title, "file": scenario.source, **stats.to_dict()}, ensure_ascii=False, indent=2)
    return stats_text(scenario, stats, lg)
