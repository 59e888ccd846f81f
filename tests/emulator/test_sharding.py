"""Sharding as Discord does it (https://discord.com/developers/docs/events/gateway#sharding):
each shard gets its own servers' events, ``(guild_id >> 22) % num_shards``, and DMs go
to shard 0; GET /gateway/bot recommends a shard count; a shard with too many servers is
refused with 4011."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import discord
import pytest

from discord_emulator import Emulator, Guild
from discord_emulator.ready import start_until_ready

GUILDS, DIRECT_MESSAGES, GUILD_MESSAGES = 1 << 0, 1 << 12, 1 << 9


@pytest.fixture
async def emu() -> AsyncIterator[Emulator]:
    async with Emulator(heartbeat_interval=30.0, guilds_per_recommended_shard=2, max_guilds_per_shard=3) as emulator:
        with emulator.patch_discord():
            yield emulator
        assert emulator.server_errors == []


def guilds_on_both_shards(emu: Emulator) -> dict[int, Guild]:
    """A server on each of two shards (an id of the right time: ``shard=``)."""
    owner = emu.create_user("owner")
    by_shard = {i: emu.create_guild(f"server {i}", owner=owner, shard=(i, 2)) for i in (1, 0)}
    assert {i: (g.id >> 22) % 2 for i, g in by_shard.items()} == {0: 0, 1: 1}
    return by_shard


class Shard:
    """A raw gateway connection identified as one shard; the dispatches it received."""

    def __init__(self, ws: aiohttp.ClientWebSocketResponse) -> None:
        self.ws = ws
        self.events: list[dict[str, Any]] = []

    async def read_until(self, predicate: Any, timeout: float = 5.0) -> dict[str, Any]:
        while True:
            msg = await self.ws.receive_json(timeout=timeout)
            if msg.get("op") == 0:
                self.events.append(msg)
                if predicate(msg):
                    return msg

    def seen(self) -> set[int]:
        """The ids of the messages this shard was sent (MESSAGE_CREATE)."""
        return {int(e["d"]["id"]) for e in self.events if e["t"] == "MESSAGE_CREATE"}


async def identify(session: aiohttp.ClientSession, emu: Emulator, shard: list[int]) -> Shard:
    ws = await session.ws_connect(f"{emu.gateway_url}?v=10&encoding=json")
    assert (await ws.receive_json(timeout=5))["op"] == 10
    intents = GUILDS | DIRECT_MESSAGES | GUILD_MESSAGES
    await ws.send_json({"op": 2, "d": {"token": emu.token, "intents": intents, "properties": {}, "shard": shard}})
    return Shard(ws)


@pytest.mark.asyncio
async def test_each_shard_gets_its_servers_and_dms_go_to_shard_zero(emu: Emulator) -> None:
    by_shard = guilds_on_both_shards(emu)
    alice = emu.create_user("alice")
    for guild in by_shard.values():
        emu.add_member(guild, alice)
    async with aiohttp.ClientSession() as session:
        shards = [await identify(session, emu, [i, 2]) for i in (0, 1)]
        for i, shard in enumerate(shards):
            ready = await shard.read_until(lambda m: m["t"] == "READY")
            assert ready["d"]["shard"] == [i, 2]
            listed = {int(g["id"]) for g in ready["d"]["guilds"]}
            assert listed == {g.id for g in emu.ctx.world.bot_guilds() if (g.id >> 22) % 2 == i}
            assert by_shard[i].id in listed and by_shard[1 - i].id not in listed
        sent: dict[str, int] = {}
        for i, guild in by_shard.items():
            channel = next(c for c in emu.ctx.world.channels.values() if c.guild_id == guild.id)
            sent[f"server {i}"] = (await emu.send_user_message(alice, "hello", channel=channel)).id
            await shards[i].read_until(lambda m, i=i: m["d"].get("id") == str(sent[f"server {i}"]))
        sent["dm"] = (await emu.send_user_message(alice, "a DM", dm=True)).id
        await shards[0].read_until(lambda m: m["d"].get("id") == str(sent["dm"]))
        # Shard 1 is sent nothing more: a last message in its server shows what came first.
        last = next(c for c in emu.ctx.world.channels.values() if c.guild_id == by_shard[1].id)
        sent["last"] = (await emu.send_user_message(alice, "last", channel=last)).id
        await shards[1].read_until(lambda m: m["d"].get("id") == str(sent["last"]))
        assert shards[0].seen() & set(sent.values()) == {sent["server 0"], sent["dm"]}
        assert shards[1].seen() & set(sent.values()) == {sent["server 1"], sent["last"]}
        for shard in shards:
            await shard.ws.close()


@pytest.mark.asyncio
async def test_a_shard_holding_too_many_servers_is_refused_with_4011(emu: Emulator) -> None:
    owner = emu.create_user("owner")
    for n in range(4):  # max_guilds_per_shard is 3 here (2,500 on Discord)
        emu.create_guild(f"server {n}", owner=owner)
    async with aiohttp.ClientSession() as session:
        shard = await identify(session, emu, [0, 1])
        msg = await shard.ws.receive(timeout=5)
        assert msg.type == aiohttp.WSMsgType.CLOSE and msg.data == 4011


async def no_pause(shard_id: int | None, *, initial: bool = False) -> None:
    """discord.py waits 5 s before each shard's IDENTIFY after the first (Discord's
    identify rate limit, which the emulator does not enforce)."""


@pytest.mark.asyncio
async def test_gateway_bot_recommends_shards_and_the_sharded_client_follows(emu: Emulator) -> None:
    owner = emu.create_user("owner")
    for n in range(5):  # one recommended shard per 2 servers here (per 1,000 on Discord)
        emu.create_guild(f"server {n}", owner=owner, shard=(n % 3, 3))
    client = discord.AutoShardedClient(intents=discord.Intents.default(), guild_ready_timeout=0.05)
    client.before_identify_hook = no_pause  # type: ignore[method-assign]  # 5 s a shard otherwise
    task = await start_until_ready(client, emu.token, timeout=10)
    try:
        assert client.shard_count == 3
        assert len(client.guilds) == 5 and sorted(client.shards) == [0, 1, 2]
    finally:
        await client.close()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(task, 5)
