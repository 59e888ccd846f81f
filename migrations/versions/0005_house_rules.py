"""House rules: games set up before a moderator could choose them keep the rulings they
were played by.

A game's settings gain ``killing_blow``, ``departures`` and ``vote_damage``; a new game
takes the rules' defaults, but a game already in the database (a lobby, a running or a
finished game) was set up under today's rulings, so they are written into its settings:
the killer takes the grail (E13), departures at dawn, the vote's damage named. The
engine reads a stored state without them the same way. No schema change.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-01
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

EARLIER = {"killing_blow": "killer_takes", "departures": "dawn", "vote_damage": "public"}
games = sa.table("games", sa.column("id", sa.Integer), sa.column("settings", sa.JSON))


def _rewrite(change: Any) -> None:
    conn = op.get_bind()
    for game_id, settings in conn.execute(sa.select(games.c.id, games.c.settings)).all():
        if isinstance(settings, str):
            settings = json.loads(settings)
        new = change(dict(settings))
        if new != settings:
            conn.execute(games.update().where(games.c.id == game_id).values(settings=new))


def upgrade() -> None:
    _rewrite(lambda s: EARLIER | s)


def downgrade() -> None:
    _rewrite(lambda s: {k: v for k, v in s.items() if k not in EARLIER})
