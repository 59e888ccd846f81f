"""Programmatic alembic: ``upgrade(url)`` is what ``wolfhowl db upgrade`` and the bot's
start-up call. It runs alembic on the project's async engine, handing alembic the open
connection (alembic's "connection sharing" recipe), so it works inside a running event
loop. On PostgreSQL an advisory lock makes shard processes that start together migrate
one after the other."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config as AlembicConfig
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import text
from sqlalchemy.engine import URL
from sqlalchemy.pool import NullPool

from bot.db.session import make_engine, normalise_url

# Any constant will do: it only has to be the same in every process of this bot.
_PG_MIGRATION_LOCK = 0x574F4C46  # "WOLF"


def migrations_dir() -> Path:
    """The alembic scripts: ``bot/db/migrations`` links to the top-level ``migrations/``
    in a checkout and is a copy of it in an installed wheel."""
    return Path(__file__).resolve().parent / "migrations"


def alembic_config(url: str | URL | None = None) -> AlembicConfig:
    """An alembic Config that needs no alembic.ini (the CLI and the bot use it)."""
    cfg = AlembicConfig()
    cfg.set_main_option("script_location", str(migrations_dir()))
    if url is not None:
        rendered = normalise_url(url).render_as_string(hide_password=False)
        cfg.set_main_option("sqlalchemy.url", rendered.replace("%", "%%"))
    return cfg


def head_revision() -> str | None:
    return ScriptDirectory.from_config(alembic_config()).get_current_head()


class DowngradeRefused(Exception):
    """A downgrade step that cannot hold today's data refused before touching it (the
    whole downgrade is one transaction: nothing was changed). Its text names the games."""


class ForeignKeysBroken(Exception):
    """A SQLite migration left rows whose parent is gone: rolled back, nothing changed."""


async def _run(url: str | URL, fn: Any, *args: Any) -> Any:
    """``fn`` in one transaction on its own connection. On SQLite, foreign keys are off
    for it and checked before the commit: a batch step rebuilds a table by copying it
    and dropping the old one, and with them on, that drop deletes every child row (ON
    DELETE CASCADE) — a downgrade through 0009 emptied the games' players, steps,
    submissions and messages. The pragma cannot change inside a transaction, hence
    before it."""
    engine = make_engine(url, poolclass=NullPool)
    try:
        async with engine.connect() as conn:
            sqlite = conn.dialect.name == "sqlite"
            if sqlite:
                await conn.execution_options(sqlite_begin=None)  # no BEGIN: see bot.db.session
                await conn.exec_driver_sql("PRAGMA foreign_keys=OFF")
                await conn.commit()
                await conn.execution_options(sqlite_begin="IMMEDIATE")
            async with conn.begin():
                if conn.dialect.name == "postgresql":
                    await conn.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": _PG_MIGRATION_LOCK})
                result = await conn.run_sync(fn, *args)
                if sqlite and (broken := (await conn.exec_driver_sql("PRAGMA foreign_key_check")).all()):
                    tables = sorted({str(row[0]) for row in broken})
                    raise ForeignKeysBroken(f"{len(broken)} row(s) of {', '.join(tables)} would lose their parent row; nothing was changed")
            return result
    finally:
        await engine.dispose()


def _command(sync_conn: Any, url: str | URL, name: str, revision: str) -> None:
    cfg = alembic_config(url)
    cfg.attributes["connection"] = sync_conn
    getattr(command, name)(cfg, revision)


def _current(sync_conn: Any) -> str | None:
    return MigrationContext.configure(sync_conn).get_current_revision()


def _upgrade(sync_conn: Any, url: str | URL, revision: str) -> tuple[str | None, str | None]:
    before = _current(sync_conn)
    _command(sync_conn, url, "upgrade", revision)
    return before, _current(sync_conn)


async def upgrade(url: str | URL, revision: str = "head") -> tuple[str | None, str | None]:
    """Bring the database at ``url`` up to ``revision`` (the newest by default); the
    revisions it was at before and is at now (None: empty), read in the same
    transaction as the upgrade."""
    moved: tuple[str | None, str | None] = await _run(url, _upgrade, url, revision)
    return moved


async def downgrade(url: str | URL, revision: str = "base") -> None:
    """Take the database at ``url`` down to ``revision`` (empty by default)."""
    await _run(url, _command, url, "downgrade", revision)


async def current(url: str | URL) -> str | None:
    """The revision the database at ``url`` is at (None: not migrated)."""
    rev: str | None = await _run(url, _current)
    return rev
