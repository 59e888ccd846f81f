"""Which database the bot uses, said for an operator: the SQLite file's resolved path or
PostgreSQL's host and database (never the password); the folder check for a SQLite file;
and the one error that says "this is the database's problem", whatever the driver raised.
"""

from __future__ import annotations

from pathlib import Path

from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import ArgumentError

# The default data folder (``database_url``'s default ``var/wolfhowl.sqlite3``): the one
# folder made when missing. Any other folder must exist, so that a mistyped path is an
# error instead of a new empty database somewhere (even at the filesystem root).
DEFAULT_DATA_DIR = Path("var")

SUPPORTED = "sqlite:///PATH (sqlite+aiosqlite) or postgresql://USER:PASSWORD@HOST/DATABASE (postgresql+asyncpg)"


class DatabaseProblem(ValueError):
    """The configured database cannot be used; the message says which and why, in one
    line, for an operator (never a password)."""


def parse(url: str | URL) -> URL:
    """``url`` parsed, or DatabaseProblem naming the supported kinds."""
    try:
        return make_url(url)
    except ArgumentError:
        raise DatabaseProblem(f"database_url {_safe(url)!r} is not a database URL: use {SUPPORTED}") from None


def _safe(url: str | URL) -> str:
    if isinstance(url, URL):
        return url.render_as_string(hide_password=True)
    text = str(url)
    # Unparseable: hide whatever stands between "://user:" and "@".
    head, sep, tail = text.partition("://")
    if sep and "@" in tail:
        creds, _, host = tail.rpartition("@")
        user = creds.split(":", 1)[0]
        return f"{head}://{user}:***@{host}" if ":" in creds else text
    return text


def describe(url: str | URL) -> str:
    """``SQLite file /abs/path`` or ``PostgreSQL database NAME on HOST:PORT as USER``."""
    u = url if isinstance(url, URL) else parse(url)
    backend = u.get_backend_name()
    if backend == "sqlite":
        if not u.database or u.database == ":memory:":
            return "SQLite in memory"
        return f"SQLite file {Path(u.database).resolve()}"
    if backend == "postgresql":
        host = f"{u.host or 'localhost'}:{u.port or 5432}"
        return f"PostgreSQL database {u.database or '(default)'} on {host}" + (f" as {u.username}" if u.username else "")
    return u.render_as_string(hide_password=True)


def sqlite_folder(u: URL) -> None:
    """Make sure a SQLite file's folder is there: the default data folder is created,
    any other missing folder is a DatabaseProblem."""
    if u.get_backend_name() != "sqlite" or not u.database or u.database == ":memory:" or u.database.startswith("file:"):
        return
    folder = Path(u.database).parent
    if folder.is_dir():
        return
    if folder.resolve() == DEFAULT_DATA_DIR.resolve():
        folder.mkdir(parents=True, exist_ok=True)
        return
    raise DatabaseProblem(
        f"the folder {folder.resolve()} for the SQLite database {Path(u.database).name} does not exist: "
        "create it, or correct database_url"
    )


def problem(url: str | URL, exc: BaseException) -> DatabaseProblem:
    """``exc`` (a driver's, SQLAlchemy's, the network's) as a DatabaseProblem naming the
    database and the first line of what went wrong."""
    if isinstance(exc, DatabaseProblem):
        return exc
    first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    try:
        where = describe(url)
    except DatabaseProblem:
        where = _safe(url)
    return DatabaseProblem(f"the database cannot be used ({where}): {first}")


def moved(where: str, before: str | None, after: str | None) -> str:
    """What an upgrade did, in one line: ``SQLite file /x: upgraded from 0001 to 0002``."""
    if before == after:
        return f"{where}: already at {after or 'empty'} (nothing to do)"
    return f"{where}: upgraded from {before or 'empty'} to {after or 'empty'}"
