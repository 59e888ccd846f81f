"""``wolfhowl games``: the live games and those that ended lately, one line each (server
and channel ids, status, round and phase, deadline, messages waiting), read from the
database with no Discord connection. ``--json`` for scripts."""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from datetime import UTC, datetime

from sqlalchemy.exc import SQLAlchemyError

from bot.cli import database
from bot.db.reading import open_existing
from bot.db.where import problem
from bot.features.ops.overview import GameLine, games_overview

HEADERS = ("game", "server", "channel", "status", "phase", "deadline", "players", "waiting")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    database.add_arguments(parser)
    parser.add_argument("--days", type=float, default=7, metavar="N", help="also list games that ended in the last N days (default 7)")
    parser.add_argument("--json", action="store_true", help="one JSON object per game instead of a table")


def run(args: argparse.Namespace) -> int:
    url = database.url_or_say_why(args, "games")
    if url is None:
        return 2

    async def read() -> tuple[datetime, list[GameLine]]:
        db = open_existing(url)
        try:
            return db.now(), await games_overview(db, recent_days=args.days)
        finally:
            await db.dispose()

    try:
        now, games = asyncio.run(read())
    except (OSError, ValueError, SQLAlchemyError) as exc:
        print(f"wolfhowl games: {problem(url, exc)}", file=sys.stderr)
        return 1
    if args.json:
        for g in games:
            print(json.dumps(as_json(g)))
        return 0
    if not games:
        print(f"no live games, and none ended in the last {args.days:g} days")
        return 0
    rows = [HEADERS, *(cells(g, now) for g in games)]
    widths = [max(len(r[i]) for r in rows) for i in range(len(HEADERS))]
    for r in rows:
        print("  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip())
    return 0


def cells(g: GameLine, now: datetime) -> tuple[str, ...]:
    phase = f"round {g.round} {g.phase}" if g.phase else "-"
    if g.status in ("over", "cancelled"):
        deadline = f"ended {_when(g.ended_at)}" + (f" ({g.end_reason})" if g.end_reason else "")
    elif g.status == "paused":
        deadline = f"paused, {_span(g.paused_remaining or 0)} left"
    elif g.deadline is not None:
        left = (g.deadline - now).total_seconds()
        deadline = f"{_when(g.deadline)} ({'in ' + _span(left) if left >= 0 else _span(-left) + ' overdue'})"
    else:
        deadline = "-"
    waiting = "-" if not g.waiting else f"{g.waiting} since {_when(g.oldest_waiting)}"
    return (str(g.id), str(g.guild_id), str(g.channel_id), g.status, phase, deadline, str(g.players), waiting)


def as_json(g: GameLine) -> dict[str, object]:
    out: dict[str, object] = {}
    for name in GameLine.__dataclass_fields__:
        value = getattr(g, name)
        out[name] = value.isoformat() if isinstance(value, datetime) else value
    return out


def _when(at: datetime | None) -> str:
    return at.astimezone(UTC).strftime("%Y-%m-%d %H:%M UTC") if at else "-"


def _span(seconds: float) -> str:
    s = int(seconds)
    if s < 3600:
        return f"{s // 60} min"
    if s < 86400:
        return f"{s // 3600} h {s % 3600 // 60} min"
    return f"{s // 86400} d {s % 86400 // 3600} h"
