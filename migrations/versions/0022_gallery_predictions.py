"""The gallery's predictions: each round, a spectator's or departed player's forecast of
the winning faction.

``predictions``: one row per (game, round, user), the latest choice (a new pick replaces
the row); closed for a round once its Dusk has closed (``bot.features.gallery.predictions``). Scored
at read time against the game's winners, so nothing else is written at the end.

Revision ID: 0022
Revises: 0021
Create Date: 2026-12-05
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0022"
down_revision: str | None = "0021"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "predictions",
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("round", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("user_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("faction", sa.String(length=16), nullable=False),
        sa.Column("made_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], name=op.f("fk_predictions_game_id_games"), ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("game_id", "round", "user_id", name=op.f("pk_predictions")),
    )


def downgrade() -> None:
    op.drop_table("predictions")
