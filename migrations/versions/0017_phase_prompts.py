"""Phase prompts: a user's own choice, and a message that waits for another.

``users.prompts``: whether the user wants a private prompt with the controls when a
phase opens (NULL: they never said, the game's setting decides). ``outbox.follows``:
the idempotency key of the message this one is delivered after (a phase's prompts
follow its public post); NULL for every other message.

Revision ID: 0017
Revises: 0016
Create Date: 2026-12-05
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0017"
down_revision: str | None = "0016"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("users", schema=None) as batch_op:
        batch_op.add_column(sa.Column("prompts", sa.Boolean(), nullable=True))
    with op.batch_alter_table("outbox", schema=None) as batch_op:
        batch_op.add_column(sa.Column("follows", sa.String(length=200), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("outbox", schema=None) as batch_op:
        batch_op.drop_column("follows")
    with op.batch_alter_table("users", schema=None) as batch_op:
        batch_op.drop_column("prompts")
