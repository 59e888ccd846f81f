"""Fixtures of the service tests."""

from __future__ import annotations

import pytest

from bot.discord.features import discover
from tests.conftest import wipe
from tests.service.helpers import within


@pytest.fixture(autouse=True, scope="session")
def features() -> None:
    """Every feature's cogs, components and looks imported, as the bot imports them when
    it starts (bot.discord.features): a message of any kind renders, with its controls."""
    discover()


@pytest.fixture
def fresh(db_url: str) -> str:
    """The migrated test database (SQLite, then PostgreSQL), emptied, for a command that
    runs its own event loop (see ``within``)."""
    within(db_url, wipe)
    return db_url
