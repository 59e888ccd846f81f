"""``python -m bot.cli.docs_gen`` writes the player documents (docs/rules.md,
docs/rules.zh.md, docs/scenario.md) with :mod:`bot.docs_gen`; ``--check`` exits 1 when
the committed files differ from what the templates and the class data give (CI runs this
through tests/docs)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from bot.docs_gen.generate import ROOT, TEMPLATES, TemplateError, stale, write_all


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.cli.docs_gen", description="generate the player rules documents from the templates and the class data")
    parser.add_argument("--check", action="store_true", help="do not write: exit 1 if the committed documents are out of date")
    parser.add_argument("--root", type=Path, default=ROOT, help="repository root (default: this checkout)")
    args = parser.parse_args(argv)
    try:
        if args.check:
            out = stale(args.root, TEMPLATES)
            for name, diff in out.items():
                print(f"{name} is out of date with the class data or its template:\n{diff}\n", file=sys.stderr)
            if out:
                print("Run `python -m bot.cli.docs_gen` and commit the result.", file=sys.stderr)
                return 1
            print("docs up to date")
            return 0
        for path in write_all(args.root, TEMPLATES):
            print(f"wrote {path}")
        return 0
    except TemplateError as exc:
        print(exc, file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
