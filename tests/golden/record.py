"""Record the golden games again: ``python -m tests.golden.record [NAME ...]``.

Only after a change that is meant to alter the games: it plays each case's AI game
afresh and overwrites its data file; ``git diff tests/golden/data`` then shows every
event, roll and state that the change altered. With ``--check`` it writes nothing and
exits 1 if a data file differs from a fresh replay of its own submissions (what the
test checks).
"""

from __future__ import annotations

import argparse
import sys

from tests.golden.cases import CASES, record_steps, replay, stored_steps, text


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.golden.record", description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", help="cases to record (default: all)")
    parser.add_argument("--check", action="store_true", help="compare only, write nothing")
    args = parser.parse_args(argv)
    unknown = set(args.names) - {c.name for c in CASES}
    if unknown:
        parser.error(f"no such case: {', '.join(sorted(unknown))}")
    differ = 0
    for case in CASES:
        if args.names and case.name not in args.names:
            continue
        if args.check:
            kept = case.path.read_text(encoding="utf-8")
            same = text(replay(case, stored_steps(kept))) == kept
            differ += not same
            print(f"{case.name}: {'same' if same else 'DIFFERS'}")
            continue
        case.path.parent.mkdir(parents=True, exist_ok=True)
        case.path.write_text(text(replay(case, record_steps(case), adjust=True)), encoding="utf-8")
        print(f"{case.name}: recorded {case.path}")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
