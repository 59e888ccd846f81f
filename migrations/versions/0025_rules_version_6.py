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

from bot.db import rules_versions

revision: str = "0025"
down_revision: str | None = "0024"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    pass


# Below 0025 only while no game dealt under its rules version (or a later one) is stored.
downgrade_refusal, downgrade = rules_versions.marker_steps(revision)
