"""A game without a server: a practice game, played in a person's DM with the bot.

``games.guild_id`` may be NULL: such a game's channel is the DM (``channel_id``), it has no
server's members, channels or moderators, and it writes no records (``bot.features.practice.practice``).

The downgrade gives those games the server id 0, which names no server: the rows stay
readable, and the older code finds no server for them (nothing is posted or reconciled
there, and a live one is ended by its deadline's ordinary course).

Revision ID: 0018
Revises: 0017
Create Date: 2026-12-09
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0018"
down_revision: str | None = "0017"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.alter_column("guild_id", existing_type=sa.BigInteger(), nullable=True)


def downgrade() -> None:
    op.execute(sa.text("UPDATE games SET guild_id = 0 WHERE guild_id IS NULL"))
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.alter_column("guild_id", existing_type=sa.BigInteger(), nullable=False)
