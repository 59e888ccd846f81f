"""The databases the schema's tests start from: an empty one on each backend
(``empty_url``; PostgreSQL's is a new database, skipped saying why when no server answers)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import drop_pg_database, scratch_pg_database


@pytest.fixture
def empty_pg_url():
    """A new empty PostgreSQL database (skipped, saying why, when no server answers)."""
    admin, url = scratch_pg_database()
    try:
        yield url
    finally:
        drop_pg_database(admin, url)


@pytest.fixture(params=["sqlite", "postgresql"])
def empty_url(request: pytest.FixtureRequest, tmp_path: Path):
    if request.param == "sqlite":
        return f"sqlite+aiosqlite:///{tmp_path / 'empty.sqlite3'}"
    return request.getfixturevalue("empty_pg_url")
