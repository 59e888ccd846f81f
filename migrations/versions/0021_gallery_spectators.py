"""The gallery's spectators: who watches each game from its gallery.

``spectators``: one row per (game, user) who ran ``/game watch``; ``left_at`` is set when
they stopped watching after the start (the row stays: they saw the gallery, so they stay
muted in the game channel and may take no seat of that game). Discord's side (the
dead's channel opened to them) is derived from these rows by the reconciler.

A game's settings may hold ``gallery`` (what the gallery is shown), with no schema
change; the downgrade takes it out of the games' settings, which the earlier code, knowing
no such setting, would refuse to read, and parks the values (bot.db.parked_settings),
which the upgrade puts back.

Revision ID: 0021
Revises: 0020
Create Date: 2026-12-05
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from bot.db import parked_settings

revision: str = "0021"
down_revision: str | None = "0020"
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
    parked_settings.restore(op.get_bind(), SETTING)


SETTING = "gallery"


def downgrade() -> None:
    parked_settings.park(op.get_bind(), SETTING)
    op.drop_table("spectators")
