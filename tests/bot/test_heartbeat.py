"""The running bot records its heartbeat while connected, and `wolfhowl health`'s check
reads it; once the bot is gone, the heartbeat grows stale."""

from __future__ import annotations

import asyncio

from bot.service.health import STALE_SECONDS, check, this_host
from tests.bot.conftest import Table


async def test_the_connected_bot_beats_and_a_closed_one_goes_stale(table: Table) -> None:
    # The first beat is written as the bot becomes ready, by its background task.
    loop = asyncio.get_running_loop()
    end = loop.time() + 10
    while not (verdict := await check(table.db, host=this_host())).ok and loop.time() < end:
        await asyncio.sleep(0.05)
    assert verdict.ok, verdict.line
    await table.bot.close()
    table.clock.advance(STALE_SECONDS + 1)
    verdict = await check(table.db, host=this_host())
    assert not verdict.ok and "not connected to Discord: last heartbeat" in verdict.line
