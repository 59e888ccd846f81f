"""``python -m bot.scenario FILE.toml ...``: the same as ``wolfhowl scenario``, without
loading the other subcommands (the bot, the database) first."""

from __future__ import annotations

import argparse
import sys

from bot.scenario.cli import add_arguments, run


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="wolfhowl scenario", description="what-if: resolve one phase from a TOML file")
    add_arguments(parser)
    return run(parser.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
