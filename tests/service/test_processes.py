"""Processes know who they are, so a lease is free as soon as its holder is gone: a
restart under the same name takes over at once, another process once the holder's
heartbeat is stale, anyone once it stopped cleanly; a live holder keeps its leases, and
two live processes never deliver the same message twice."""

from __future__ import annotations

import asyncio

from bot.core import processes
from bot.core.dispatch import Dispatcher, MemorySender
from bot.core.outbox import claim_due_messages, mark_failed, pending_count
from bot.db.session import Database
from tests.conftest import FakeClock
from tests.service.helpers import started


async def test_a_restart_under_the_same_name_takes_over_at_once(db: Database) -> None:
    await started(db, 6)
    dead = await processes.register(db, "host-a")
    held = await claim_due_messages(db, holder=dead)
    assert held
    assert await claim_due_messages(db, holder=dead) == []  # leased, 60 s
    again = await processes.register(db, "host-a")  # the same process, restarted after a crash
    taken = await claim_due_messages(db, holder=again)
    assert {m.key for m in taken} == {m.key for m in held}
    assert all(m.attempts == 2 for m in taken)
    assert [p[0] for p in await processes.live_processes(db)] == [again]


async def test_another_process_waits_for_a_live_holder_and_takes_over_a_silent_one(db: Database, clock: FakeClock) -> None:
    await started(db, 6)
    a = await processes.register(db, "host-a")
    b = await processes.register(db, "host-b")
    held = await claim_due_messages(db, holder=a)
    clock.advance(processes.STALE - 1)
    # Beats while not connected to Discord: alive all the same (delivery needs no gateway).
    assert await processes.heartbeat(db, a) and await processes.heartbeat(db, b)
    clock.advance(processes.STALE - 1)
    assert await claim_due_messages(db, holder=b) == []  # a is alive: its leases hold
    assert await processes.heartbeat(db, b)
    clock.advance(2)  # a has not beaten for more than STALE seconds: gone
    taken = await claim_due_messages(db, holder=b)
    assert {m.key for m in taken} == {m.key for m in held}


async def test_a_clean_stop_frees_its_leases_and_a_failure_waits_its_backoff(db: Database) -> None:
    await started(db, 6)
    a = await processes.register(db, "host-a")
    b = await processes.register(db, "host-b")
    first, *rest = await claim_due_messages(db, holder=a)
    await mark_failed(db, first.key, "HTTP 503")  # backing off: due by its time only
    await processes.stopped(db, a)
    taken = await claim_due_messages(db, holder=b)
    assert {m.key for m in taken} == {m.key for m in rest} - {m.key for m in rest if m.recipient_id == first.recipient_id}
    assert first.key not in {m.key for m in taken}


async def test_a_beat_says_whether_the_process_is_connected(db: Database, clock: FakeClock) -> None:
    from datetime import timedelta

    from sqlalchemy import select

    from bot.db.models import Process

    a = await processes.register(db, "host-a:0-1/4", shards="0-1/4")
    since = db.now()
    assert await processes.heartbeat(db, a, since)
    clock.advance(processes.HEARTBEAT)
    assert await processes.heartbeat(db, a, None)  # the gateway away: alive, not connected
    async with db.read() as s:
        row = (await s.execute(select(Process).where(Process.id == a))).scalar_one()
    assert (row.host, row.shards) == (processes.this_host(), "0-1/4")
    assert (row.connected_since, row.connected_at) == (since, since)
    assert row.heartbeat_at == since + timedelta(seconds=processes.HEARTBEAT)


async def test_a_process_marked_over_by_a_namesake_is_told_so(db: Database) -> None:
    old = await processes.register(db, "host-a")
    await processes.register(db, "host-a")
    assert not await processes.heartbeat(db, old)


async def test_two_live_processes_never_deliver_a_message_twice(db: Database, db_url: str, clock: FakeClock) -> None:
    for i in range(4):
        await started(db, 6, channel=3000 + i, first=1 + 10 * i)
    total = await pending_count(db)
    other = Database(db_url, clock=clock)  # another process's own connections
    try:
        sender = MemorySender()
        a = Dispatcher(db, sender, batch=7, holder=await processes.register(db, "host-a"))
        b = Dispatcher(other, sender, batch=7, holder=await processes.register(other, "host-b"))
        await asyncio.gather(a.drain(), b.drain())
    finally:
        await other.dispose()
    assert sender.repeats == 0
    assert len(sender.delivered) == total and len({m.key for m in sender.delivered}) == total
