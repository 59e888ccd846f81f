"""Shared database fixtures: every storage and service test runs on SQLite and on
PostgreSQL.

* ``sqlite_url`` / ``pg_url`` (session): a scratch database migrated to head once per
  test session; the PostgreSQL one is ``wolfhowl_test_<random>`` on the server at
  127.0.0.1:5432 (or ``$WOLFHOWL_TEST_PG_URL``), dropped at the end, and skipped with
  the reason printed when no server answers.
* ``db_url`` (session, parametrized over both) and ``db`` (per test): a fresh
  ``Database`` on empty tables, with a fake clock ``clock`` that tests move by hand.
"""

from __future__ import annotations

import asyncio
import os
import uuid
from collections.abc import AsyncIterator, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from sqlalchemy import text

pytest_plugins = ["tests.slow_first"]


@pytest.fixture(autouse=True, scope="session")
def _features_loaded() -> None:
    """Every feature's handlers registered, as the bot and the command line do at their
    start (``bot.features.load``), before any test's fixtures use the service."""
    from bot import features

    features.load()

if TYPE_CHECKING:
    from bot.db.session import Database

# The bot's modules are imported by the fixtures that use them, so that the tests of
# discord_emulator (tests/emulator) load nothing of the game.

PG_SERVER = os.environ.get("WOLFHOWL_TEST_PG_URL", "postgresql+asyncpg://{user}@127.0.0.1:5432/test")
PG_USERS = ("postgres", "root")


class FakeClock:
    """A clock tests move by hand (``db.clock``)."""

    def __init__(self, start: datetime | None = None) -> None:
        self.now = start or datetime(2026, 1, 1, 12, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now

    def advance(self, seconds: float) -> datetime:
        self.now += timedelta(seconds=seconds)
        return self.now


async def _pg_admin_url() -> str:
    """A URL of the maintenance database that accepts us, or raise with the reason."""
    import asyncpg

    errors = []
    for user in PG_USERS:
        url = PG_SERVER.format(user=user)
        try:
            conn = await asyncpg.connect(url.replace("+asyncpg", ""), timeout=5)
        except (TimeoutError, OSError, asyncpg.PostgresError) as exc:
            errors.append(f"{user}: {exc}")
            continue
        await conn.close()
        return url
    raise RuntimeError("; ".join(errors))


async def _pg_admin(url: str, sql: str) -> None:
    import asyncpg

    conn = await asyncpg.connect(url.replace("+asyncpg", ""), timeout=10)
    try:
        await conn.execute(sql)
    finally:
        await conn.close()


def scratch_pg_database() -> tuple[str, str]:
    """(admin URL, URL of a new empty database); pytest.skip when no server answers."""
    try:
        admin = asyncio.run(_pg_admin_url())
    except Exception as exc:  # any failure to reach the server means: skip, saying why
        reason = f"PostgreSQL unreachable at 127.0.0.1:5432 ({exc})"
        print(f"\nSKIP PostgreSQL tests: {reason}")
        pytest.skip(reason)
    name = f"wolfhowl_test_{uuid.uuid4().hex[:12]}"
    asyncio.run(_pg_admin(admin, f'CREATE DATABASE "{name}"'))
    return admin, admin.rsplit("/", 1)[0] + f"/{name}"


def drop_pg_database(admin: str, url: str) -> None:
    name = url.rsplit("/", 1)[1]
    asyncio.run(_pg_admin(admin, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


@pytest.fixture(scope="session")
def sqlite_url(tmp_path_factory: pytest.TempPathFactory) -> str:
    from bot.db.migrate import upgrade

    path: Path = tmp_path_factory.mktemp("sqlite") / "wolfhowl.sqlite3"
    url = f"sqlite+aiosqlite:///{path}"
    asyncio.run(upgrade(url))
    return url


@pytest.fixture(scope="session")
def pg_url() -> Iterator[str]:
    from bot.db.migrate import upgrade

    admin, url = scratch_pg_database()
    try:
        asyncio.run(upgrade(url))
        yield url
    finally:
        drop_pg_database(admin, url)


@pytest.fixture(scope="session", params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest) -> str:
    fixture = "pg_url" if request.param == "postgresql" else "sqlite_url"
    return str(request.getfixturevalue(fixture))


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


async def wipe(db: Database) -> None:
    """Empty every table (isolation between tests; the schema stays)."""
    from bot.db.models import Base

    tables = [t.name for t in reversed(Base.metadata.sorted_tables)]
    async with db.transaction() as s:
        if db.dialect == "postgresql":
            await s.execute(text(f"TRUNCATE {', '.join(tables)} RESTART IDENTITY CASCADE"))
        else:
            for name in tables:
                await s.execute(text(f"DELETE FROM {name}"))


@pytest.fixture
async def db(db_url: str, clock: FakeClock) -> AsyncIterator[Database]:
    from bot.db.session import Database

    database = Database(db_url, clock=clock)
    await wipe(database)
    try:
        yield database
    finally:
        await database.dispose()
