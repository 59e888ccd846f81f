"""Games: an index for a server's finished games, newest first (``/game history``).

Main numbered this index 0003 for an hour (2026-12-01 16:26-17:22, e.g. 45c1376), until
the records took 0003 and the index became 0004. A database of that hour says "0003"
but holds the index and no records: here it gets the records (0003's own upgrade) and
keeps its index, so it reaches head like any other.

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-01
"""

from __future__ import annotations

import importlib.util
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

import sqlalchemy as sa
from alembic import op

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    inspector = sa.inspect(op.get_bind())
    if "ix_games_history" in {ix["name"] for ix in inspector.get_indexes("games")}:
        if "game_records" not in inspector.get_table_names():  # that hour's "0003"
            _records_migration().upgrade()
        return
    op.create_index("ix_games_history", "games", ["guild_id", "status", "ended_at"])


def _records_migration() -> ModuleType:
    """0003 (the records), loaded from its file beside this one (a revision's module name
    starts with a digit: no import statement reaches it)."""
    spec = importlib.util.spec_from_file_location("wolfhowl_migration_0003", Path(__file__).with_name("0003_records.py"))
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def downgrade() -> None:
    op.drop_index("ix_games_history", table_name="games")
