"""Seasons: a server's numbered seasons (``/mod season start|end``), the finished games
each counts, each player's standing in it, and the identifications a seat record keeps.

``seasons``: one row per season; ``open_guild_id`` holds the server's id while it is open
(unique: one open season per server). ``season_games``: a finished game's season, the one
open when its record was written. ``season_standings``: games, wins and the OpenSkill
rating within a season (``bot.service.seasons``). ``seat_records.guesses`` and
``guesses_right``: the identifications a holder sent and those confirmed, NULL for the
records already there until ``wolfhowl db backfill`` reads them from the games' logs.
No season exists before this revision, so no game is counted in one on the way up.

The downgrade drops the three tables and the two columns (``seat_records`` has no child
rows, so its rebuild on SQLite loses nothing).

Revision ID: 0023
Revises: 0022
Create Date: 2026-12-05
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0023"
down_revision: str | None = "0022"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

COLUMNS = ("guesses", "guesses_right")


def upgrade() -> None:
    op.create_table(
        "seasons",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("guild_id", sa.BigInteger(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=100), nullable=True),
        sa.Column("language", sa.String(length=16), nullable=False),
        sa.Column("open_guild_id", sa.BigInteger(), nullable=True),
        sa.Column("started_at", sa.DateTime(), nullable=False),
        sa.Column("started_by", sa.BigInteger(), nullable=False),
        sa.Column("ended_at", sa.DateTime(), nullable=True),
        sa.Column("ended_by", sa.BigInteger(), nullable=True),
        sa.Column("summary", sa.JSON(), nullable=True),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_seasons")),
        sa.UniqueConstraint("guild_id", "number", name=op.f("uq_seasons_guild_id_number")),
        sa.UniqueConstraint("open_guild_id", name=op.f("uq_seasons_open_guild_id")),
    )
    op.create_table(
        "season_games",
        sa.Column("game_id", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("season_id", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["game_records.game_id"], name=op.f("fk_season_games_game_id_game_records"), ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["season_id"], ["seasons.id"], name=op.f("fk_season_games_season_id_seasons"), ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("game_id", name=op.f("pk_season_games")),
    )
    op.create_index(op.f("ix_season_games_season_id"), "season_games", ["season_id"], unique=False)
    op.create_table(
        "season_standings",
        sa.Column("season_id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("guild_id", sa.BigInteger(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("wins", sa.Integer(), nullable=False),
        sa.Column("win_rate", sa.Float(), nullable=False),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("rating", sa.Float(), nullable=False),
        sa.Column("last_game_id", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["season_id"], ["seasons.id"], name=op.f("fk_season_standings_season_id_seasons"), ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("season_id", "user_id", name=op.f("pk_season_standings")),
    )
    op.create_index("ix_season_standings_rating", "season_standings", ["season_id", "rating"], unique=False)
    with op.batch_alter_table("seat_records", schema=None) as batch_op:
        for name in COLUMNS:
            batch_op.add_column(sa.Column(name, sa.Integer(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("seat_records", schema=None) as batch_op:
        for name in reversed(COLUMNS):
            batch_op.drop_column(name)
    op.drop_index("ix_season_standings_rating", table_name="season_standings")
    op.drop_table("season_standings")
    op.drop_index(op.f("ix_season_games_season_id"), table_name="season_games")
    op.drop_table("season_games")
    op.drop_table("seasons")
