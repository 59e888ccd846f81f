"""Absence: misses counted per seat, the standby list and the seat offers made to it.

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-01
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0010"
down_revision: str | None = "0009"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("game_players", schema=None) as batch_op:
        batch_op.add_column(sa.Column("misses_in_row", sa.Integer(), nullable=False, server_default="0"))
        batch_op.add_column(sa.Column("misses_total", sa.Integer(), nullable=False, server_default="0"))
    op.create_table(
        "standbys",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.BigInteger(), nullable=False),
        sa.Column("display_name", sa.String(length=100), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("joined_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], name=op.f("fk_standbys_game_id_games"), ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], name=op.f("fk_standbys_user_id_users")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_standbys")),
        sa.UniqueConstraint("game_id", "user_id", name=op.f("uq_standbys_game_id_user_id")),
    )
    op.create_index(op.f("ix_standbys_game_id"), "standbys", ["game_id"], unique=False)
    op.create_table(
        "seat_offers",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.BigInteger(), nullable=False),
        sa.Column("holder_id", sa.BigInteger(), nullable=False),
        sa.Column("reason", sa.String(length=16), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("expires_at", sa.DateTime(), nullable=False),
        sa.Column("closed_at", sa.DateTime(), nullable=True),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], name=op.f("fk_seat_offers_game_id_games"), ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_seat_offers")),
    )
    op.create_index(op.f("ix_seat_offers_game_id"), "seat_offers", ["game_id"], unique=False)
    op.create_index(op.f("ix_seat_offers_expires_at"), "seat_offers", ["expires_at"], unique=False)


def downgrade() -> None:
    op.drop_index(op.f("ix_seat_offers_expires_at"), table_name="seat_offers")
    op.drop_index(op.f("ix_seat_offers_game_id"), table_name="seat_offers")
    op.drop_table("seat_offers")
    op.drop_index(op.f("ix_standbys_game_id"), table_name="standbys")
    op.drop_table("standbys")
    with op.batch_alter_table("game_players", schema=None) as batch_op:
        batch_op.drop_column("misses_total")
        batch_op.drop_column("misses_in_row")
