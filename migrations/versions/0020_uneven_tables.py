"""The house rule ``uneven_tables``: games set up before it keep the rules they were set up
under.

A game's settings gain ``uneven_tables`` (engine.uneven: a faction dealt a seat fewer
starts with a head start). A new game takes the rule's default, ``compensate``; a game
already in the database (a lobby, a running or a finished game) was set up without it,
so ``off`` is written into its settings, and the lobby deals as it said it would. The
engine reads a stored state without the key as ``off`` too. The downgrade takes the key
out again: the earlier code, knowing no such setting, would refuse to read it. It parks
the values (bot.db.parked_settings), and the upgrade gives them back: a game that has a
state takes the value its state was dealt with (``off`` when the state names none), a
lobby the value parked for it, else ``off``. No schema change.

Revision ID: 0020
Revises: 0019
Create Date: 2026-12-05
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

from bot.db import parked_settings

revision: str = "0020"
down_revision: str | None = "0019"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

KEY = "uneven_tables"
EARLIER = "off"


def upgrade() -> None:
    parked_settings.restore(op.get_bind(), KEY, parked_settings.house_rule(KEY, EARLIER))


def downgrade() -> None:
    parked_settings.park(op.get_bind(), KEY)
