"""The gallery's spectators: who watches each game from its gallery.

``spectators``: one row per (game, user) who ran ``/game watch``; ``left_at`` is set when
they stopped watching after the start (the row stays: they saw the gallery, so they stay
muted in the game channel and may take no seat of that game). Discord's side (the
dead's channel opened to them) is derived from these rows by the reconciler.

Revision ID: 0019
Revises: 0018
Create Date: 2026-12-09
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0019"
down_revision: str | None = "0018"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "spectators",
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("joined_at", sa.DateTime(), nullable=False),
        sa.Column("left_at", sa.DateTime(), nullable=True),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], name=op.f("fk_spectators_game_id_games"), ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("game_id", "user_id", name=op.f("pk_spectators")),
    )


def downgrade() -> None:
    op.drop_table("spectators")
