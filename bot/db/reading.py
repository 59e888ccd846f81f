"""A handle on an existing database, for a tool that only reads it (``wolfhowl health``,
``wolfhowl games``, ``wolfhowl export``): it never creates a SQLite file that is not
there."""

from __future__ import annotations

from pathlib import Path

from sqlalchemy.engine import make_url

from bot.db.session import Database
from bot.db.where import DatabaseProblem, describe, parse


def open_existing(url: str) -> Database:
    """A handle on the database at ``url``; DatabaseProblem for a SQLite file that does
    not exist (looking must not leave an empty one behind)."""
    u = parse(url)
    if u.get_backend_name() == "sqlite" and u.database and u.database != ":memory:" and not Path(u.database).exists():
        raise DatabaseProblem(f"no database at {describe(make_url(url))} (`wolfhowl db upgrade` creates it)")
    return Database(url)
