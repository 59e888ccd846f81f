"""``wolfhowl demo``'s options, checked, for the game of :mod:`bot.sandbox.demo` (one
whole game on the built-in local Discord)."""

from __future__ import annotations

import argparse
import dataclasses
import logging
import sys
from pathlib import Path

from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError

from bot import event_loop
from bot.sandbox.demo import LANGS, DemoOptions, demo


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--players",
        type=int,
        default=15,
        metavar="N",
        help="players at the table, 6 to 15 (default 15)",
    )
    parser.add_argument(
        "--seed",
        metavar="S",
        help="replay a game: the same seed plays the same game (default: a new one)",
    )
    parser.add_argument(
        "--show-dms", action="store_true", help="also print what each player received privately"
    )
    parser.add_argument(
        "--lang",
        choices=LANGS,
        default="en-US",
        help="the game's language: its public posts, and every scripted player's own (default en-US)",
    )
    parser.add_argument(
        "--deadlines",
        action="store_true",
        help="let the deadlines close the phases (no moderator advance)",
    )
    parser.add_argument(
        "--speed",
        type=float,
        default=None,
        metavar="X",
        help="game clock speed (default 20 with --deadlines, else 1)",
    )
    parser.add_argument(
        "--reveal-on-death",
        action="store_true",
        help="announce a departed player's class and faction",
    )
    parser.add_argument(
        "--closed-dms",
        type=int,
        default=1,
        metavar="N",
        help="players whose DMs are closed to the bot (default 1)",
    )
    parser.add_argument(
        "--absent",
        action="store_true",
        help="a slow game: day-long phases (the clock jumps to each deadline), two players "
        "go quiet, a standby takes one seat, the other is removed",
    )
    parser.add_argument(
        "--database", metavar="URL", help="database URL (default: a temporary SQLite file)"
    )
    parser.add_argument(
        "--ai-seats",
        type=int,
        default=0,
        metavar="N",
        help="of the --players seats, N played by the bot's AI (at least one left to a person; implies --deadlines)",
    )
    parser.add_argument(
        "--spectators",
        type=int,
        default=0,
        metavar="N",
        help="N server members who do not play: they watch from the gallery (quiet dead on) and predict the winner each round",
    )
    parser.add_argument(
        "--practice",
        action="store_true",
        help="a practice game instead: one person against --players - 1 AI seats, started with /practice start and played in their DMs with the bot",
    )
    parser.add_argument("--quiet", action="store_true", help="print only the summary")
    parser.add_argument(
        "--save-attachments",
        metavar="DIR",
        type=Path,
        help="save the files the bot attached (the scoreboard chart, ...) into DIR",
    )


def run(args: argparse.Namespace) -> int:
    if not 6 <= args.players <= 15:
        print("wolfhowl demo: --players must be 6 to 15", file=sys.stderr)
        return 2
    if args.save_attachments is not None and args.save_attachments.exists() and not args.save_attachments.is_dir():
        print(f"wolfhowl demo: --save-attachments {args.save_attachments} is not a folder", file=sys.stderr)
        return 2
    if not 0 <= args.ai_seats < args.players:
        print("wolfhowl demo: --ai-seats must be 0 to --players - 1 (a game needs a person)", file=sys.stderr)
        return 2
    if not 0 <= args.spectators <= 25:
        print("wolfhowl demo: --spectators must be 0 to 25", file=sys.stderr)
        return 2
    if args.spectators and (args.absent or args.practice):
        print("wolfhowl demo: --spectators goes with a table game (not --absent nor --practice)", file=sys.stderr)
        return 2
    if args.ai_seats:
        args.deadlines = True  # the AI plays at its own moment: the phases close when all have sent
    if args.speed is not None and not 0 < args.speed <= 10_000:
        print("wolfhowl demo: --speed must be above 0 (and at most 10000)", file=sys.stderr)
        return 2
    if args.database is not None:
        try:
            make_url(args.database)
        except ArgumentError:
            print(f"wolfhowl demo: --database {args.database!r} is not a database URL", file=sys.stderr)
            return 2
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    logging.getLogger("discord.client").setLevel(logging.ERROR)  # "PyNaCl is not installed"
    try:
        return event_loop.run(demo(DemoOptions(**{f.name: getattr(args, f.name) for f in dataclasses.fields(DemoOptions)})))
    except KeyboardInterrupt:
        return 130
