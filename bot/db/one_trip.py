"""One trip to aiosqlite's thread per SQL statement, instead of four.

aiosqlite runs every sqlite3 call on a thread of its own and hands each result back to
the event loop; SQLAlchemy's adapter makes four such calls per statement (open a cursor,
execute, fetch the rows, close the cursor). Each hand-off costs the event loop a queue
put, a wake-up of the worker thread and of the loop (a self-pipe write, an epoll
return) and a GIL switch both ways: for the small statements of a player's interaction
that fixed cost is most of the CPU of running them. The cursor here does the four calls
in one function on the worker thread and keeps what SQLAlchemy reads afterwards (the
rows, ``description``, ``rowcount``, ``lastrowid``); nothing else changes: the same
sqlite3 connection, the same statements, the same order, the same errors (SQLAlchemy's
adapter translates them as before).

It uses two private names of aiosqlite (``Connection._execute``: run a function on the
connection's thread; ``Connection._conn``: the sqlite3 connection) and SQLAlchemy's
adapter classes; ``tests/db/test_session.py`` checks that every statement makes one trip.
"""

from __future__ import annotations

import collections
import sqlite3
from typing import Any

from sqlalchemy.dialects.sqlite.aiosqlite import (
    AsyncAdapt_aiosqlite_connection,
    AsyncAdapt_aiosqlite_cursor,
)


class _Ran:
    """What a statement left on its sqlite3 cursor, which is already closed."""

    __slots__ = ("description", "lastrowid", "rowcount", "rows")

    def __init__(self, description: Any = None, rowcount: int = -1, lastrowid: int | None = None, rows: list[Any] | None = None) -> None:
        self.description = description
        self.rowcount = rowcount
        self.lastrowid = lastrowid
        self.rows = rows or []

    def close(self) -> None:
        """Nothing left open: the sqlite3 cursor was closed on the worker thread."""


def _run(connection: Any, many: bool, operation: str, parameters: Any) -> _Ran:
    """On aiosqlite's thread: one statement from cursor to close."""
    cursor: sqlite3.Cursor = connection._conn.cursor()
    try:
        if many:
            cursor.executemany(operation, parameters)
        elif parameters is None:
            cursor.execute(operation)
        else:
            cursor.execute(operation, parameters)
        rows = cursor.fetchall() if cursor.description else []
        return _Ran(cursor.description, cursor.rowcount, cursor.lastrowid, rows)
    finally:
        cursor.close()


class OneTripCursor(AsyncAdapt_aiosqlite_cursor):
    """SQLAlchemy's aiosqlite cursor, with each statement run in one trip."""

    __slots__ = ()
    _awaitable_cursor_close = False  # closing has nothing to wait for

    def _make_new_cursor(self, connection: Any) -> Any:
        return _Ran()

    def _aenter_cursor(self, cursor: Any) -> Any:
        return cursor

    async def _execute_async(self, operation: Any, parameters: Any) -> Any:
        async with self._adapt_connection._execute_mutex:
            ran = await self._connection._execute(_run, self._connection, False, operation, parameters)
            self._cursor = ran
            self._rows = collections.deque(ran.rows)
            return ran

    async def _executemany_async(self, operation: Any, seq_of_parameters: Any) -> Any:
        async with self._adapt_connection._execute_mutex:
            ran = await self._connection._execute(_run, self._connection, True, operation, seq_of_parameters)
            self._cursor = ran
            return ran


class OneTripConnection(AsyncAdapt_aiosqlite_connection):
    """SQLAlchemy's aiosqlite connection, handing out :class:`OneTripCursor`."""

    __slots__ = ()
    _cursor_cls = OneTripCursor


def use_one_trip(dbapi_connection: Any) -> None:
    """Give a freshly opened aiosqlite connection (SQLAlchemy's adapter of it) the
    one-trip cursor; from the engine's ``connect`` event."""
    if type(dbapi_connection) is AsyncAdapt_aiosqlite_connection:
        dbapi_connection.__class__ = OneTripConnection
