"""The house rule ``uneven_tables``: games set up before it keep the rules they were set up
under.

A game's settings gain ``uneven_tables`` (engine.uneven: a faction dealt a seat fewer
starts with a head start). A new game takes the rule's default, ``compensate``; a game
already in the database (a lobby, a running or a finished game) was set up without it,
so ``off`` is written into its settings, and the lobby deals as it said it would. The
engine reads a stored state without the key as ``off`` too. The downgrade takes the key
out again: the earlier code, knowing no such setting, would refuse to read it. No schema
change.

Revision ID: 0020
Revises: 0019
Create Date: 2026-12-05
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import sqlalchemy as sa
from alembic import op

revision: str = "0020"
down_revision: str | None = "0019"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

EARLIER = {"uneven_tables": "off"}
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
