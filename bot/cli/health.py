"""``wolfhowl health``: one line and exit 0 when the bot is well, exit 1 otherwise (what
a Docker HEALTHCHECK expects): the running bot connected to Discord recently (its
heartbeat), the database reachable, the outbox not stuck. Needs no Discord connection."""

from __future__ import annotations

import argparse
import asyncio

from sqlalchemy.exc import SQLAlchemyError

from bot.cli import database
from bot.config import ConfigError
from bot.core.processes import this_host
from bot.db.reading import open_existing
from bot.db.where import problem
from bot.features.ops.health import STALE_SECONDS, STUCK_SECONDS, check


def add_arguments(parser: argparse.ArgumentParser) -> None:
    database.add_arguments(parser)
    parser.add_argument("--any-host", action="store_true", help="accept any bot process's heartbeat (default: this host's only)")
    parser.add_argument("--stale", type=float, default=STALE_SECONDS, metavar="SECONDS", help=f"a heartbeat older than this is not connected (default {STALE_SECONDS})")
    parser.add_argument("--stuck", type=float, default=STUCK_SECONDS, metavar="SECONDS", help=f"a message due for longer than this is stuck (default {STUCK_SECONDS})")
    parser.add_argument("--timeout", type=float, default=10.0, metavar="SECONDS", help="give up on the database after this long (default 10)")


def run(args: argparse.Namespace) -> int:
    try:
        url = database.configured_url(args)
    except ConfigError as exc:
        return _say(False, f"unhealthy: {exc}")

    async def probe() -> tuple[bool, str]:
        db = open_existing(url)
        try:
            verdict = await asyncio.wait_for(
                check(db, host=None if args.any_host else this_host(), stale_seconds=args.stale, stuck_seconds=args.stuck), args.timeout
            )
        finally:
            await db.dispose()
        return verdict.ok, verdict.line

    try:
        ok, line = asyncio.run(probe())
    except TimeoutError:
        ok, line = False, f"unhealthy: {problem(url, TimeoutError(f'no answer within {args.timeout:g} s'))}"
    except (OSError, ValueError, SQLAlchemyError) as exc:
        ok, line = False, f"unhealthy: {problem(url, exc)}"
    return _say(ok, line)


def _say(ok: bool, line: str) -> int:
    print(line)
    return 0 if ok else 1
