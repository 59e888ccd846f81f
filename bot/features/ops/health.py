"""Is the bot well? What ``wolfhowl health`` (the image's HEALTHCHECK) asks the database:
when the bot on this host last beat while connected to Discord (``processes.connected_at``,
renewed by the running process, bot.core.processes), and whether the outbox has
messages due for longer than a few minutes (delivery stuck). :func:`check` gives one
line and a verdict.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from bot.db.repos import ops as ops_repo
from bot.db.session import Database

# The check's defaults: a heartbeat older than this means "not connected"; a message
# due for longer than this means the outbox is stuck.
STALE_SECONDS = 120
STUCK_SECONDS = 300


@dataclass(frozen=True, slots=True)
class Health:
    ok: bool
    line: str


async def check(
    db: Database, *, host: str | None = None, stale_seconds: float = STALE_SECONDS, stuck_seconds: float = STUCK_SECONDS
) -> Health:
    """A bot process on ``host`` (any host when None) beat while connected to Discord
    within ``stale_seconds``, and no outbox message has been due for more than
    ``stuck_seconds``. With several processes on a host (sharded, or a restart's
    overlap), the latest such beat of any of them counts; a stopped process's last one
    counts too, so a stop reads as a heartbeat growing stale. Database errors are the
    caller's (they mean "database unreachable")."""
    now = db.now()
    async with db.read() as s:
        last = await ops_repo.last_connected_beat(s, host)
        stuck, oldest = await ops_repo.overdue_messages(s, now - timedelta(seconds=stuck_seconds))
    problems = []
    if last is None:
        problems.append("no heartbeat from the bot" + (f" on {host}" if host else "") + " (not connected to Discord since it started)")
    elif (now - _aware(last)).total_seconds() > stale_seconds:
        problems.append(f"not connected to Discord: last heartbeat {_ago(now, _aware(last))} ago")
    if stuck:
        assert oldest is not None  # (the earliest of the messages counted)
        problems.append(f"outbox stuck: {stuck} message{'s' if stuck != 1 else ''} due for over {_ago(now, _aware(oldest))}")
    if problems:
        return Health(False, "unhealthy: " + "; ".join(problems))
    assert last is not None
    return Health(True, f"healthy: connected to Discord (heartbeat {_ago(now, _aware(last))} ago), database reachable, outbox flowing")


def _aware(value: datetime) -> datetime:
    from datetime import UTC

    return value.replace(tzinfo=UTC) if value.tzinfo is None else value


def _ago(now: datetime, then: datetime) -> str:
    seconds = max(0, int((now - then).total_seconds()))
    if seconds < 120:
        return f"{seconds} s"
    if seconds < 7200:
        return f"{seconds // 60} min"
    return f"{seconds // 3600} h"
