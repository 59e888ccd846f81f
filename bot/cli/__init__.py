"""The ``wolfhowl`` command (the package holds every command-line front end). Each
subcommand lives in its own module of this package, imported only when used, exposing
``add_arguments(parser)`` and ``run(args) -> int`` (the exit code)."""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from bot import features

SUBCOMMANDS: dict[str, tuple[str, str]] = {
    "demo": ("bot.cli.demo", "play a whole game on the built-in local Discord"),
    "run": ("bot.cli.run", "run the bot against Discord"),
    "simulate": ("bot.cli.simulate", "play many games between baseline AI players and report"),
    "scenario": ("bot.cli.scenario", "what-if: resolve one phase from a TOML file"),
    "db": ("bot.cli.db", "database maintenance (upgrade, downgrade, current)"),
    "verify": ("bot.cli.verify", "replay an exported game log and confirm every roll"),
    "export": ("bot.cli.export", "a finished game's replay page (HTML) or log (JSON), from the database"),
    "games": ("bot.cli.games", "live and recent games: server, channel, phase, deadline, messages waiting"),
    "health": ("bot.cli.health", "is the running bot well: connected, database reachable, outbox flowing (exit 0/1)"),
}


def build_parser(chosen: str | None = None) -> argparse.ArgumentParser:
    """The parser; only the chosen subcommand's module is imported (a tool that needs no
    Discord or database should not pay for importing them)."""
    parser = argparse.ArgumentParser(prog="wolfhowl", description="Wolf Howl Tavern game-master bot")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name, (module, help_text) in SUBCOMMANDS.items():
        p = sub.add_parser(name, help=help_text, description=help_text)
        if name != chosen:
            continue
        try:
            mod = importlib.import_module(module)
        except ModuleNotFoundError as exc:
            if exc.name is not None and module.startswith(exc.name):
                p.set_defaults(_missing=module)
                continue
            raise
        mod.add_arguments(p)
        p.set_defaults(_run=mod.run)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    chosen = next((a for a in argv if not a.startswith("-")), None)
    args = build_parser(chosen).parse_args(argv)
    if getattr(args, "_missing", None):
        print(f"wolfhowl {args.command}: not available in this build ({args._missing})", file=sys.stderr)
        return 2
    features.load()  # every feature's handlers, before a command uses the service
    return int(args._run(args) or 0)

