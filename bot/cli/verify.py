"""``wolfhowl verify LOG.json``: replay an exported game and confirm every roll, event and
state. Exit 0 with a summary; 1 naming the first mismatch; 2 when the file cannot be read
or is not a complete game log."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from bot.features.replay.verify import LogFormatError, verify_log


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("log", type=Path, help="a game log exported after the end of the game (JSON)")


def run(args: argparse.Namespace) -> int:
    try:
        data = json.loads(Path(args.log).read_text(encoding="utf-8"))
    except OSError as exc:
        print(f"wolfhowl verify: cannot read {args.log}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError) as exc:
        print(f"wolfhowl verify: {args.log} is not JSON ({exc})", file=sys.stderr)
        return 2
    try:
        report = verify_log(data)
    except LogFormatError as exc:
        print(f"wolfhowl verify: {args.log}: {exc}", file=sys.stderr)
        return 2
    print(report.summary())
    return 0 if report.ok else 1
