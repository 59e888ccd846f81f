"""The database handle: an async engine for SQLite (aiosqlite) or PostgreSQL (asyncpg),
and units of work around it.

SQLite is opened in WAL mode with foreign keys on and a busy timeout, and every writing
transaction starts with ``BEGIN IMMEDIATE``: it takes the database's write lock at once,
so two writers queue on the busy timeout instead of both reading and then failing to
upgrade their lock. Within one process the writers also queue in order on an asyncio
lock before they take a connection: SQLite's busy handler polls with sleeps of up to
100 ms, so under load a writer waiting on it idles while the lock is free, and every
waiter holds a pooled connection the readers then lack. The busy timeout still orders
writers from other processes. A connection goes back to the pool without the pool's
rollback when its unit of work ended (see ``_on_return``).

On PostgreSQL the service locks the game row (``SELECT … FOR UPDATE``) at the start of
each writing unit of work instead; see ``bot.core``. A pooled PostgreSQL connection
is checked before it is handed out without a trip to the server (``_postgres_events``),
and pinged only when it has been idle long enough for something between here and the
server to have dropped it silently.

A unit of work ends in one step on a task of its own: commit (or roll back) and close in
one pass to SQLAlchemy's synchronous side, where ``async with session, session.begin()``
makes three (begin, end of the transaction, close) and runs only the close shielded. The
session begins by itself at its first statement; the end is shielded from the caller's
cancellation whole, so a commit under way is never abandoned halfway and the connection
always goes back to the pool (``_to_completion``: what ``AsyncSession.__aexit__`` does
for its close alone).

A reading unit of work runs in autocommit on both: no ``BEGIN`` and no ``COMMIT``, each
a trip to the server or to aiosqlite's thread. The service already reads as PostgreSQL
runs it at READ COMMITTED, where each statement of a transaction reads its own snapshot;
a SQLite statement in autocommit does the same. A unit that needs several statements to
agree writes (its lock decides), or reads them in one statement.
"""

from __future__ import annotations

import asyncio
import time
import weakref
from collections.abc import AsyncIterator, Callable, Coroutine
from contextlib import asynccontextmanager
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import event
from sqlalchemy import exc as sa_exc
from sqlalchemy.engine import URL
from sqlalchemy.ext.asyncio import (
    AsyncEngine,
    AsyncSession,
    async_sessionmaker,
    create_async_engine,
)
from sqlalchemy.orm import Session

from bot import metrics
from bot.db import kept
from bot.db.effects import EffectsSession
from bot.db.signals import Signals, heard
from bot.db.where import SUPPORTED, DatabaseProblem, parse, sqlite_folder

Clock = Callable[[], datetime]

SQLITE_BUSY_TIMEOUT_MS = 30_000
# A PostgreSQL connection idle in the pool for longer than this is pinged before use (a
# NAT or proxy may have dropped it without a word); a busier one is only checked for a
# closed socket, which costs no trip (a server that restarted closed it).
PING_AFTER_IDLE_S = 10.0


def utcnow() -> datetime:
    """The real clock: an aware UTC datetime."""
    return datetime.now(UTC)


def normalise_url(url: str | URL) -> URL:
    """Accept plain ``sqlite:///`` and ``postgresql://`` URLs and give them their async
    driver; refuse other databases."""
    u = parse(url)
    backend = u.get_backend_name()
    if backend == "sqlite":
        return u.set(drivername="sqlite+aiosqlite")
    if backend == "postgresql":
        return u.set(drivername="postgresql+asyncpg")
    raise DatabaseProblem(f"database_url {u.render_as_string(hide_password=True)!r} is of an unsupported kind ({backend}): use {SUPPORTED}")


def make_engine(url: str | URL, **kwargs: Any) -> AsyncEngine:
    """An async engine with this project's connection settings. A SQLite file's folder
    must exist (only the default data folder is made: ``where.sqlite_folder``)."""
    u = normalise_url(url)
    if u.get_backend_name() != "sqlite":
        engine = create_async_engine(u, **kwargs)
        _postgres_events(engine)
        return engine
    sqlite_folder(u)
    kwargs.setdefault("pool_reset_on_return", None)  # see _on_return
    engine = create_async_engine(u, connect_args={"timeout": SQLITE_BUSY_TIMEOUT_MS / 1000}, **kwargs)
    _sqlite_events(engine)
    return engine


def _sqlite_events(engine: AsyncEngine) -> None:
    @event.listens_for(engine.sync_engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        # Take transaction control away from the sqlite3 module: we emit BEGIN ourselves.
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_TIMEOUT_MS}")
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.close()

    @event.listens_for(engine.sync_engine, "begin")
    def _on_begin(conn: Any) -> None:
        mode = conn.get_execution_options().get("sqlite_begin", "IMMEDIATE")
        if mode is None:  # a read: in autocommit (see the module docstring)
            return
        conn.exec_driver_sql(f"BEGIN {mode}")

    @event.listens_for(engine.sync_engine, "reset")
    def _on_return(dbapi_connection: Any, record: Any, reset_state: Any) -> None:
        # A connection going back to the pool is rolled back only when a transaction is
        # still open on it: after a commit (every unit of work that ended well) the
        # pool's own rollback would be one more trip to aiosqlite's thread for nothing.
        # sqlite3 knows whether a transaction is open without asking the database.
        if not reset_state.terminate_only and record.driver_connection.in_transaction:
            dbapi_connection.rollback()


def _postgres_events(engine: AsyncEngine) -> None:
    # SQLAlchemy's pool_pre_ping would cost three trips per checkout on asyncpg (BEGIN,
    # the ping, ROLLBACK): more than most units of work spend on their own statements.
    @event.listens_for(engine.sync_engine, "checkout")
    def _on_checkout(dbapi_connection: Any, record: Any, _proxy: Any) -> None:
        if record.driver_connection.is_closed():
            raise sa_exc.DisconnectionError("the server closed this connection")
        if time.monotonic() - record.info["checked_in"] > PING_AFTER_IDLE_S:
            try:
                engine.dialect.do_ping(dbapi_connection)
            except Exception as error:
                raise sa_exc.DisconnectionError(f"ping failed: {error}") from error

    @event.listens_for(engine.sync_engine, "connect")
    @event.listens_for(engine.sync_engine, "checkin")
    def _on_checkin(_dbapi_connection: Any, record: Any) -> None:
        record.info["checked_in"] = time.monotonic()


@asynccontextmanager
async def _unit(maker: async_sessionmaker[AsyncSession]) -> AsyncIterator[AsyncSession]:
    """A session that commits when the block ends and rolls back on any error, closed
    either way (see the module docstring)."""
    session = maker()
    try:
        yield session
    except BaseException:
        await _to_completion(session.run_sync(_end, False))
        session.info.pop(kept.PENDING, None)
        raise
    await _to_completion(session.run_sync(_end, True))
    if session.info.get(kept.PENDING):
        kept.committed(session)


async def _to_completion(end: Coroutine[Any, Any, None]) -> None:
    """Run ``end`` in a task of its own to its end, even when the caller is cancelled
    meanwhile; the cancellation is raised once it has finished (returning earlier would
    let it go on in the background, after the caller's clean-up)."""
    task = asyncio.create_task(end)
    cancelled: asyncio.CancelledError | None = None
    while True:
        try:
            await asyncio.shield(task)
        except asyncio.CancelledError as error:
            if task.done():
                raise
            cancelled = error
        else:
            break
    if cancelled is not None:
        raise cancelled


def _end(session: Session, commit: bool) -> None:
    """On SQLAlchemy's synchronous side: commit if asked (a failed commit rolls back),
    then close, which gives the connection back (rolling back whatever is still open)."""
    try:
        if commit:
            session.commit()
    finally:
        session.close()


class Database:
    """One engine, its session factories, the clock the service reads the time from
    (injectable, so deadline tests need no sleeping) and the signals its writing units
    of work fire after they commit (``signals``: see :mod:`bot.db.signals`)."""

    def __init__(self, url: str | URL, *, clock: Clock | None = None, **engine_kwargs: Any) -> None:
        self.url = normalise_url(url)
        self.engine = make_engine(self.url, **engine_kwargs)
        self.clock: Clock = clock or utcnow
        self._writer = async_sessionmaker(self.engine, expire_on_commit=False, sync_session_class=EffectsSession)
        reading = {"sqlite_begin": None} if self.dialect == "sqlite" else {"isolation_level": "AUTOCOMMIT"}
        self._reader = async_sessionmaker(self.engine.execution_options(**reading), expire_on_commit=False)
        self.signals = Signals()
        # One writer queue per event loop (a handle may outlive a test's loop).
        self._writers: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Lock] = (
            weakref.WeakKeyDictionary()
        )

    @property
    def dialect(self) -> str:
        """``sqlite`` or ``postgresql``."""
        return self.url.get_backend_name()

    def now(self) -> datetime:
        return self.clock()

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[AsyncSession]:
        """A writing unit of work: commits when the block ends, rolls back on any error;
        once committed, fires the signals its writes noted (:mod:`bot.db.signals`). Timed,
        from its start to its commit, when metrics are on (``bot.metrics``)."""
        started = time.perf_counter() if metrics.current is not None else None
        try:
            if self.dialect != "sqlite":
                async with _unit(self._writer) as session:
                    yield session
                self._committed(session)
                return
            loop = asyncio.get_running_loop()
            queue = self._writers.get(loop)
            if queue is None:
                queue = self._writers[loop] = asyncio.Lock()
            # Past the busy timeout, go on without the queue and let SQLite decide (as it
            # did before there was one): a writer stuck behind another never hangs forever.
            held = True
            if queue.locked():
                try:
                    await asyncio.wait_for(queue.acquire(), SQLITE_BUSY_TIMEOUT_MS / 1000)
                except TimeoutError:
                    held = False
            else:
                await queue.acquire()
            try:
                async with _unit(self._writer) as session:
                    yield session
            finally:
                if held:
                    queue.release()
            self._committed(session)
        finally:
            if started is not None:
                metrics.observe_unit("write", started)

    def _committed(self, session: AsyncSession) -> None:
        signals = heard(session)
        if signals:
            self.signals.fire(signals)

    @asynccontextmanager
    async def read(self) -> AsyncIterator[AsyncSession]:
        """A reading unit of work, in autocommit (see the module docstring): it takes no
        lock and nothing in it writes."""
        started = time.perf_counter() if metrics.current is not None else None
        try:
            async with _unit(self._reader) as session:
                yield session
        finally:
            if started is not None:
                metrics.observe_unit("read", started)

    async def dispose(self) -> None:
        await self.engine.dispose()

    async def __aenter__(self) -> Database:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.dispose()
