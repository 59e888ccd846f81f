"""The gallery's spectators: who watches each game from its gallery.

``spectators``: one row per (game, user) who ran ``/game watch``; ``left_at`` is set when
they stopped watching after the start (the row stays: they saw the gallery, so they stay
muted in the game channel and may take no seat of that game). Discord's side (the
dead's channel opened to them) is derived from these rows by the reconciler.

A game's settings may hold ``gallery`` (what the gallery is shown), with no schema
change; the downgrade takes it out of the games' settings, which the earlier code, knowing
no such setting, would refuse to read.

Revision ID: 0021
Revises: 0020
Create Date: 2026-12-05
"""

from __future__ import annotations

import json
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0021"
down_revision: str | None = "0020"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "spectators",
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("joined_at", sa.DateTime(), nullable=False),
        sa.Column("left_at", sa.DateTime(), nullable=True),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], name=op.f("fk_spectators_game_id_games"), ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("game_id", "user_id", name=op.f("pk_spectators")),
    )


SETTING = "gallery"
games = sa.table("games", sa.column("id", sa.Integer), sa.column("settings", sa.JSON))


def downgrade() -> None:
    conn = op.get_bind()
    for game_id, settings in conn.execute(sa.select(games.c.id, games.c.settings)).all():
        if isinstance(settings, str):
            settings = json.loads(settings)
        if isinstance(settings, dict) and SETTING in settings:
            kept = {k: v for k, v in settings.items() if k != SETTING}
            conn.execute(games.update().where(games.c.id == game_id).values(settings=kept))
    op.drop_table("spectators")
