"""Rules version 7, at 7 and 8 players Neutral's head start a point less and the fair
deal's worths per seating (engine.uneven, engine.fair_deal): no schema change. A release
before this revision does not know the version, and would deal or score such a game by
version 6; so the downgrade stops here while a game dealt under version 7 or a later one
is stored (bot.db.rules_versions).

Revision ID: 0026
Revises: 0025
Create Date: 2026-12-05
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.db import rules_versions

revision: str = "0026"
down_revision: str | None = "0025"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    pass


# Below 0026 only while no game dealt under its rules version (or a later one) is stored.
downgrade_refusal, downgrade = rules_versions.marker_steps(revision)
