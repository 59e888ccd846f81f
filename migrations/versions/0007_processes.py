"""Processes and who holds an outbox lease.

Each bot process registers itself (``processes``) and beats a heartbeat; a lease names
its holder (``outbox.leased_by``). A restarted process (same name) or any process that
sees a stale heartbeat takes the leases over at once instead of waiting them out.

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-01
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0007"
down_revision: str | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "processes",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.Column("pid", sa.Integer(), nullable=False),
        sa.Column("started_at", sa.DateTime(), nullable=False),
        sa.Column("heartbeat_at", sa.DateTime(), nullable=False),
        sa.Column("stopped_at", sa.DateTime(), nullable=True),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_processes")),
    )
    with op.batch_alter_table("processes", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_processes_name"), ["name"], unique=False)
    with op.batch_alter_table("outbox", schema=None) as batch_op:
        batch_op.add_column(sa.Column("leased_by", sa.Integer(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("outbox", schema=None) as batch_op:
        batch_op.drop_column("leased_by")
    with op.batch_alter_table("processes", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_processes_name"))
    op.drop_table("processes")
