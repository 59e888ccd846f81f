"""Fixtures of the service tests."""

from __future__ import annotations

import pytest

from tests.conftest import wipe
from tests.service.helpers import within


@pytest.fixture
def fresh(db_url: str) -> str:
    """The migrated test database (SQLite, then PostgreSQL), emptied, for a command that
    runs its own event loop (see ``within``)."""
    within(db_url, wipe)
    return db_url
