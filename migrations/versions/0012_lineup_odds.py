"""Line-ups: the simulated odds of each line-up, kept once computed.

A game's line-up is one more of its settings (``games.settings.lineup``: a preset's
name or the classes of each faction; a game without it was dealt by lot, as before), so
it needs no column. ``lineup_odds`` holds the result of the background simulation per
line-up, table size and rules (bot.core.lineup_odds), so a lobby shows it again after
a restart and another lobby with the same line-up does not simulate it again.

Revision ID: 0012
Revises: 0011
Create Date: 2026-12-01
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0012"
down_revision: str | None = "0011"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "lineup_odds",
        sa.Column("key", sa.String(length=400), nullable=False),
        sa.Column("players", sa.Integer(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("wins", sa.JSON(), nullable=False),
        sa.Column("median_rounds", sa.Float(), nullable=False),
        sa.Column("computed_at", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("key", name=op.f("pk_lineup_odds")),
    )


def downgrade() -> None:
    op.drop_table("lineup_odds")
