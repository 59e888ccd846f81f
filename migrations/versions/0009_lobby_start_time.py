"""Games: a lobby's start time and the reminder before it.

``start_at``: when a lobby that has not been started by hand starts by itself (or is
cancelled, short of players); ``start_reminder_at``: when its members are reminded
(cleared once they are). The scheduler reads both, as it reads the phase deadlines.

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-01
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0009"
down_revision: str | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.add_column(sa.Column("start_at", sa.DateTime(), nullable=True))
        batch_op.add_column(sa.Column("start_reminder_at", sa.DateTime(), nullable=True))
        batch_op.create_index(batch_op.f("ix_games_start_at"), ["start_at"], unique=False)
        batch_op.create_index(batch_op.f("ix_games_start_reminder_at"), ["start_reminder_at"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_games_start_reminder_at"))
        batch_op.drop_index(batch_op.f("ix_games_start_at"))
        batch_op.drop_column("start_reminder_at")
        batch_op.drop_column("start_at")
