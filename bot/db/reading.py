"""A handle on an existing database, for a tool that only reads it (``wolfhowl health``,
``wolfhowl games``, ``wolfhowl export``): it never creates a SQLite file that is not
there. And one connection of its own, outside any pool, for a tool that reads whatever
schema the database has (``wolfhowl db check``: plain SQL, on SQLAlchemy's synchronous
side)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from sqlalchemy import Connection
from sqlalchemy.engine import make_url
from sqlalchemy.pool import NullPool

from bot.db.session import Database, make_engine
from bot.db.where import DatabaseProblem, describe, parse

__all__ = ["Connection", "on_own_connection", "open_existing"]

T = TypeVar("T")


def open_existing(url: str) -> Database:
    """A handle on the database at ``url``; DatabaseProblem for a SQLite file that does
    not exist (looking must not leave an empty one behind)."""
    u = parse(url)
    if u.get_backend_name() == "sqlite" and u.database and u.database != ":memory:" and not Path(u.database).exists():
        raise DatabaseProblem(f"no database at {describe(make_url(url))} (`wolfhowl db upgrade` creates it)")
    return Database(url)


async def on_own_connection(url: str, fn: Callable[..., T], *args: Any) -> T:
    """``fn(connection, *args)`` on a connection of its own to the database at ``url``
    (a ``Connection``: SQLAlchemy's synchronous side), outside any pool, rolled back
    after: it reads only."""
    eng = make_engine(url, poolclass=NullPool)
    try:
        async with eng.connect() as conn:
            result: T = await conn.run_sync(fn, *args)
            await conn.rollback()
            return result
    finally:
        await eng.dispose()
