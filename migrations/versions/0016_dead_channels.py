"""The channel for the dead of each game channel, by id.

The bot found the dead's channel again by a marker in its topic; anyone who manages a
channel can write that topic, and the bot then let the dead into a room a living player
reads. The id of the room the bot created is recorded here, and only that room is used
(``bot.discord.guild.quiet_dead``). A room made before this revision is not recorded: the bot
makes a new one the next time it needs it.

Revision ID: 0016
Revises: 0015
Create Date: 2026-12-08
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from bot.db import rules_versions
from bot.db.migrate import DowngradeRefused

revision: str = "0016"
down_revision: str | None = "0015"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "dead_channels",
        sa.Column("game_channel_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("dead_channel_id", sa.BigInteger(), nullable=False),
        sa.Column("guild_id", sa.BigInteger(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("game_channel_id", name=op.f("pk_dead_channels")),
        sa.UniqueConstraint("dead_channel_id", name=op.f("uq_dead_channels_dead_channel_id")),
    )


def downgrade_refusal(bind: sa.Connection) -> str | None:
    """Why this database cannot go below 0016, or None: a game dealt under rules version
    4 or a later one (engine/data/rules.toml: ``schema``), which a release before 0016 may
    not know. Read by the downgrade and by ``wolfhowl db check``."""
    return rules_versions.refusal(bind, revision)


def downgrade() -> None:
    # Refused here, before any change (the whole downgrade is one transaction).
    refusal = downgrade_refusal(op.get_bind())
    if refusal:
        raise DowngradeRefused(f"{refusal}; nothing was changed")
    op.drop_table("dead_channels")
