"""The running bot beats its row in ``processes`` while connected, and `wolfhowl health`'s
check reads it; once the bot is gone, the heartbeat grows stale. One row says both that
the process is alive (its leases held) and that it is connected."""

from __future__ import annotations

import asyncio

from sqlalchemy import select

from bot.core.processes import live_processes, this_host
from bot.db.models import Process
from bot.features.ops.health import STALE_SECONDS, check
from tests.bot.conftest import Table


async def test_the_connected_bot_beats_and_a_closed_one_goes_stale(table: Table) -> None:
    # The first beat is written as the bot becomes ready, by its background task.
    loop = asyncio.get_running_loop()
    end = loop.time() + 10
    while not (verdict := await check(table.db, host=this_host())).ok and loop.time() < end:
        await asyncio.sleep(0.05)
    assert verdict.ok, verdict.line
    assert [p[0] for p in await live_processes(table.db)] == [table.bot.heartbeat.process_id]
    await table.bot.close()
    table.clock.advance(STALE_SECONDS + 1)
    verdict = await check(table.db, host=this_host())
    assert not verdict.ok and "not connected to Discord: last heartbeat" in verdict.line
    async with table.db.read() as s:
        (row,) = (await s.execute(select(Process))).scalars()
    assert (row.host, row.shards, row.stopped_at is not None) == (this_host(), "", True)
    assert row.connected_since is not None and row.connected_at is not None and row.connected_at >= row.connected_since
