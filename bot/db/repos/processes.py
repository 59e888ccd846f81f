"""The bot's processes (``processes``: one row per run, its heartbeat and its stop) and
the outbox leases a stopped process frees (``bot.core.processes``)."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import Select, delete, or_, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from bot.db.models import OutboxMessage, Process


def gone(now: datetime, stale: timedelta) -> Select[int]:
    """The ids of the processes whose leases are free at ``now``: stopped, or silent for
    longer than ``stale``."""
    return select(Process.id).where(or_(Process.stopped_at.is_not(None), Process.heartbeat_at < now - stale))


async def stop_named(session: AsyncSession, name: str, now: datetime) -> None:
    """The live processes of ``name`` are over from ``now``."""
    await session.execute(update(Process).where(Process.name == name, Process.stopped_at.is_(None)).values(stopped_at=now))


async def delete_stopped_before(session: AsyncSession, before: datetime) -> None:
    """The rows of the processes stopped before ``before`` go (long over: nothing refers to them)."""
    await session.execute(delete(Process).where(Process.stopped_at < before))


async def beat(session: AsyncSession, process_id: int, now: datetime, connected_since: datetime | None) -> bool:
    """The process beats at ``now``, connected to Discord since ``connected_since`` (None:
    not connected now, its connection times left as they were); False when it is over."""
    connection: dict[str, Any] = {} if connected_since is None else {"connected_since": connected_since, "connected_at": now}
    res = await session.execute(
        update(Process).where(Process.id == process_id, Process.stopped_at.is_(None)).values(heartbeat_at=now, **connection)
    )
    return bool(getattr(res, "rowcount", 0) == 1)


async def stop(session: AsyncSession, process_id: int, now: datetime) -> None:
    """The process is over from ``now``, and the pending messages it leased are free and
    due at once."""
    await session.execute(update(Process).where(Process.id == process_id).values(stopped_at=now))
    await session.execute(
        update(OutboxMessage)
        .where(OutboxMessage.leased_by == process_id, OutboxMessage.status == "pending")
        .values(leased_by=None, next_attempt_at=now)
    )


async def live(session: AsyncSession, now: datetime, stale: timedelta) -> list[tuple[int, str, datetime]]:
    """The processes running at ``now`` (not :func:`gone`): id, name, last heartbeat."""
    stmt = select(Process.id, Process.name, Process.heartbeat_at).where(Process.id.not_in(gone(now, stale))).order_by(Process.id)
    return [(int(i), str(n), h) for i, n, h in (await session.execute(stmt)).all()]
