"""Rules version 6, the fair deal (engine.fair_deal): no schema change. A release before
this revision does not know the version, and would deal or verify such a game by plain
lot; so the downgrade stops here while a game dealt under version 6 or a later one is
stored (bot.db.rules_versions).

Revision ID: 0025
Revises: 0024
Create Date: 2026-12-05
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from bot.db import rules_versions
from bot.db.migrate import DowngradeRefused

revision: str = "0025"
down_revision: str | None = "0024"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    pass


def downgrade_refusal(bind: sa.Connection) -> str | None:
    """Why this database cannot go below 0025, or None: a game dealt under rules version
    6 or a later one (engine/data/rules.toml: ``schema``), which a release before 0025
    does not know. Read by the downgrade and by ``wolfhowl db check``."""
    return rules_versions.refusal(bind, revision)


def downgrade() -> None:
    refusal = downgrade_refusal(op.get_bind())
    if refusal:
        raise DowngradeRefused(f"{refusal}; nothing was changed")
