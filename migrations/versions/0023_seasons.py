"""Seasons: a server's numbered seasons (``/mod season start|end``), the finished games
each counts, each player's standing in it, and the identifications a seat record keeps.

``seasons``: one row per season; ``open_guild_id`` holds the server's id while it is open
(unique: one open season per server). ``season_games``: a finished game's season, the one
open when its record was written. ``season_standings``: games, wins and the OpenSkill
rating within a season (``bot.features.seasons.seasons``). ``seat_records.guesses`` and
``guesses_right``: the identifications a holder sent and those confirmed, NULL for the
records already there until ``wolfhowl db backfill`` reads them from the games' logs.
No season exists before this revision, so no game is counted in one on the way up.

The downgrade drops the three tables and the two columns (``seat_records`` has no child
rows, so its rebuild on SQLite loses nothing), parking first their rows (``bot.db.parked_rows``):
the seasons, the games each counted, the season standings and the seat records'
identification figures, which the next upgrade puts back as they were (a game whose
record went meanwhile leaves its rows parked no more).

Revision ID: 0023
Revises: 0022
Create Date: 2026-12-05
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

import sqlalchemy as sa
from alembic import op

from bot.db import parked_rows

revision: str = "0023"
down_revision: str | None = "0022"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

COLUMNS = ("guesses", "guesses_right")
SEASON_COLUMNS = (
    "id", "guild_id", "number", "name", "language", "open_guild_id", "started_at", "started_by", "ended_at", "ended_by", "summary",
)  # fmt: skip
TYPES: dict[str, Any] = {"summary": sa.JSON(), "started_at": sa.DateTime(), "ended_at": sa.DateTime()}
seasons = sa.table("seasons", *(sa.column(c, TYPES.get(c)) for c in SEASON_COLUMNS))
season_games = sa.table("season_games", sa.column("game_id"), sa.column("season_id"))
STANDING_COLUMNS = ("season_id", "user_id", "guild_id", "games", "wins", "win_rate", "mu", "sigma", "rating", "last_game_id")
season_standings = sa.table("season_standings", *(sa.column(c) for c in STANDING_COLUMNS))
seat_records = sa.table("seat_records", sa.column("id", sa.Integer), sa.column("game_id", sa.Integer), *(sa.column(c, sa.Integer) for c in COLUMNS))


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
    # What a downgrade parked comes back (the games counted only where their records still are).
    conn = op.get_bind()
    back = parked_rows.unpark(conn, "seasons", {"started_at": datetime, "ended_at": datetime})
    if back:
        conn.execute(seasons.insert(), back)
    counted = parked_rows.unpark(conn, "season_games")
    records = set(conn.execute(sa.text("SELECT game_id FROM game_records")).scalars())
    kept = [r for r in counted if r["game_id"] in records]
    if kept:
        conn.execute(season_games.insert(), kept)
    standings = parked_rows.unpark(conn, "season_standings")
    if standings:
        conn.execute(season_standings.insert(), standings)
    seats = set(conn.execute(sa.select(seat_records.c.id)).scalars())
    for row in parked_rows.unpark(conn, "seat_records"):
        if row["id"] in seats:
            conn.execute(seat_records.update().where(seat_records.c.id == row["id"]).values(**{c: row[c] for c in COLUMNS}))
    if back and conn.dialect.name == "postgresql":  # the id sequence follows the restored ids
        conn.execute(sa.text("SELECT setval(pg_get_serial_sequence('seasons', 'id'), (SELECT max(id) FROM seasons))"))


def downgrade() -> None:
    conn = op.get_bind()
    parked_rows.park(conn, seasons, SEASON_COLUMNS)
    parked_rows.park(conn, season_games, ("game_id", "season_id"))
    parked_rows.park(conn, season_standings, STANDING_COLUMNS)
    parked_rows.park(conn, seat_records, ("id", *COLUMNS), seat_records.c.guesses.is_not(None))
    with op.batch_alter_table("seat_records", schema=None) as batch_op:
        for name in reversed(COLUMNS):
            batch_op.drop_column(name)
    op.drop_index("ix_season_standings_rating", table_name="season_standings")
    op.drop_table("season_standings")
    op.drop_index(op.f("ix_season_games_season_id"), table_name="season_games")
    op.drop_table("season_games")
    op.drop_table("seasons")
