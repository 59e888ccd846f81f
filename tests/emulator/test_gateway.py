"""Gateway behaviour: READY/GUILD_CREATE, compression, heartbeats, RESUME, close codes."""

from __future__ import annotations

import asyncio
import json
import zlib

import aiohttp
import discord
import pytest

from discord_emulator import Emulator
from discord_emulator import permissions as perm
from discord_emulator.ready import start_until_ready

from .botkit import SandboxBot
from .conftest import World


async def _raw_connect(
    session: aiohttp.ClientSession, emu: Emulator, query: str = "v=10&encoding=json"
):
    return await session.ws_connect(f"{emu.gateway_url}?{query}")


@pytest.mark.asyncio
async def test_bot_connects_and_sees_guild(emu: Emulator, world: World, bot: SandboxBot) -> None:
    assert bot.user is not None and bot.user.id == emu.bot_user.id
    guild = bot.get_guild(world.guild.id)
    assert guild is not None and guild.name == "Wolf Howl Tavern"
    assert guild.me is not None and guild.owner_id == world.owner.id
    assert {c.name for c in guild.text_channels} == {"general"}
    assert bot.application_id == emu.application_id
    # The tree sync registered the guild commands with ids.
    names = {c["name"] for c in emu.registered_commands(world.guild)}
    assert {"greet", "act", "panel", "room"} <= names
    assert {c.name for c in bot.synced} == names


@pytest.mark.asyncio
async def test_discord_py_uses_zlib_stream(emu: Emulator, world: World, bot: SandboxBot) -> None:
    first = emu.connections[0]
    assert first.compress == "zlib-stream"
    assert first.identified and not first.resumed


@pytest.mark.asyncio
async def test_raw_protocol_hello_heartbeat_ready_and_zlib(emu: Emulator, world: World) -> None:
    async with aiohttp.ClientSession() as session:
        ws = await _raw_connect(session, emu, "v=10&encoding=json&compress=zlib-stream")
        inflator = zlib.decompressobj()

        async def receive() -> dict:
            msg = await ws.receive(timeout=5)
            assert msg.type == aiohttp.WSMsgType.BINARY
            assert msg.data.endswith(b"\x00\x00\xff\xff")
            return json.loads(inflator.decompress(msg.data))

        hello = await receive()
        assert hello["op"] == 10 and hello["d"]["heartbeat_interval"] == 500
        await ws.send_json({"op": 1, "d": None})
        assert (await receive())["op"] == 11
        await ws.send_json({"op": 2, "d": {"token": emu.token, "intents": 1, "properties": {}}})
        ready = await receive()
        assert ready["t"] == "READY" and ready["s"] == 1
        assert ready["d"]["resume_gateway_url"].endswith("/resume")
        assert ready["d"]["guilds"] == [{"id": str(world.guild.id), "unavailable": True}]
        assert ready["d"]["application"]["id"] == str(emu.application_id)
        guild_create = await receive()
        assert guild_create["t"] == "GUILD_CREATE" and guild_create["s"] == 2
        member_ids = {m["user"]["id"] for m in guild_create["d"]["members"]}
        assert member_ids == {str(emu.bot_user.id), str(world.owner.id)}
        await ws.close()


@pytest.mark.asyncio
@pytest.mark.parametrize(
    ("identify", "code"),
    [
        ({"token": "wrong", "intents": 1}, 4004),
        ({"token": None, "intents": 1 << 15}, 4014),  # MESSAGE_CONTENT not enabled in the "portal"
        ({"token": None, "intents": 1 << 40}, 4013),
    ],
)
async def test_raw_identify_errors_close_with_discord_codes(
    emu: Emulator, identify: dict, code: int
) -> None:
    payload = {**identify, "token": identify["token"] or emu.token, "properties": {}}
    async with aiohttp.ClientSession() as session:
        ws = await _raw_connect(session, emu)
        assert (await ws.receive_json(timeout=5))["op"] == 10
        await ws.send_json({"op": 2, "d": payload})
        msg = await ws.receive(timeout=5)
        assert msg.type == aiohttp.WSMsgType.CLOSE and msg.data == code


@pytest.mark.asyncio
async def test_raw_payload_before_identify_is_4003(emu: Emulator) -> None:
    async with aiohttp.ClientSession() as session:
        ws = await _raw_connect(session, emu)
        await ws.receive_json(timeout=5)
        await ws.send_json({"op": 3, "d": {"status": "online"}})
        msg = await ws.receive(timeout=5)
        assert msg.type == aiohttp.WSMsgType.CLOSE and msg.data == 4003


@pytest.mark.asyncio
async def test_privileged_intents_refused_for_discord_py(emu: Emulator, world: World) -> None:
    client = discord.Client(intents=discord.Intents.all())
    try:
        with pytest.raises(discord.PrivilegedIntentsRequired):
            await client.start(emu.token)
    finally:
        await client.close()


@pytest.mark.asyncio
async def test_privileged_intents_allowed_when_enabled() -> None:
    async with Emulator(
        heartbeat_interval=0.5, privileged_intents=("members", "message_content")
    ) as emu2:
        owner = emu2.create_user("owner")
        guild = emu2.create_guild("Other", owner=owner)
        dora = emu2.create_user("dora")
        emu2.add_member(guild, dora)
        general = next(iter(guild.channels.values()))
        emu2.set_permissions(general, dora, deny=perm.SEND_MESSAGES)
        with emu2.patch_discord():
            intents = discord.Intents.default()
            intents.members = True
            intents.message_content = True
            client = SandboxBot(guild.id, intents=intents)
            from .conftest import run_bot

            task = await run_bot(emu2, client)
            try:
                # Chunking (REQUEST_GUILD_MEMBERS) filled the member cache.
                cached = client.get_guild(guild.id)
                assert cached is not None and {m.name for m in cached.members} >= {"dora", "owner"}
                # dora leaves the server: the bot is told, and her overwrite stays (as on
                # Discord, until someone deletes it).
                emu2.remove_member(guild, dora)
                await emu2.wait_for(lambda: cached.get_member(dora.id) is None, 5, "dora gone")
                assert dora.id not in guild.members and dora.id in general.overwrites
            finally:
                await client.close()
                await task


@pytest.mark.asyncio
@pytest.mark.parametrize("abrupt", [False, True])
async def test_resume_after_drop_replays_missed_interaction(
    emu: Emulator, world: World, bot: SandboxBot, abrupt: bool
) -> None:
    assert await emu.drop_connection(abrupt=abrupt) == 1
    # Dispatched while the bot is disconnected: only the session buffer has it.
    result = await emu.slash(world.alice, "greet", {"target": world.bob}, guild=world.guild)
    resumed = await emu.wait_for_resume()
    assert resumed.path == "/resume"  # discord.py used resume_gateway_url
    assert resumed.replayed >= 1
    await result.wait()
    assert result.content is not None and result.content.startswith("hello bob")
    await asyncio.wait_for(bot.resumed_event.wait(), 5)
    assert sum(1 for c in emu.connections if c.identified) == 1


@pytest.mark.asyncio
async def test_invalid_session_forces_fresh_identify(
    emu: Emulator, world: World, bot: SandboxBot
) -> None:
    emu.invalidate_session(resumable=False)
    # discord.py itself waits 5 s before a non-initial IDENTIFY (before_identify_hook).
    await emu.wait_for(
        lambda: sum(1 for c in emu.connections if c.identified) == 2, 15, "re-IDENTIFY"
    )
    result = await emu.slash(world.alice, "greet", {"target": world.bob}, guild=world.guild)
    await result.wait()
    assert result.content is not None


@pytest.mark.asyncio
async def test_bad_resume_gets_invalid_session(emu: Emulator) -> None:
    async with aiohttp.ClientSession() as session:
        ws = await _raw_connect(session, emu)
        await ws.receive_json(timeout=5)
        await ws.send_json({"op": 6, "d": {"token": emu.token, "session_id": "nope", "seq": 3}})
        assert await ws.receive_json(timeout=5) == {"op": 9, "d": False}
        await ws.close()


@pytest.mark.asyncio
async def test_reconnect_opcode_resumes(emu: Emulator, world: World, bot: SandboxBot) -> None:
    emu.request_reconnect()
    await emu.wait_for_resume()
    result = await emu.slash(world.bob, "greet", {"target": world.alice}, guild=world.guild)
    await result.wait()
    assert result.content is not None and "alice" in result.content


@pytest.mark.asyncio
async def test_auto_sharded_client_uses_gateway_bot(emu: Emulator, world: World) -> None:
    client = discord.AutoShardedClient(intents=discord.Intents.default(), guild_ready_timeout=0.05)
    task = await start_until_ready(client, emu.token, timeout=10)
    try:
        assert client.shard_count == 1 and client.get_guild(world.guild.id) is not None
        assert emu.requests_for("GET /gateway/bot")[0].status == 200
    finally:
        await client.close()
        await asyncio.wait_for(task, 5)


@pytest.mark.asyncio
async def test_close_1000_ends_session_but_4000_keeps_it(emu: Emulator, world: World) -> None:
    async with aiohttp.ClientSession() as session:
        for code, resumable in ((4000, True), (1000, False)):
            ws = await _raw_connect(session, emu)
            await ws.receive_json(timeout=5)
            await ws.send_json({"op": 2, "d": {"token": emu.token, "intents": 1, "properties": {}}})
            ready = await ws.receive_json(timeout=5)
            await ws.close(code=code)
            session_id = ready["d"]["session_id"]
            await emu.wait_for(
                lambda sid=session_id: emu.ctx.gateway.sessions[sid].connection is None
            )
            ws = await _raw_connect(session, emu)
            await ws.receive_json(timeout=5)
            await ws.send_json(
                {"op": 6, "d": {"token": emu.token, "session_id": session_id, "seq": 1}}
            )
            reply = await ws.receive_json(timeout=5)
            assert (reply.get("t") == "GUILD_CREATE") is resumable  # replayed seq 2, or op 9
            await ws.close()


@pytest.mark.asyncio
async def test_the_bots_own_member_update_comes_without_the_members_intent(emu: Emulator, world: World, bot: SandboxBot) -> None:
    """Discord sends GUILD_MEMBER_UPDATE for the current user whatever the intents
    (https://discord.com/developers/docs/events/gateway#caveats): a bot without
    GUILD_MEMBERS still sees a role given to itself."""
    assert not bot.intents.members
    role = emu.create_role(world.guild, "speakers")
    emu.give_role(world.guild, emu.bot_user, role)
    await emu.wait_for(
        lambda: ((g := bot.get_guild(world.guild.id)) is not None and any(r.id == role.id for r in g.me.roles)) or None,
        10, "the bot to see its new role",
    )
