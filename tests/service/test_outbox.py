"""The outbox: delivered once and in order, marked with the Discord message id; a DM that
cannot reach a player goes to their inbox, read unread-first and marked read; passing
failures are retried; a dead dispatcher's lease expires."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import timedelta

import pytest
from sqlalchemy import select

from bot.core import errors as E
from bot.core.deadlines import run_due
from bot.core.dispatch import Dispatcher, MemorySender
from bot.core.outbox import (
    MAX_ATTEMPTS,
    OutgoingMessage,
    claim_due_messages,
    delivered_message_id,
    mark_delivered,
    pending_count,
)
from bot.db.models import OutboxMessage
from bot.db.session import Database
from bot.features.me.inbox import mark_inbox_read, read_inbox
from tests.service.helpers import started, user


async def test_dispatcher_delivers_everything_in_order(db: Database) -> None:
    await started(db, 6)
    sender = MemorySender()
    report = await Dispatcher(db, sender, batch=3).drain()
    assert report.sent == 14 and await pending_count(db) == 0
    # The phase's prompts follow its post.
    assert sender.types() == ["game_started"] + ["sheet"] * 6 + ["phase_started"] + ["prompt"] * 6
    assert len({m.key for m in sender.delivered}) == len({m.nonce for m in sender.delivered}) == 14
    assert all(len(m.nonce) == 25 for m in sender.delivered)
    assert (await Dispatcher(db, sender).drain()).total == 0
    assert not await mark_delivered(db, sender.delivered[0].key, 99)  # already sent: the first mark stands
    # Each mark recorded the message id the sender got.
    assert [await delivered_message_id(db, m.key) for m in sender.delivered] == list(range(1, 15))
    claimed_only = await claim_due_messages(db)  # nothing left; an unknown key has no id
    assert claimed_only == [] and await delivered_message_id(db, "g9:1:r0:start:public:channel:0") is None


async def test_closed_dms_go_to_the_inbox(db: Database) -> None:
    await started(db, 6, prompts=False)
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


async def test_passing_failures_are_retried_with_backoff_in_order(db: Database, clock) -> None:
    """Every message fails twice before it goes. The channel's second post is not tried
    while the first one backs off: it goes after it, whatever the retries."""
    await started(db, 6)
    sender = FlakySender(failures=2)
    d = Dispatcher(db, sender)
    assert (await d.drain()).retry == 7  # the table post and six sheets; the phase post waits
    assert (await d.drain()).total == 0  # backing off
    clock.advance(3600)
    assert (await d.drain()).retry == 7
    clock.advance(3600)
    third = await d.drain()
    assert (third.sent, third.retry) == (7, 1)  # now the phase post's own first try
    for _ in range(2):
        clock.advance(3600)
        await d.drain()
    assert len(sender.delivered) == 8
    posts = [m.key for m in sender.delivered if m.recipient_kind == "channel"]
    assert posts == sorted(posts) and len(posts) == 2


async def test_giving_up_after_max_attempts(db: Database, clock) -> None:
    await started(db, 6, prompts=False)
    d = Dispatcher(db, FlakySender(failures=10**6))
    for _ in range(MAX_ATTEMPTS):
        await d.drain()
        clock.advance(3600)
    assert len(await read_inbox(db, user(1).id)) == 1  # the sheet waits in the inbox
    assert await pending_count(db) == 1  # the first post gave up; the second's turn now
    for _ in range(MAX_ATTEMPTS):
        await d.drain()
        clock.advance(3600)
    assert await pending_count(db) == 0


async def test_a_lease_expires_when_the_dispatcher_dies(db: Database, clock) -> None:
    await started(db, 6)
    claimed = await claim_due_messages(db, limit=100, lease_seconds=30)
    assert len(claimed) == 8
    assert await claim_due_messages(db, limit=100) == []  # leased to the dead one
    clock.advance(31)
    again = await claim_due_messages(db, limit=100)
    assert [m.key for m in again] == [m.key for m in claimed]
    assert all(m.attempts == 2 for m in again)


async def test_a_message_waits_behind_an_earlier_one_to_the_same_place(db: Database, clock) -> None:
    """While the first channel post backs off after a failure (or is leased to another
    dispatcher), the channel's later posts are not handed out; other recipients' are."""
    from bot.core.outbox import mark_failed

    await started(db, 6)
    claimed = await claim_due_messages(db, limit=100)
    posts = [m for m in claimed if m.recipient_kind == "channel"]
    assert len(posts) == 2
    first, second = posts
    await mark_failed(db, first.key, "403 Missing Permissions")  # backs off 10 s
    for m in claimed:
        if m.recipient_kind == "user":
            await mark_delivered(db, m.key)
    clock.advance(61)  # the second post's lease (60 s) has run out: it is due again
    # Back the first off for longer than that, as repeated failures do (up to an hour).
    async with db.transaction() as s:
        row = (await s.execute(select(OutboxMessage).where(OutboxMessage.idempotency_key == first.key))).scalar_one()
        row.next_attempt_at = db.now() + timedelta(seconds=600)
    assert await claim_due_messages(db, limit=100) == []  # the second is due, but waits
    clock.advance(601)
    assert [m.key for m in await claim_due_messages(db, limit=100)] == [first.key, second.key]


async def test_the_inbox_lists_unread_first_and_marks_what_was_shown(db: Database, clock) -> None:
    await started(db, 6, day_seconds=7200, reminder_lead_seconds=3600, prompts=False)
    closed = user(2).id
    sender = MemorySender(closed_dms={closed})
    await Dispatcher(db, sender).drain()
    clock.advance(3601)
    await run_due(db)  # the reminder: seat 2 has not sent, its DM goes to the inbox too
    await Dispatcher(db, sender).drain()
    everything = await read_inbox(db, closed, mark_read=False)
    assert [m.payload["type"] for m in everything] == ["sheet", "reminder"]
    assert all(m.read_at is None for m in everything)
    # Shown: the sheet only. Then the reminder is the unread one and comes first.
    assert await mark_inbox_read(db, closed, [everything[0].key]) == 1
    assert await mark_inbox_read(db, closed, [everything[0].key]) == 0  # already read
    listed = await read_inbox(db, closed, mark_read=False)
    assert [m.payload["type"] for m in listed] == ["reminder", "sheet"]
    assert listed[0].read_at is None and listed[1].read_at == clock.now
    assert [m.key for m in await read_inbox(db, closed, unread_only=True, mark_read=False)] == [everything[1].key]
    # Another user's keys mark nothing; the default read marks all it lists.
    assert await mark_inbox_read(db, user(1).id, [everything[1].key]) == 0
    assert len(await read_inbox(db, closed, unread_only=True)) == 1
    assert await read_inbox(db, closed, unread_only=True) == []
    assert len(await read_inbox(db, closed)) == 2
    with pytest.raises(E.BadArgumentError):
        await mark_inbox_read(db, closed, "all")  # type: ignore[arg-type]
    with pytest.raises(E.BadArgumentError):
        await read_inbox(db, 0)


async def test_an_idle_poll_does_not_wait_for_the_sqlite_write_lock(sqlite_url: str, clock) -> None:
    """With nothing due, a dispatcher's poll reads and returns: it must not queue behind
    a writer (here another process's open write transaction) just to find nothing."""
    import asyncio
    import sqlite3

    from tests.conftest import wipe

    db = Database(sqlite_url, clock=clock)
    await wipe(db)
    other = sqlite3.connect(sqlite_url.split("///", 1)[1], isolation_level=None)
    try:
        other.execute("BEGIN IMMEDIATE")  # holds the write lock until the rollback
        assert await asyncio.wait_for(claim_due_messages(db), 10) == []
    finally:
        other.execute("ROLLBACK")
        other.close()
        await db.dispose()


async def test_giving_up_sends_a_user_message_to_the_inbox_and_fails_a_channel_post(db: Database) -> None:
    """mark_undeliverable and mark_failed touch only a message still pending."""
    from bot.core.outbox import mark_failed, mark_undeliverable

    await started(db, 6)
    claimed = await claim_due_messages(db, limit=100)
    post = next(m for m in claimed if m.recipient_kind == "channel")
    dm = next(m for m in claimed if m.recipient_kind == "user")
    assert await mark_undeliverable(db, post.key, "channel gone")
    assert await mark_undeliverable(db, dm.key, "")
    assert not await mark_undeliverable(db, dm.key, "again")
    assert not await mark_failed(db, dm.key, "again")
    assert not await mark_failed(db, "no-such-key")
    async with db.read() as s:
        rows = {r.idempotency_key: r for r in (await s.execute(select(OutboxMessage))).scalars()}
    assert (rows[post.key].status, rows[post.key].last_error) == ("failed", "channel gone")
    assert (rows[dm.key].status, rows[dm.key].last_error) == ("inbox", None)


@pytest.mark.parametrize("bad", [0, -1, 2**63, True, 1.0, "7"])
async def test_an_id_that_is_not_a_snowflake_is_refused_everywhere(db: Database, bad: object) -> None:
    """One rule for ids (bot.core.types.is_id): a user, a game and a Discord message."""
    from bot.core.types import UserRef, check_id, is_id

    assert not is_id(bad) and is_id(1) and is_id(2**63 - 1)
    with pytest.raises(E.BadArgumentError):
        UserRef(bad, "Someone").checked()  # type: ignore[arg-type]
    with pytest.raises(E.BadArgumentError):
        check_id(bad, "game")
    with pytest.raises(E.BadArgumentError):
        await mark_delivered(db, "any-key", bad)  # type: ignore[arg-type]


async def test_the_posts_held_for_a_channel_can_be_made_due_at_once(db: Database, clock) -> None:
    """``retry_held_now``: the channel's post backing off after a refusal is due again at
    once (its attempt still counted), the one behind it follows; a message in flight
    (leased) and other destinations are left as they are."""
    from bot.core.outbox import mark_failed, retry_held_now

    await started(db, 6, channel=2000)
    await started(db, 6, channel=2001, first=20)
    claimed = await claim_due_messages(db, limit=100, holder=None)
    posts = [m for m in claimed if m.recipient_kind == "channel"]
    ours, theirs = [m for m in posts if m.recipient_id == 2000], [m for m in posts if m.recipient_id == 2001]
    await mark_failed(db, ours[0].key, "403 Missing Permissions")
    await mark_failed(db, theirs[0].key, "403 Missing Permissions")
    for m in claimed:
        if m.recipient_kind == "user":
            await mark_delivered(db, m.key)
    async with db.transaction() as s:  # backing off as repeated refusals do (up to an hour)
        for key in (ours[0].key, theirs[0].key):
            row = (await s.execute(select(OutboxMessage).where(OutboxMessage.idempotency_key == key))).scalar_one()
            row.next_attempt_at = db.now() + timedelta(seconds=3600)
    clock.advance(61)  # the later posts' leases have run out
    assert await claim_due_messages(db, limit=100) == []  # held behind the first
    assert await retry_held_now(db, "channel", [2000, 2002]) == 1
    from bot.core import processes

    me = await processes.register(db, "dispatcher")
    again = await claim_due_messages(db, limit=100, holder=me)
    assert [m.key for m in again] == [m.key for m in ours] and again[0].attempts == 2
    # Leased now (in flight): another call leaves them alone, as it does the other channel's.
    assert await retry_held_now(db, "channel", [2000]) == 0
    assert await claim_due_messages(db, limit=100) == []
