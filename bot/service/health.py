"""Is the bot well? What ``wolfhowl health`` (the image's HEALTHCHECK) asks the database:
the running bot's heartbeat (it renews its row while connected to Discord), and whether
the outbox has messages due for longer than a few minutes (delivery stuck).

The bot's side is :func:`beat`; the check's is :func:`check`, one line and a verdict.
"""

from __future__ import annotations

import socket
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import func, or_, select

from bot.db.models import Heartbeat, OutboxMessage
from bot.db.session import Database

# The bot renews its heartbeat this often while connected.
HEARTBEAT_SECONDS = 30.0
# The check's defaults: a heartbeat older than this means "not connected"; a message
# due for longer than this means the outbox is stuck.
STALE_SECONDS = 120
STUCK_SECONDS = 300


def this_host() -> str:
    """The heartbeat's key: this machine's (or container's) hostname."""
    return socket.gethostname()


def beat_key(host: str, shards: str = "") -> str:
    """A process's heartbeat row: its host, and the shards it runs when sharded
    (``host:0-1/4``), so that each sharded process on a host has its own."""
    return f"{host}:{shards}" if shards else host


async def beat(db: Database, connected_since: datetime, host: str | None = None, shards: str = "") -> None:
    """Record that the bot on ``host`` (running ``shards``, when sharded) is connected
    now (since ``connected_since``)."""
    now = db.now()
    key = beat_key(host or this_host(), shards)
    async with db.transaction() as s:
        row = await s.get(Heartbeat, key)
        if row is None:
            s.add(Heartbeat(host=key, connected_since=connected_since, beat_at=now))
        else:
            row.connected_since, row.beat_at = connected_since, now


@dataclass(frozen=True, slots=True)
class Health:
    ok: bool
    line: str


async def check(
    db: Database, *, host: str | None = None, stale_seconds: float = STALE_SECONDS, stuck_seconds: float = STUCK_SECONDS
) -> Health:
    """The bot on ``host`` (any host when None) beat within ``stale_seconds``, and no
    outbox message has been due for more than ``stuck_seconds``. On a host running
    sharded processes, the latest beat of its processes counts (each names its shards).
    Database errors are the caller's (they mean "database unreachable")."""
    now = db.now()
    async with db.read() as s:
        stmt = select(func.max(Heartbeat.beat_at))
        if host is not None:
            stmt = stmt.where(or_(Heartbeat.host == host, Heartbeat.host.startswith(f"{host}:", autoescape=True)))
        last = (await s.execute(stmt)).scalar_one_or_none()
        overdue_since = now - timedelta(seconds=stuck_seconds)
        stuck, oldest = (
            await s.execute(
                select(func.count(), func.min(OutboxMessage.next_attempt_at)).where(
                    OutboxMessage.status == "pending", OutboxMessage.next_attempt_at < overdue_since
                )
            )
        ).one()
    problems = []
    if last is None:
        problems.append("no heartbeat from the bot" + (f" on {host}" if host else "") + " (not connected to Discord since it started)")
    elif (now - _aware(last)).total_seconds() > stale_seconds:
        problems.append(f"not connected to Discord: last heartbeat {_ago(now, _aware(last))} ago")
    if stuck:
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
