"""House rules: games set up before a moderator could choose them keep the rulings they
were played by.

A game's settings gain ``killing_blow``, ``departures`` and ``vote_damage``; a new game
takes the rules' defaults, but a game already in the database (a lobby, a running or a
finished game) was set up under today's rulings, so they are written into its settings:
the killer takes the grail (E13), departures at dawn, the vote's damage named. The
engine reads a stored state without them the same way. No schema change.

The downgrade takes them out again and parks them (bot.db.parked_settings); the upgrade
gives each back: a dealt game the ruling its state was dealt with (the earlier one when
the state names none), a lobby the one parked for it, else the earlier one.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-01
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

from bot.db import parked_settings

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

EARLIER = {"killing_blow": "killer_takes", "departures": "dawn", "vote_damage": "public"}


def upgrade() -> None:
    for key, earlier in EARLIER.items():
        parked_settings.restore(op.get_bind(), key, parked_settings.house_rule(key, earlier))


def downgrade() -> None:
    for key in EARLIER:
        parked_settings.park(op.get_bind(), key)
