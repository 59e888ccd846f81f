"""``wolfhowl db upgrade|downgrade|current|check|backfill|ratings [--url URL]``: database
maintenance. ``check [REVISION]`` says, before it is done, what upgrading (or
downgrading) to REVISION would do to which games (bot.features.ops.db_check). ``backfill`` writes the records of games that ended before records were
kept, and the reliability figures of records kept before those; ``ratings`` checks the stored ratings against a replay of the records, and with
``--rebuild`` rewrites them from it (the work itself is in the service)."""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path

from alembic.util.exc import CommandError
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError, SQLAlchemyError

from bot.cli import database
from bot.db import migrate
from bot.db.session import Database
from bot.db.where import describe, moved, problem
from bot.features.ops.db_check import check_database
from bot.features.records.backfill import backfill_all
from bot.features.records.ratings import rebuild as rebuild_all
from bot.features.records.ratings import stored_matches_replay
from bot.features.stats.privacy import forget_leftovers


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("action", choices=("upgrade", "downgrade", "current", "check", "backfill", "ratings"))
    parser.add_argument(
        "revision",
        nargs="?",
        help="target revision (upgrade and check: head by default; downgrade: required, e.g. base or -1; check: a revision or base)",
    )
    database.add_arguments(parser)
    parser.add_argument("--rebuild", action="store_true", help="ratings: rebuild every rating from the records")


def run(args: argparse.Namespace) -> int:
    url = database.url_or_say_why(args, f"db {args.action}")
    if url is None:
        return 2
    if args.action != "upgrade" and (missing := _missing_sqlite_file(url)):
        # Looking must not create: opening a missing SQLite file would leave an empty one.
        print(f"wolfhowl db {args.action}: no database file at {missing} (`wolfhowl db upgrade` creates it)", file=sys.stderr)
        return 1
    try:
        where = describe(url)
        if args.action == "upgrade":
            before, after = asyncio.run(migrate.upgrade(url, args.revision or "head"))
            print(moved(where, before, after))
            if after == migrate.head_revision() and (finished := asyncio.run(_forget_leftovers(url))):
                print(f"{where}: finished forgetting {finished} seat(s) whose player had asked to be forgotten")
        elif args.action == "downgrade":
            if not args.revision:
                print("wolfhowl db downgrade: name the target revision (e.g. base or -1)", file=sys.stderr)
                return 2
            before = asyncio.run(migrate.current(url))
            asyncio.run(migrate.downgrade(url, args.revision))
            print(f"{where}: downgraded from {before or 'empty'} to {_reached(url)}")
        elif args.action == "check":
            print(where)
            for line in asyncio.run(check_database(url, args.revision)).lines():
                print(line)
        elif args.action in ("backfill", "ratings"):
            return asyncio.run(_records(url, args.action, args.rebuild))
        else:
            rev = asyncio.run(migrate.current(url))
            head = migrate.head_revision()
            state = "up to date" if rev == head else f"head is {head}"
            print(f"{where}: {rev or 'empty (not migrated)'} ({state})")
    except (migrate.DowngradeRefused, migrate.ForeignKeysBroken) as exc:
        print(f"wolfhowl db {args.action}: {exc}", file=sys.stderr)
        return 1
    except CommandError as exc:
        # A revision that does not exist: alembic's first line says which.
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        print(f"wolfhowl db {args.action}: {first}", file=sys.stderr)
        return 1
    except (OSError, ValueError, SQLAlchemyError) as exc:
        # A URL that does not parse or of another kind, a SQLite folder that is not
        # there, a server that is not there: said in one line, naming the database.
        print(f"wolfhowl db {args.action}: {problem(url, exc)}", file=sys.stderr)
        return 1
    return 0


async def _records(url: str, action: str, rebuild: bool) -> int:
    """``backfill``, or ``ratings`` checked (exit 1 when one differs) or rebuilt."""
    async with Database(url) as db:
        if action == "backfill":
            done = await backfill_all(db)
            print(f"records written for {done.games} finished game(s)" if done.games else "every finished game has its records")
            if done.reliability:
                print(f"reliability figures written for {done.reliability} seat record(s)")
            if done.guesses:
                print(f"identification figures written for {done.guesses} seat record(s)")
            return 0
        if rebuild:
            count = await rebuild_all(db)
            print(f"ratings rebuilt from the records: {count} standing(s)")
            return 0
        differ = await stored_matches_replay(db)
        if differ:
            print(f"{len(differ)} standing(s) differ from a replay of the records (`wolfhowl db ratings --rebuild` rewrites them)")
            return 1
        print("every rating matches a replay of the records")
        return 0


async def _forget_leftovers(url: str) -> int:
    async with Database(url) as db:
        return await forget_leftovers(db)


def _reached(url: str) -> str:
    """The revision the database is at now (a relative target such as -1 or +1 named)."""
    return asyncio.run(migrate.current(url)) or "base (empty)"


def _missing_sqlite_file(url: str) -> str | None:
    """The path of a SQLite database file that does not exist, else None (another
    database, an in-memory one, or a URL that does not parse: the command says why)."""
    try:
        u = make_url(url)
    except ArgumentError:
        return None
    if u.get_backend_name() != "sqlite" or not u.database or u.database == ":memory:":
        return None
    return None if Path(u.database).exists() else u.database
