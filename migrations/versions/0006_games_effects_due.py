"""Games: ``effects_due``, the changes Discord's side has not yet been brought in line with.

Every change of a game or its players sets it; the bot's reconciler, run after each
delivery pass, at start-up and so after a crash, brings the mutes, the dead channel and
the lobby post in line with the stored state and clears it. Indexed: the reconciler
reads only the games it names, never every live game.

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-01
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.add_column(sa.Column("effects_due", sa.Integer(), nullable=True))
        batch_op.create_index(batch_op.f("ix_games_effects_due"), ["effects_due"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_games_effects_due"))
        batch_op.drop_column("effects_due")
