"""Community records: a record per finished game and per seat, each player's standing
(games, wins, rating) per server, and the profile's privacy choice.

Records are written in the transaction that ends a game; finished games from before
this revision get theirs from ``wolfhowl db backfill``.

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-01
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from bot.db import rules_versions
from bot.db.migrate import DowngradeRefused

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "game_records",
        sa.Column("game_id", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("guild_id", sa.BigInteger(), nullable=False),
        sa.Column("channel_id", sa.BigInteger(), nullable=False),
        sa.Column("language", sa.String(length=16), nullable=False),
        sa.Column("players", sa.Integer(), nullable=False),
        sa.Column("rounds", sa.Integer(), nullable=False),
        sa.Column("winners", sa.JSON(), nullable=False),
        sa.Column("scores", sa.JSON(), nullable=False),
        sa.Column("end_reason", sa.String(length=32), nullable=False),
        sa.Column("seed", sa.String(length=128), nullable=False),
        sa.Column("started_at", sa.DateTime(), nullable=False),
        sa.Column("ended_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], name=op.f("fk_game_records_game_id_games"), ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("game_id", name=op.f("pk_game_records")),
    )
    op.create_index("ix_game_records_guild_ended", "game_records", ["guild_id", "ended_at"], unique=False)
    op.create_table(
        "seat_records",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("guild_id", sa.BigInteger(), nullable=False),
        sa.Column("user_id", sa.BigInteger(), nullable=True),
        sa.Column("name", sa.String(length=100), nullable=True),
        sa.Column("ai", sa.Boolean(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("class_id", sa.String(length=32), nullable=False),
        sa.Column("faction", sa.String(length=16), nullable=False),
        sa.Column("result", sa.String(length=8), nullable=False),
        sa.Column("fate", sa.String(length=16), nullable=False),
        sa.Column("kills", sa.Integer(), nullable=False),
        sa.Column("teamkills", sa.Integer(), nullable=False),
        sa.Column("steals", sa.Integer(), nullable=False),
        sa.Column("grails", sa.Integer(), nullable=False),
        sa.Column("rounds", sa.Integer(), nullable=False),
        sa.Column("faction_score", sa.Integer(), nullable=False),
        sa.Column("ended_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"], ["game_records.game_id"], name=op.f("fk_seat_records_game_id_game_records"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_seat_records")),
    )
    op.create_index("ix_seat_records_user", "seat_records", ["user_id", "guild_id", "ended_at"], unique=False)
    op.create_index("ix_seat_records_game", "seat_records", ["game_id", "seat"], unique=False)
    op.create_table(
        "player_standings",
        sa.Column("guild_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("user_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("wins", sa.Integer(), nullable=False),
        sa.Column("win_rate", sa.Float(), nullable=False),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("rating", sa.Float(), nullable=False),
        sa.Column("last_game_id", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("guild_id", "user_id", name=op.f("pk_player_standings")),
    )
    for name, column in (("rating", "rating"), ("wins", "wins"), ("games", "games"), ("win_rate", "win_rate")):
        op.create_index(f"ix_player_standings_{name}", "player_standings", ["guild_id", column], unique=False)
    op.create_table(
        "player_profiles",
        sa.Column("user_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("hidden", sa.Boolean(), nullable=False),
        sa.Column("updated_at", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("user_id", name=op.f("pk_player_profiles")),
    )


def downgrade_refusal(bind: sa.Connection) -> str | None:
    """Why this database cannot go below 0003, or None: a game dealt under rules version
    2 or a later one (engine/data/rules.toml: ``schema``), which a release before 0003 may
    not know. Read by the downgrade and by ``wolfhowl db check``."""
    return rules_versions.refusal(bind, revision)


def downgrade() -> None:
    # Refused here, before any change (the whole downgrade is one transaction).
    refusal = downgrade_refusal(op.get_bind())
    if refusal:
        raise DowngradeRefused(f"{refusal}; nothing was changed")
    op.drop_table("player_profiles")
    for name in ("win_rate", "games", "wins", "rating"):
        op.drop_index(f"ix_player_standings_{name}", table_name="player_standings")
    op.drop_table("player_standings")
    op.drop_index("ix_seat_records_game", table_name="seat_records")
    op.drop_index("ix_seat_records_user", table_name="seat_records")
    op.drop_table("seat_records")
    op.drop_index("ix_game_records_guild_ended", table_name="game_records")
    op.drop_table("game_records")
