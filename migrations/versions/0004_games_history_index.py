"""Games: an index for a server's finished games, newest first (``/game history``).

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-01
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_index("ix_games_history", "games", ["guild_id", "status", "ended_at"])


def downgrade() -> None:
    op.drop_index("ix_games_history", table_name="games")
