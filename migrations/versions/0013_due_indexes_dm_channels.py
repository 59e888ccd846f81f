"""The scheduler's indexes, and the users' DM channels.

``games``: one index per kind of time the scheduler waits for, after the status (the
running games by deadline and by reminder, the lobbies by start time and by start
reminder), so the due work and the next wake-up are each one short index range however
many games are live (they replace the indexes on the times alone). ``dm_channels``: each user's DM channel with the bot, remembered
the first time it is opened, so a DM is one request afterwards.

Revision ID: 0013
Revises: 0012
Create Date: 2026-12-01
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0013"
down_revision: str | None = "0012"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

INDEXES = {
    "ix_games_status_deadline": ["status", "phase_deadline"],
    "ix_games_status_reminder": ["status", "reminder_due_at"],
    "ix_games_status_start": ["status", "start_at"],
    "ix_games_status_start_reminder": ["status", "start_reminder_at"],
}
REPLACED = {
    "ix_games_phase_deadline": ["phase_deadline"],
    "ix_games_reminder_due_at": ["reminder_due_at"],
    "ix_games_start_at": ["start_at"],
    "ix_games_start_reminder_at": ["start_reminder_at"],
}


def upgrade() -> None:
    for name in REPLACED:
        op.drop_index(name, table_name="games")
    for name, columns in INDEXES.items():
        op.create_index(name, "games", columns)
    op.create_table(
        "dm_channels",
        sa.Column("user_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("channel_id", sa.BigInteger(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("user_id", name=op.f("pk_dm_channels")),
    )


def downgrade() -> None:
    op.drop_table("dm_channels")
    for name in INDEXES:
        op.drop_index(name, table_name="games")
    for name, columns in REPLACED.items():
        op.create_index(name, "games", columns)
