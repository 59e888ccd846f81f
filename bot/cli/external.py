"""``python -m bot.cli.external``: a game on the local Discord for a bot that runs
elsewhere (:mod:`bot.sandbox.external` says what it checks)."""

from __future__ import annotations

import argparse
import asyncio
import sys

from bot.sandbox import external
from bot.sandbox.external import ExternalOptions, play


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bot.cli.external",
        description=external.__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--host", default="127.0.0.1", help="address to serve on (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=8765, help="port to serve on (default 8765)")
    parser.add_argument("--players", type=int, default=6, help="players at the table, 6 to 15 (default 6)")
    parser.add_argument("--restart", action="store_true", help="also check the game survives a restart of the bot")
    parser.add_argument("--timeout", type=float, default=300.0, help="seconds to wait for each step (default 300)")
    args = parser.parse_args(argv)
    return asyncio.run(play(ExternalOptions(args.host, args.port, args.players, args.restart, args.timeout)))


if __name__ == "__main__":
    sys.exit(main())
