"""AI seats: a seat held by no Discord user, and the AI's turns.

``game_players.user_id`` becomes nullable: a seat whose holder has no user is played by
the bot's baseline AI (its ``active_user_id`` stays NULL, so the one-live-game rule
concerns humans only). ``ai_turns`` holds, per AI seat and phase, the moment its
submission is due (drawn from the game's seed), when it was played and what came of it,
and the AI's memory of its own choices after it: nothing about an AI seat lives only in
a process's memory. ``game_records.ai_seats``: how many seats of a finished game the AI
held, for the humans' records.

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-01
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from bot.db.migrate import DowngradeRefused

revision: str = "0011"
down_revision: str | None = "0010"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("game_players", schema=None) as batch_op:
        batch_op.alter_column("user_id", existing_type=sa.BigInteger(), nullable=True)
    op.create_table(
        "ai_turns",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("phase", sa.String(length=16), nullable=False),
        sa.Column("due_at", sa.DateTime(), nullable=False),
        sa.Column("played_at", sa.DateTime(), nullable=True),
        sa.Column("outcome", sa.String(length=64), nullable=True),
        sa.Column("memory", sa.JSON(), nullable=True),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], name=op.f("fk_ai_turns_game_id_games"), ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_ai_turns")),
        sa.UniqueConstraint("game_id", "round", "phase", "seat", name=op.f("uq_ai_turns_game_id_round_phase_seat")),
    )
    op.create_index("ix_ai_turns_due", "ai_turns", ["played_at", "due_at"], unique=False)
    with op.batch_alter_table("game_records", schema=None) as batch_op:
        batch_op.add_column(sa.Column("ai_seats", sa.Integer(), server_default="0", nullable=False))


def downgrade_refusal(bind: sa.Connection) -> str | None:
    """Why this database cannot go below 0011, or None: before it every seat had a user,
    so a game that had AI seats cannot be held. Read by the downgrade and by ``wolfhowl
    db check``."""
    with_ai = bind.execute(sa.text("SELECT DISTINCT game_id FROM game_players WHERE user_id IS NULL ORDER BY game_id")).scalars().all()
    if not with_ai:
        return None
    games = ", ".join(f"#{g}" for g in with_ai)
    return f"cannot go below 0011: games {games} had AI seats, which a database before 0011 cannot hold (every seat had a user then)"


def downgrade() -> None:
    # Refused here, before any change (the whole downgrade is one transaction).
    refusal = downgrade_refusal(op.get_bind())
    if refusal:
        raise DowngradeRefused(f"{refusal}; nothing was changed")
    with op.batch_alter_table("game_records", schema=None) as batch_op:
        batch_op.drop_column("ai_seats")
    op.drop_index("ix_ai_turns_due", table_name="ai_turns")
    op.drop_table("ai_turns")
    with op.batch_alter_table("game_players", schema=None) as batch_op:
        batch_op.alter_column("user_id", existing_type=sa.BigInteger(), nullable=False)
