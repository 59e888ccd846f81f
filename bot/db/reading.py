"""The configured database, for a tool that only reads it (``wolfhowl health``,
``wolfhowl games``): its URL from ``--url``, or from the settings (``--config FILE``,
``WOLFHOWL_CONFIG``, ``./config.toml`` and the ``WOLFHOWL_*`` variables), and a handle
that never creates a SQLite file that is not there."""

from __future__ import annotations

import argparse
from pathlib import Path

from sqlalchemy.engine import make_url

from bot.db.session import Database
from bot.db.where import DatabaseProblem, describe, parse


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--config", metavar="FILE", help="settings file (default: config.toml or $WOLFHOWL_CONFIG)")
    parser.add_argument("--url", help="database URL (default: database_url from the settings)")


def configured_url(args: argparse.Namespace) -> str:
    """``--url``, else the settings' ``database_url`` (ConfigError when they cannot be read)."""
    if args.url:
        return str(args.url)
    from bot.discord.config import config_for_command

    return config_for_command(args.config).database_url


def open_existing(url: str) -> Database:
    """A handle on the database at ``url``; DatabaseProblem for a SQLite file that does
    not exist (looking must not leave an empty one behind)."""
    u = parse(url)
    if u.get_backend_name() == "sqlite" and u.database and u.database != ":memory:" and not Path(u.database).exists():
        raise DatabaseProblem(f"no database at {describe(make_url(url))} (`wolfhowl db upgrade` creates it)")
    return Database(url)
