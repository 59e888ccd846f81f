"""The outbox's delivery side (``outbox``: ``bot.core.outbox``): whether anything is due,
the due messages a dispatcher claims (their order and ``follows`` rules, locked past
the rows another claim holds), the marks of a delivery, the messages held after a
failure made due again, and how many wait. The dispatcher's every pass starts here: the
mark of a delivered message, run once a message, is built once.

A message's lease names its holder (``outbox.leased_by``, a process: ``processes``); a
lease is free once its holder is gone, stopped or silent for longer than ``stale``
(``bot.core.processes``)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import bindparam, exists, func, or_, select, update
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import aliased

from bot.db import core
from bot.db.models import OutboxMessage, table_of
from bot.db.repos import processes as processes_repo

# The PostgreSQL advisory lock that serializes outbox claims ("wolfhowl" in ASCII).
CLAIM_LOCK = 0x776F6C66686F776C


def _due(now: datetime, stale: timedelta) -> tuple[Any, Any]:
    """A pending message whose time has come or whose lease's holder is gone."""
    return (
        OutboxMessage.status == "pending",
        or_(OutboxMessage.next_attempt_at <= now, OutboxMessage.leased_by.in_(processes_repo.gone(now, stale))),
    )


def due_peek(now: datetime, stale: timedelta) -> Any:
    """Whether anything is due: a range of the due index (the pending messages)."""
    return select(OutboxMessage.id).where(*_due(now, stale)).limit(1)


async def any_due(session: AsyncSession, now: datetime, stale: timedelta) -> bool:
    """Whether a message is due at ``now`` (see :func:`due_peek`)."""
    return (await session.execute(due_peek(now, stale))).first() is not None


async def serialize_claims(session: AsyncSession) -> None:
    """One claim at a time, until the transaction ends: on PostgreSQL its advisory lock
    (:data:`CLAIM_LOCK`); on SQLite the transaction's write lock already gives it."""
    if session.get_bind().dialect.name == "postgresql":
        await session.execute(select(func.pg_advisory_xact_lock(CLAIM_LOCK)))


async def claimable(session: AsyncSession, now: datetime, stale: timedelta, limit: int) -> list[OutboxMessage]:
    """Up to ``limit`` due messages, oldest first, locked (those another transaction
    locks skipped: SKIP LOCKED on PostgreSQL), but a message that waits: behind an
    earlier one to the same channel or user still pending and not due (backing off
    after a failure, or leased to a live holder), or one that ``follows`` another still
    pending at all."""
    dead = processes_repo.gone(now, stale)
    earlier = aliased(OutboxMessage)
    blocked = exists().where(
        earlier.recipient_kind == OutboxMessage.recipient_kind,
        earlier.recipient_id == OutboxMessage.recipient_id,
        earlier.status == "pending",
        earlier.id < OutboxMessage.id,
        earlier.next_attempt_at > now,
        or_(earlier.leased_by.is_(None), earlier.leased_by.not_in(dead)),
    )
    leader = aliased(OutboxMessage)
    behind = exists().where(leader.idempotency_key == OutboxMessage.follows, leader.status == "pending")
    stmt = (
        select(OutboxMessage)
        .where(*_due(now, stale), ~blocked, ~behind)
        .order_by(OutboxMessage.id)
        .limit(limit)
        .with_for_update(skip_locked=True)
    )
    return list((await session.execute(stmt)).scalars())


async def release(session: AsyncSession, keys: list[str], now: datetime) -> int:
    """The pending messages of ``keys`` due again at ``now``, their last attempt not
    counted and their lease given back; how many."""
    res = await session.execute(
        update(OutboxMessage)
        .where(OutboxMessage.idempotency_key.in_(keys), OutboxMessage.status == "pending")
        .values(next_attempt_at=now, attempts=OutboxMessage.attempts - 1, leased_by=None)
    )
    return int(getattr(res, "rowcount", 0) or 0)


_OUTBOX = table_of(OutboxMessage)
# A delivered message marked, on the table (built once: building a statement costs more
# than running it, and an ORM-enabled UPDATE more again).
_MARK_DELIVERED = (
    update(_OUTBOX)
    .where(_OUTBOX.c.idempotency_key == bindparam("delivered_key"), _OUTBOX.c.status == "pending")
    .values(
        status="sent",
        sent_at=bindparam("delivered_at"),
        last_error=None,
        discord_message_id=bindparam("delivered_as"),
        leased_by=None,
    )
)


async def mark_delivered(session: AsyncSession, key: str, now: datetime, message_id: int | None) -> bool:
    """The pending message of ``key`` sent at ``now``, as Discord message ``message_id``
    (None: not known), its lease given back; False when it was not pending (marked
    already)."""
    res = await core.execute(session, _MARK_DELIVERED, {"delivered_key": key, "delivered_at": now, "delivered_as": message_id})
    return res.rowcount == 1


async def delivered_message_id(session: AsyncSession, key: str) -> int | None:
    """The Discord message the message of ``key`` was marked sent as (None: not sent, or
    sent without one)."""
    stmt = select(OutboxMessage.discord_message_id).where(OutboxMessage.idempotency_key == key, OutboxMessage.status == "sent")
    found = (await session.execute(stmt)).scalar_one_or_none()
    return None if found is None else int(found)


async def recorded_message_ids(session: AsyncSession, recipient_kind: str, recipient_id: int, message_ids: list[int]) -> set[int]:
    """Which of ``message_ids`` the messages sent to one destination were marked sent as."""
    stmt = select(OutboxMessage.discord_message_id).where(
        OutboxMessage.recipient_kind == recipient_kind,
        OutboxMessage.recipient_id == recipient_id,
        OutboxMessage.status == "sent",
        OutboxMessage.discord_message_id.in_(message_ids),
    )
    return {int(x) for x in (await session.execute(stmt)).scalars() if x is not None}


def _held(recipient_kind: str, recipient_ids: Sequence[int], now: datetime) -> tuple[Any, ...]:
    """A pending message to one of these destinations that backs off (not leased, not
    due before a later time)."""
    return (
        OutboxMessage.recipient_kind == recipient_kind,
        OutboxMessage.recipient_id.in_(list(recipient_ids)),
        OutboxMessage.status == "pending",
        OutboxMessage.leased_by.is_(None),
        OutboxMessage.next_attempt_at > now,
    )


async def any_held(session: AsyncSession, recipient_kind: str, recipient_ids: Sequence[int], now: datetime) -> bool:
    """Whether a message to one of these destinations backs off at ``now`` (see :func:`_held`)."""
    stmt = select(OutboxMessage.id).where(*_held(recipient_kind, recipient_ids, now)).limit(1)
    return (await session.execute(stmt)).first() is not None


async def make_held_due(session: AsyncSession, recipient_kind: str, recipient_ids: Sequence[int], now: datetime) -> int:
    """The messages to these destinations that back off at ``now`` due at ``now``; how many."""
    res = await session.execute(update(OutboxMessage).where(*_held(recipient_kind, recipient_ids, now)).values(next_attempt_at=now))
    return int(getattr(res, "rowcount", 0) or 0)


async def message(session: AsyncSession, key: str) -> OutboxMessage | None:
    """The message of ``key`` (an entity), in any status."""
    return (await session.execute(select(OutboxMessage).where(OutboxMessage.idempotency_key == key))).scalar_one_or_none()


async def pending_count(session: AsyncSession) -> int:
    """How many messages wait for delivery."""
    stmt = select(func.count()).select_from(OutboxMessage).where(OutboxMessage.status == "pending")
    return int((await session.execute(stmt)).scalar_one())
