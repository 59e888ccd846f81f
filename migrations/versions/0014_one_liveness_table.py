"""One liveness table: ``heartbeats`` goes into ``processes``.

Each running bot process had two rows that said it was alive: one in ``processes``
(per run, for the outbox's leases: beaten every 10 s while it runs) and one in
``heartbeats`` (per host and shards, for ``wolfhowl health``: beaten every 30 s while
connected to Discord). ``processes`` now says both: its host and shards, since when it
is connected to Discord (``connected_since``) and its last beat while connected
(``connected_at``), beside its last beat at all (``heartbeat_at``).

Upgrade: a ``heartbeats`` row (``host`` or ``host:shards``, as the bot named both)
goes into the live process of that name; one that names none (a process configured
under a ``process_name`` of its own, or one gone) becomes a stopped process row that
keeps its last connected beat, so ``wolfhowl health`` answers as before. Other
processes' host is unknown (empty). Downgrade: each host and shards gets back its row
from the latest connected beat among its processes.

Revision ID: 0014
Revises: 0013
Create Date: 2026-12-01
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

import sqlalchemy as sa
from alembic import op

from bot.db import rules_versions
from bot.db.migrate import DowngradeRefused

revision: str = "0014"
down_revision: str | None = "0013"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

COLUMNS = ("host", "shards", "connected_since", "connected_at")

processes = sa.table(
    "processes",
    sa.column("id", sa.Integer),
    sa.column("name", sa.String),
    sa.column("host", sa.String),
    sa.column("shards", sa.String),
    sa.column("pid", sa.Integer),
    sa.column("started_at", sa.DateTime),
    sa.column("heartbeat_at", sa.DateTime),
    sa.column("connected_since", sa.DateTime),
    sa.column("connected_at", sa.DateTime),
    sa.column("stopped_at", sa.DateTime),
)
heartbeats = sa.table(
    "heartbeats", sa.column("host", sa.String), sa.column("connected_since", sa.DateTime), sa.column("beat_at", sa.DateTime)
)


def upgrade() -> None:
    with op.batch_alter_table("processes", schema=None) as batch_op:
        batch_op.add_column(sa.Column("host", sa.String(length=255), server_default="", nullable=False))
        batch_op.add_column(sa.Column("shards", sa.String(length=255), server_default="", nullable=False))
        batch_op.add_column(sa.Column("connected_since", sa.DateTime(), nullable=True))
        batch_op.add_column(sa.Column("connected_at", sa.DateTime(), nullable=True))
    conn = op.get_bind()
    for key, since, beat_at in conn.execute(sa.select(heartbeats.c.host, heartbeats.c.connected_since, heartbeats.c.beat_at)).all():
        host, _, shards = str(key).partition(":")
        connection = {"host": host, "shards": shards, "connected_since": since, "connected_at": beat_at}
        live = conn.execute(
            processes.update().where(processes.c.name == key, processes.c.stopped_at.is_(None)).values(**connection)
        )
        if live.rowcount == 0:
            conn.execute(
                processes.insert().values(
                    name=str(key)[:200], pid=0, started_at=since, heartbeat_at=beat_at, stopped_at=beat_at, **connection
                )
            )
    op.drop_table("heartbeats")


def downgrade_refusal(bind: sa.Connection) -> str | None:
    """Why this database cannot go below 0014, or None: a game dealt under rules version
    3 or a later one (engine/data/rules.toml: ``schema``), which a release before 0014 may
    not know. Read by the downgrade and by ``wolfhowl db check``."""
    return rules_versions.refusal(bind, revision)


def downgrade() -> None:
    # Refused here, before any change (the whole downgrade is one transaction).
    refusal = downgrade_refusal(op.get_bind())
    if refusal:
        raise DowngradeRefused(f"{refusal}; nothing was changed")
    op.create_table(
        "heartbeats",
        sa.Column("host", sa.String(length=255), nullable=False),
        sa.Column("connected_since", sa.DateTime(), nullable=False),
        sa.Column("beat_at", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("host", name=op.f("pk_heartbeats")),
    )
    conn = op.get_bind()
    latest: dict[str, tuple[datetime, datetime]] = {}
    connected = sa.select(
        processes.c.name, processes.c.host, processes.c.shards, processes.c.connected_since, processes.c.connected_at
    ).where(processes.c.connected_at.is_not(None))
    for name, host, shards, since, beat_at in conn.execute(connected).all():
        key = (f"{host}:{shards}" if shards else host) if host else name
        if key not in latest or latest[key][1] < beat_at:
            latest[key] = (since or beat_at, beat_at)
    if latest:
        op.bulk_insert(heartbeats, [{"host": k, "connected_since": s, "beat_at": b} for k, (s, b) in latest.items()])
    with op.batch_alter_table("processes", schema=None) as batch_op:
        for column in reversed(COLUMNS):
            batch_op.drop_column(column)
