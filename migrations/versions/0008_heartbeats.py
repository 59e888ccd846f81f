"""Heartbeats: a running bot renews its row while connected to Discord, so that
``wolfhowl health`` (a container's health check) can tell whether it is.

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-01
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0008"
down_revision: str | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "heartbeats",
        sa.Column("host", sa.String(length=255), nullable=False),
        sa.Column("connected_since", sa.DateTime(), nullable=False),
        sa.Column("beat_at", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("host", name=op.f("pk_heartbeats")),
    )


def downgrade() -> None:
    op.drop_table("heartbeats")
