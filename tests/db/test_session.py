"""The database handle: SQLite pragmas, URL handling, UTC times, and the invariants the
schema itself enforces (one live game per channel and per player)."""

from __future__ import annotations

import asyncio
import threading
from datetime import UTC, datetime, timedelta, timezone
from typing import Any

import pytest
from sqlalchemy import event, text
from sqlalchemy.exc import IntegrityError

from bot.db.models import Game, GamePlayer, User
from bot.db.session import Database, normalise_url

NOW = datetime(2026, 1, 1, tzinfo=UTC)


def test_urls_get_their_async_driver() -> None:
    assert normalise_url("sqlite:///x.db").drivername == "sqlite+aiosqlite"
    assert normalise_url("postgresql://u@h/d").drivername == "postgresql+asyncpg"
    assert normalise_url("postgresql+asyncpg://u@h/d").drivername == "postgresql+asyncpg"
    with pytest.raises(ValueError, match="unsupported"):
        normalise_url("mysql://u@h/d")


async def test_sqlite_pragmas(sqlite_url: str) -> None:
    db = Database(sqlite_url)
    try:
        async with db.read() as s:
            assert (await s.execute(text("PRAGMA journal_mode"))).scalar() == "wal"
            assert (await s.execute(text("PRAGMA foreign_keys"))).scalar() == 1
            assert (await s.execute(text("PRAGMA busy_timeout"))).scalar() == 30000
    finally:
        await db.dispose()


def _game(channel: int, active: int | None) -> Game:
    return Game(
        guild_id=1, channel_id=channel, active_channel_id=active, moderator_id=1, settings={},
        language="en-US", secret_seed="s", seed_sha256="h", status="lobby", round=0, version=0,
        notice_seq=0, created_at=NOW,
    )


async def test_times_come_back_aware_utc(db: Database) -> None:
    plus8 = timezone(timedelta(hours=8))
    async with db.transaction() as s:
        g = _game(1, 1)
        g.phase_deadline = datetime(2026, 1, 1, 20, 0, tzinfo=plus8)
        s.add(g)
    async with db.read() as s:
        g2 = await s.get(Game, g.id)
        assert g2.phase_deadline == datetime(2026, 1, 1, 12, 0, tzinfo=UTC)
        assert g2.phase_deadline.tzinfo is not None
    with pytest.raises(Exception, match="naive"):
        async with db.transaction() as s:
            g3 = _game(2, 2)
            g3.created_at = datetime(2026, 1, 1)
            s.add(g3)


async def test_schema_allows_one_live_game_per_channel(db: Database) -> None:
    async with db.transaction() as s:
        s.add_all([_game(7, None), _game(7, None), _game(7, 7)])
    with pytest.raises(IntegrityError):
        async with db.transaction() as s:
            s.add(_game(7, 7))


async def test_schema_allows_one_live_seat_per_player(db: Database) -> None:
    async with db.transaction() as s:
        s.add(User(id=5, display_name="U", created_at=NOW, updated_at=NOW))
        a, b = _game(1, 1), _game(2, 2)
        s.add_all([a, b])
        await s.flush()
        s.add(GamePlayer(game_id=a.id, user_id=5, active_user_id=5, display_name="U", status="lobby", joined_at=NOW))
    with pytest.raises(IntegrityError):
        async with db.transaction() as s:
            s.add(GamePlayer(game_id=b.id, user_id=5, active_user_id=5, display_name="U", status="lobby", joined_at=NOW))
    async with db.transaction() as s:  # a finished seat (active_user_id NULL) does not count
        s.add(GamePlayer(game_id=b.id, user_id=5, active_user_id=None, display_name="U", status="lobby", joined_at=NOW))


async def test_foreign_keys_are_enforced(db: Database) -> None:
    with pytest.raises(IntegrityError):
        async with db.transaction() as s:
            s.add(GamePlayer(game_id=999, user_id=998, display_name="U", status="lobby", joined_at=NOW))


async def test_a_pooled_sqlite_connection_comes_back_without_a_transaction(sqlite_url: str) -> None:
    """The pool rolls a returned connection back only when a transaction is still open
    on it (after a commit there is none): one left open behind SQLAlchemy's back is
    still closed before the next unit of work gets the connection."""
    db = Database(sqlite_url, pool_size=1, max_overflow=0)
    try:
        async with db.transaction() as s:
            s.add(_game(9101, None))
        with pytest.raises(RuntimeError):
            async with db.transaction() as s:
                s.add(_game(9102, None))
                await s.flush()
                raise RuntimeError
        async with db.engine.connect() as conn:
            raw = await conn.get_raw_connection()
            assert not raw.driver_connection.in_transaction
            await raw.driver_connection.execute("BEGIN IMMEDIATE")
        async with db.engine.connect() as conn:
            raw = await conn.get_raw_connection()
            assert not raw.driver_connection.in_transaction
        async with db.read() as s:
            found = await s.execute(text("SELECT channel_id FROM games WHERE channel_id IN (9101, 9102)"))
            assert found.scalars().all() == [9101]
    finally:
        await db.dispose()


async def test_a_sqlite_unit_of_work_sends_its_own_statements_only(sqlite_url: str) -> None:
    """What SQLite runs for a unit of work, as its trace shows: a write is ``BEGIN
    IMMEDIATE``, its statements and ``COMMIT``, with no rollback when its connection goes
    back to the pool; a read, in autocommit, is its statements alone."""
    run: list[str] = []
    db = Database(sqlite_url, pool_size=1, max_overflow=0)
    try:
        async with db.engine.connect() as conn:  # the one pooled connection, traced
            driver = (await conn.get_raw_connection()).driver_connection
            await driver.set_trace_callback(run.append)
        run.clear()
        async with db.transaction() as s:
            s.add(_game(9201, None))
            await s.flush()
            assert (await s.execute(text("SELECT channel_id FROM games WHERE channel_id = 9201"))).scalars().all() == [9201]
            changed = await s.execute(text("UPDATE games SET round = 1 WHERE channel_id IN (9201, 9202)"))
            assert changed.rowcount == 1  # type: ignore[attr-defined]
        words = [statement.split()[0] for statement in run]
        assert words == ["BEGIN", "INSERT", "SELECT", "UPDATE", "COMMIT"] and run[0] == "BEGIN IMMEDIATE"
        run.clear()
        async with db.read() as s:  # in autocommit: no BEGIN, nothing to commit or roll back
            assert (await s.execute(text("SELECT round FROM games WHERE channel_id = 9201"))).scalar_one() == 1
            await s.execute(text("SELECT 2"))
        assert [statement.split()[0] for statement in run] == ["SELECT", "SELECT"]
    finally:
        await db.dispose()


async def test_a_postgresql_unit_of_work_sends_its_own_statements_only(pg_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """On asyncpg each BEGIN, COMMIT and ping is a trip to the server: a read (in
    autocommit) sends its statements alone, a write adds only its BEGIN and COMMIT, and
    a connection in use is not pinged before it is handed out."""
    import asyncpg
    from asyncpg.prepared_stmt import PreparedStatement
    from asyncpg.transaction import Transaction

    sent: list[str] = []

    def counted(cls: Any, name: str, trip: str) -> None:
        original = getattr(cls, name)

        async def recorded(self: Any, *args: Any, **kwargs: Any) -> Any:
            sent.append(trip)
            return await original(self, *args, **kwargs)

        monkeypatch.setattr(cls, name, recorded)

    db = Database(pg_url, pool_size=1, max_overflow=0)
    try:
        async with db.read() as s:  # the connection is opened outside the count
            await s.execute(text("SELECT 1"))
        for cls, name, trip in [
            (Transaction, "start", "BEGIN"),
            (Transaction, "commit", "COMMIT"),
            (Transaction, "rollback", "ROLLBACK"),
            (PreparedStatement, "fetch", "statement"),
            (asyncpg.Connection, "fetchrow", "ping"),
        ]:
            counted(cls, name, trip)
        async with db.read() as s:
            await s.execute(text("SELECT 2"))
            await s.execute(text("SELECT 3"))
        assert sent == ["statement", "statement"]
        sent.clear()
        async with db.transaction() as s:
            await s.execute(text("SELECT 4"))
        assert sent == ["BEGIN", "statement", "COMMIT"]
    finally:
        await db.dispose()


@pytest.mark.parametrize("idle", [True, False], ids=["idle, pinged", "busy, seen closed"])
async def test_a_postgresql_connection_the_server_dropped_is_replaced(pg_url: str, monkeypatch: pytest.MonkeyPatch, idle: bool) -> None:
    """A pooled connection the server has closed (a restart, an administrator) is not
    handed out: one idle for long is pinged first, one in use is seen closed without a
    trip. The next unit of work gets a fresh connection and goes through."""
    from bot.db import session

    monkeypatch.setattr(session, "PING_AFTER_IDLE_S", -1.0 if idle else 3600.0)
    db = Database(pg_url, pool_size=1, max_overflow=0)
    admin = Database(pg_url)
    try:
        async with db.read() as s:
            pid = (await s.execute(text("SELECT pg_backend_pid()"))).scalar_one()
            driver = (await (await s.connection()).get_raw_connection()).driver_connection
        async with admin.transaction() as s:
            assert (await s.execute(text("SELECT pg_terminate_backend(:pid)"), {"pid": pid})).scalar_one()
        if not idle:  # wait for the server's close to reach this event loop
            for _ in range(1000):
                if driver.is_closed():
                    break
                await asyncio.sleep(0.005)
            assert driver.is_closed()
        async with db.read() as s:
            assert (await s.execute(text("SELECT pg_backend_pid()"))).scalar_one() != pid
    finally:
        await db.dispose()
        await admin.dispose()


class _Hold:
    """A SQL function that holds the connection's thread until released: what the
    connection is given next waits behind it (``block``)."""

    def __init__(self) -> None:
        self.gate, self.holding = threading.Event(), threading.Event()

    def __call__(self) -> int:
        self.holding.set()
        self.gate.wait(10)
        return 1

    async def block(self, driver: Any) -> asyncio.Future[Any]:
        """Hold ``driver``'s (aiosqlite's) thread; the future is done once released."""
        await driver.create_function("wolfhowl_hold", 0, self)
        blocker = asyncio.ensure_future(driver.execute_fetchall("SELECT wolfhowl_hold()"))
        assert await asyncio.to_thread(self.holding.wait, 10)
        return blocker

    def release(self) -> None:
        self.gate.set()


def _sent(db: Database) -> list[str]:
    """The BEGINs and COMMITs of ``db``'s units of work from now on, each noted just
    before it goes to the driver (a BEGIN as its unit takes its connection: nothing is
    awaited in between): once noted, it waits on aiosqlite's thread."""
    sent: list[str] = []
    event.listen(db.engine.sync_engine, "checkout", lambda *_args: sent.append("BEGIN"))
    event.listen(db.engine.sync_engine, "commit", lambda _conn: sent.append("COMMIT"))
    return sent


async def _until(condition: Any) -> None:
    for _ in range(2000):
        if condition():
            break
        await asyncio.sleep(0.001)
    assert condition()


async def _one_connection_with_a_game(sqlite_url: str, channel: int) -> Database:
    """A handle whose pool lends one connection, and a game in ``channel`` at round 0."""
    db = Database(sqlite_url, pool_size=1, max_overflow=0)
    async with db.transaction() as s:
        s.add(_game(channel, None))
    return db


async def test_a_unit_cancelled_before_its_first_statement_ran_is_rolled_back_after_it(sqlite_url: str) -> None:
    """A unit of work cancelled (a crash, a stop) while its first statement, its BEGIN
    with it, still waits on aiosqlite's thread has no transaction open yet: the
    statement runs after the cancel, and its change must still never be committed (the
    rollback queues behind it, and SQLAlchemy closes a connection whose unit was
    cancelled mid-statement rather than pool it)."""
    db, hold = await _one_connection_with_a_game(sqlite_url, 9301), _Hold()
    try:
        async with db.engine.connect() as conn:
            driver = (await conn.get_raw_connection()).driver_connection
        blocker = await hold.block(driver)
        sent = _sent(db)

        async def unit() -> None:
            async with db.transaction() as s:
                await s.execute(text("UPDATE games SET round = 7 WHERE channel_id = 9301"))

        task = asyncio.create_task(unit())
        await _until(lambda: sent)  # the unit's first statement waits behind the blocker
        assert sent == ["BEGIN"] and not task.done()
        task.cancel()
        for _ in range(20):
            await asyncio.sleep(0)
        hold.release()
        with pytest.raises(asyncio.CancelledError):
            await task
        await blocker
        async with db.read() as s:
            assert (await s.execute(text("SELECT round FROM games WHERE channel_id = 9301"))).scalar_one() == 0
        try:
            left_open = driver.in_transaction
        except ValueError:  # closed: nothing left open
            left_open = False
        assert not left_open
    finally:
        hold.release()
        await db.dispose()


async def test_a_unit_cancelled_while_it_commits_commits_whole_and_gives_its_connection_back(sqlite_url: str) -> None:
    """The end of a unit of work (commit, then close) is shielded from its caller's
    cancellation: a stop that arrives while the COMMIT waits on aiosqlite's thread is
    raised only once the commit is done and the connection is back in the pool."""
    db, hold = await _one_connection_with_a_game(sqlite_url, 9302), _Hold()
    try:
        blocker: list[asyncio.Future[Any]] = []
        sent = _sent(db)

        async def unit() -> None:
            async with db.transaction() as s:
                await s.execute(text("UPDATE games SET round = 7 WHERE channel_id = 9302"))
                driver = (await (await s.connection()).get_raw_connection()).driver_connection
                blocker.append(await hold.block(driver))  # the COMMIT queues behind it

        task = asyncio.create_task(unit())
        await _until(lambda: "COMMIT" in sent)  # the unit's COMMIT waits behind the blocker
        assert not task.done() and not blocker[0].done()
        task.cancel()
        for _ in range(20):
            await asyncio.sleep(0)
        assert not task.done()  # the end goes on under the cancellation
        hold.release()
        with pytest.raises(asyncio.CancelledError):
            await task
        await blocker[0]
        assert db.engine.sync_engine.pool.checkedout() == 0
        async with db.read() as s:
            assert (await s.execute(text("SELECT round FROM games WHERE channel_id = 9302"))).scalar_one() == 7
    finally:
        hold.release()
        await db.dispose()
