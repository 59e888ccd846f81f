"""What the metrics read from the database when Prometheus scrapes a bot process
(``bot.discord.metrics_server``): the outbox's pending messages and the oldest one's
age, the live games by status and phase, and how far past due the earliest thing the
scheduler has to do is. One reading unit of work of three statements, each a range of
an index (``ix_outbox_due``: the pending messages; ``games.status``: the live games; the
scheduler's own ``wakeup_statement``), so a scrape costs the same whatever the history
holds."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, field
from datetime import UTC, datetime

from bot.core.deadlines import due_times
from bot.db.repos import ops as ops_repo
from bot.db.session import Database

LIVE_STATUSES = ("lobby", "running", "paused")


@dataclass(frozen=True, slots=True)
class Gauges:
    outbox_pending: int
    oldest_pending_age: float  # seconds; 0 when nothing waits
    scheduler_lag: float  # seconds the earliest due deadline (reminder, start…) is past; 0: none
    # (status, phase) -> live games; phase "none" for a lobby, which has none yet
    live_games: dict[tuple[str, str], int] = field(default_factory=dict)


async def read_gauges(db: Database, held: Collection[int] = ()) -> Gauges:
    """The outbox's pending messages (and how long ago the oldest was written), the
    live games by status and phase, and how long ago the earliest thing the scheduler
    has to do fell due (the games in ``held``, waiting out a failure's back-off, left
    out), as the database has them now."""
    now = db.now()
    async with db.read() as s:
        pending, oldest = await ops_repo.pending_messages(s)
        rows = await ops_repo.live_games_by_phase(s, LIVE_STATUSES)
        due = await due_times(s, held)
    age = 0.0
    if oldest is not None:
        age = max(0.0, (_aware(now) - _aware(oldest)).total_seconds())
    lag = max(0.0, (_aware(now) - min(map(_aware, due))).total_seconds()) if due else 0.0
    return Gauges(int(pending), age, lag, {(str(status), str(phase or "none")): int(n) for status, phase, n in rows})


def _aware(value: datetime) -> datetime:
    return value.replace(tzinfo=UTC) if value.tzinfo is None else value
