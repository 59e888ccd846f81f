"""Time zones: a user's own (``users.timezone``, ``/settings timezone``), and a slow
game's deadline hours (``deadline_hours``, ``deadline_zone`` in a game's settings, no
schema change: ``bot.core.time_zones``).

The downgrade parks the users' zones (``bot.db.parked_rows``) and the two settings keys
(``bot.db.parked_settings``), which the earlier code, knowing no such setting, would
refuse to read, and drops the column; the next upgrade puts them back. A game whose
settings held deadline hours plays on, under the earlier release, by its phases' lengths.

Revision ID: 0024
Revises: 0023
Create Date: 2026-12-05
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from bot.db import parked_rows, parked_settings

revision: str = "0024"
down_revision: str | None = "0023"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

SETTINGS = ("deadline_hours", "deadline_zone")
users = sa.table("users", sa.column("id", sa.BigInteger), sa.column("timezone", sa.String))


def upgrade() -> None:
    with op.batch_alter_table("users", schema=None) as batch_op:
        batch_op.add_column(sa.Column("timezone", sa.String(length=64), nullable=True))
    conn = op.get_bind()
    for row in parked_rows.unpark(conn, "users"):
        conn.execute(users.update().where(users.c.id == row["id"]).values(timezone=row["timezone"]))
    for key in SETTINGS:
        parked_settings.restore(conn, key)


def downgrade() -> None:
    conn = op.get_bind()
    for key in SETTINGS:
        parked_settings.park(conn, key)
    parked_rows.park(conn, users, ("id", "timezone"), users.c.timezone.is_not(None))
    with op.batch_alter_table("users", schema=None) as batch_op:
        batch_op.drop_column("timezone")
