"""One trip to aiosqlite's thread per SQL statement, instead of four; the BEGIN of a
unit of work rides with its first statement.

aiosqlite runs every sqlite3 call on a thread of its own and hands each result back to
the event loop; SQLAlchemy's adapter makes four such calls per statement (open a cursor,
execute, fetch the rows, close the cursor). Each hand-off costs the event loop a queue
put, a wake-up of the worker thread and of the loop (a self-pipe write, an epoll
return) and a GIL switch both ways: for the small statements of a player's interaction
that fixed cost is most of the CPU of running them. The cursor here does the four calls
in one function on the worker thread and keeps what SQLAlchemy reads afterwards (the
rows, ``description``, ``rowcount``, ``lastrowid``); nothing else changes: the same
sqlite3 connection, the same statements, the same order, the same errors (SQLAlchemy's
adapter translates them as before). A unit of work begins when it runs its first
statement, so its ``BEGIN`` (``bot.db.session``) is held back and run in that
statement's trip: the write lock of a ``BEGIN IMMEDIATE`` is taken at the same moment.

It uses two private names of aiosqlite (``Connection._execute``: run a function on the
connection's thread; ``Connection._conn``: the sqlite3 connection) and SQLAlchemy's
adapter classes; ``tests/db/test_session.py`` checks that every statement makes one trip.
"""

from __future__ import annotations

import collections
import sqlite3
import weakref
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


# The BEGIN held back for each aiosqlite connection until its next statement.
_BEGIN: weakref.WeakKeyDictionary[Any, str] = weakref.WeakKeyDictionary()


def _run(connection: Any, begin: str | None, many: bool, operation: str, parameters: Any) -> _Ran:
    """On aiosqlite's thread: the held-back BEGIN if any, then one statement from cursor
    to close."""
    if begin is not None:
        connection._conn.execute(begin).close()
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

    async def _trip(self, many: bool, operation: Any, parameters: Any) -> Any:
        async with self._adapt_connection._execute_mutex:
            begin = _BEGIN.pop(self._connection, None)
            ran = await self._connection._execute(_run, self._connection, begin, many, operation, parameters)
            self._cursor = ran
            self._rows = collections.deque(ran.rows)  # none after executemany: sqlite3 returns no rows there
            return ran

    async def _execute_async(self, operation: Any, parameters: Any) -> Any:
        return await self._trip(False, operation, parameters)

    async def _executemany_async(self, operation: Any, seq_of_parameters: Any) -> Any:
        return await self._trip(True, operation, seq_of_parameters)


class OneTripConnection(AsyncAdapt_aiosqlite_connection):
    """SQLAlchemy's aiosqlite connection, handing out :class:`OneTripCursor`."""

    __slots__ = ()
    _cursor_cls = OneTripCursor

    def commit(self) -> None:
        # Not when the unit's BEGIN is still held back (nothing was run), nor when no
        # transaction is open (a read in autocommit: sqlite3 knows without asking the
        # database). A commit follows the unit's last statement, so no trip is in flight.
        if _BEGIN.pop(self._connection, None) is None and self._connection.in_transaction:
            super().commit()

    def rollback(self) -> None:
        # Always a trip, unless nothing was run: a unit cancelled while its first
        # statement is on aiosqlite's thread has no transaction open *yet*, and its
        # rollback must queue behind that statement, not skip it.
        if _BEGIN.pop(self._connection, None) is None:
            super().rollback()


def begin_with_next_statement(dbapi_connection: Any, begin: str) -> bool:
    """Hold ``begin`` back to run with the connection's next statement; False when the
    connection is not one of :class:`OneTripConnection` (run it now)."""
    if type(dbapi_connection) is not OneTripConnection:
        return False
    _BEGIN[dbapi_connection._connection] = begin
    return True


def use_one_trip(dbapi_connection: Any) -> None:
    """Give a freshly opened aiosqlite connection (SQLAlchemy's adapter of it) the
    one-trip cursor; from the engine's ``connect`` event."""
    if type(dbapi_connection) is AsyncAdapt_aiosqlite_connection:
        dbapi_connection.__class__ = OneTripConnection
