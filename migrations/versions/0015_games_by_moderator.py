"""The live games of a moderator, by index.

A moderator's command from a DM (and its autocomplete, at each keystroke) looks up the
live games the caller created (``games_moderated_by``); without an index on
``moderator_id`` that read every game ever played. ``(moderator_id, active_channel_id)``
makes it a short range: the caller's games, the live ones (a channel still held) apart.

Revision ID: 0015
Revises: 0014
Create Date: 2026-12-01
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

revision: str = "0015"
down_revision: str | None = "0014"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_index("ix_games_moderator", "games", ["moderator_id", "active_channel_id"])


def downgrade() -> None:
    op.drop_index("ix_games_moderator", table_name="games")
