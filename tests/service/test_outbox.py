"""The outbox: delivered once and in order, marked; a DM that cannot reach a player goes
to their inbox; passing failures are retried; a dead dispatcher's lease expires."""

from __future__ import annotations

from dataclasses import dataclass, field

from sqlalchemy import select

from bot.db.models import OutboxMessage
from bot.db.session import Database
from bot.service import (
    Dispatcher,
    MemorySender,
    OutgoingMessage,
    claim_due_messages,
    mark_delivered,
    read_inbox,
)
from bot.service.outbox import MAX_ATTEMPTS, pending_count
from tests.service.helpers import started, user


async def test_dispatcher_delivers_everything_in_order(db: Database) -> None:
    await started(db, 6)
    sender = MemorySender()
    report = await Dispatcher(db, sender, batch=3).drain()
    assert report.sent == 8 and await pending_count(db) == 0
    assert sender.types() == ["game_started"] + ["sheet"] * 6 + ["phase_started"]
    assert len({m.key for m in sender.delivered}) == len({m.nonce for m in sender.delivered}) == 8
    assert all(len(m.nonce) == 25 for m in sender.delivered)
    assert (await Dispatcher(db, sender).drain()).total == 0
    assert not await mark_delivered(db, sender.delivered[0].key)  # already sent


async def test_closed_dms_go_to_the_inbox(db: Database) -> None:
    await started(db, 6)
    sender = MemorySender(closed_dms={user(2).id})
    report = await Dispatcher(db, sender).drain()
    assert report.inbox == 1 and report.sent == 7
    inbox = await read_inbox(db, user(2).id)
    assert [m.payload["type"] for m in inbox] == ["sheet"] and inbox[0].payload["sheet"]["seat"] == 2
    assert await read_inbox(db, user(1).id) == []
    async with db.read() as s:
        row = (await s.execute(select(OutboxMessage).where(OutboxMessage.status == "inbox"))).scalar_one()
    assert row.read_at is not None and row.last_error == "cannot send messages to this user"


@dataclass
class FlakySender:
    """Fails the first ``failures`` attempts of every message."""

    failures: int
    seen: dict[str, int] = field(default_factory=dict)
    delivered: list[OutgoingMessage] = field(default_factory=list)

    async def send(self, message: OutgoingMessage) -> None:
        n = self.seen.get(message.key, 0)
        self.seen[message.key] = n + 1
        if n < self.failures:
            raise ConnectionError("gateway hiccup")
        self.delivered.append(message)


async def test_passing_failures_are_retried_with_backoff(db: Database, clock) -> None:
    await started(db, 6)
    sender = FlakySender(failures=2)
    d = Dispatcher(db, sender)
    assert (await d.drain()).retry == 8
    assert (await d.drain()).total == 0  # backing off
    clock.advance(3600)
    assert (await d.drain()).retry == 8
    clock.advance(3600)
    assert (await d.drain()).sent == 8
    assert len(sender.delivered) == 8


async def test_giving_up_after_max_attempts(db: Database, clock) -> None:
    await started(db, 6)
    d = Dispatcher(db, FlakySender(failures=10**6))
    for _ in range(MAX_ATTEMPTS):
        await d.drain()
        clock.advance(3600)
    assert await pending_count(db) == 0
    assert len(await read_inbox(db, user(1).id)) == 1  # the sheet waits in the inbox


async def test_a_lease_expires_when_the_dispatcher_dies(db: Database, clock) -> None:
    await started(db, 6)
    claimed = await claim_due_messages(db, limit=100, lease_seconds=30)
    assert len(claimed) == 8
    assert await claim_due_messages(db, limit=100) == []  # leased to the dead one
    clock.advance(31)
    again = await claim_due_messages(db, limit=100)
    assert [m.key for m in again] == [m.key for m in claimed]
    assert all(m.attempts == 2 for m in again)
