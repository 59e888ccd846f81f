"""``wolfhowl export GAME [--format html|json] [--out FILE] [--lang LOCALE] [--config FILE]
[--url URL]``: a finished game's replay page or its log, straight from the database (no
Discord connection; the database as ``wolfhowl games`` finds it, ``bot.cli.database``). The JSON is exactly what
``/mod log`` gives and ``wolfhowl verify`` checks. Exit 0 having written the file; 1 when
the game is not there or not over; 2 for a bad configuration."""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path
from typing import Any

from sqlalchemy.exc import SQLAlchemyError

from bot.cli import database
from bot.core.errors import ServiceError
from bot.db.reading import open_existing
from bot.db.where import DatabaseProblem
from bot.features.replay.export import export_finished, log_bytes
from bot.features.replay.look import replay_html
from bot.i18n import LOCALES
from bot.render.refusals import service_refusal


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game", type=int, help="the game's number (as /game history and the posts show it)")
    parser.add_argument("--format", choices=("html", "json"), default="html", help="html: the replay page (default); json: the game log")
    parser.add_argument("--out", help="the file to write (default: wolfhowl-game-GAME.html or .json here; - for standard output)")
    parser.add_argument("--lang", choices=LOCALES, help="the replay's language (default: the game's)")
    database.add_arguments(parser)


async def _export(url: str, game_id: int) -> dict[str, Any]:
    db = open_existing(url)
    try:
        return await export_finished(db, game_id)
    finally:
        await db.dispose()


def run(args: argparse.Namespace) -> int:
    url = database.url_or_say_why(args, "export")
    if url is None:
        return 2
    try:
        log = asyncio.run(_export(url, args.game))
    except ServiceError as exc:
        print(f"wolfhowl export: {service_refusal(exc)}", file=sys.stderr)
        return 1
    except DatabaseProblem as exc:
        print(f"wolfhowl export: {exc}", file=sys.stderr)
        return 1
    except (OSError, ValueError, SQLAlchemyError) as exc:
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        print(f"wolfhowl export: {first}", file=sys.stderr)
        return 1
    data = log_bytes(log) if args.format == "json" else replay_html(log, args.lang).encode()
    out = args.out or f"wolfhowl-game-{args.game}.{args.format}"
    if out == "-":
        sys.stdout.buffer.write(data)
        sys.stdout.flush()
        return 0
    try:
        Path(out).write_bytes(data)
    except OSError as exc:
        print(f"wolfhowl export: cannot write {out}: {exc.strerror or exc}", file=sys.stderr)
        return 1
    print(f"game #{args.game} written to {out} ({args.format}, {len(data):,} bytes)")
    return 0
