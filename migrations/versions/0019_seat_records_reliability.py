"""Reliability: each seat record says how many phases its holder was asked to send, how
many they sent, and how many the game went through after the seat was taken from them
for absence (bot.features.records.reliability). A game's settings may hold ``min_reliability``
(a lobby's minimum), with no schema change.

The columns are NULL for the records already there: ``wolfhowl db backfill`` fills them
from each game's log where the game counted its misses (games created since the absence
policy existed) and leaves the older ones NULL (not known, never counted).

The downgrade drops the columns and takes ``min_reliability`` out of the games' settings,
which the earlier code, knowing no such setting, would refuse to read; it parks the values
(bot.db.parked_settings), which the upgrade puts back.

Revision ID: 0019
Revises: 0018
Create Date: 2026-12-10
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from bot.db import parked_settings, rules_versions
from bot.db.migrate import DowngradeRefused

revision: str = "0019"
down_revision: str | None = "0018"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

COLUMNS = ("phases_asked", "phases_sent", "phases_abandoned")
SETTING = "min_reliability"


def upgrade() -> None:
    with op.batch_alter_table("seat_records", schema=None) as batch_op:
        for name in COLUMNS:
            batch_op.add_column(sa.Column(name, sa.Integer(), nullable=True))
    parked_settings.restore(op.get_bind(), SETTING)


def downgrade_refusal(bind: sa.Connection) -> str | None:
    """Why this database cannot go below 0019, or None: a game dealt under rules version
    5 or a later one (engine/data/rules.toml: ``schema``), which a release before 0019 may
    not know. Read by the downgrade and by ``wolfhowl db check``."""
    return rules_versions.refusal(bind, revision)


def downgrade() -> None:
    # Refused here, before any change (the whole downgrade is one transaction).
    refusal = downgrade_refusal(op.get_bind())
    if refusal:
        raise DowngradeRefused(f"{refusal}; nothing was changed")
    parked_settings.park(op.get_bind(), SETTING)
    with op.batch_alter_table("seat_records", schema=None) as batch_op:
        for name in reversed(COLUMNS):
            batch_op.drop_column(name)
