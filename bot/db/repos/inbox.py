"""A user's inbox: the outbox's messages that could not reach them by DM (status
``inbox``), read by ``/inbox`` and marked read when shown (``bot.features.me.inbox``)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncSession

from bot.db.models import OutboxMessage


async def inbox_messages(session: AsyncSession, user_id: int, *, unread_only: bool = False) -> list[OutboxMessage]:
    """The user's inbox: the unread messages first, then (unless ``unread_only``) those
    already read, each group oldest first."""
    stmt = select(OutboxMessage).where(
        OutboxMessage.recipient_kind == "user",
        OutboxMessage.recipient_id == user_id,
        OutboxMessage.status == "inbox",
    )
    if unread_only:
        stmt = stmt.where(OutboxMessage.read_at.is_(None))
    stmt = stmt.order_by(OutboxMessage.read_at.is_not(None), OutboxMessage.id)
    return list((await session.execute(stmt)).scalars())


async def mark_read(session: AsyncSession, user_id: int, keys: Sequence[str], now: datetime) -> int:
    """Mark read at ``now`` the unread messages of the user's inbox with these
    idempotency keys; how many there were (others' keys match none)."""
    res = await session.execute(
        update(OutboxMessage)
        .where(
            OutboxMessage.recipient_kind == "user",
            OutboxMessage.recipient_id == user_id,
            OutboxMessage.status == "inbox",
            OutboxMessage.read_at.is_(None),
            OutboxMessage.idempotency_key.in_(list(keys)),
        )
        .values(read_at=now)
    )
    return int(getattr(res, "rowcount", 0) or 0)
