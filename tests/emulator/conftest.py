"""Fixtures: a running emulator with a small world, and the test bot connected to it."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import dataclass

import pytest

from discord_emulator import Emulator, Guild, User
from discord_emulator import permissions as perm
from discord_emulator.ready import running, start_until_ready

from .botkit import SandboxBot


@dataclass
class World:
    guild: Guild
    owner: User
    alice: User
    bob: User
    carol: User


@pytest.fixture
async def emu() -> AsyncIterator[Emulator]:
    async with Emulator(heartbeat_interval=0.5) as emulator:
        with emulator.patch_discord():
            yield emulator
        assert emulator.server_errors == []


@pytest.fixture
def world(emu: Emulator) -> World:
    owner = emu.create_user("owner")
    guild = emu.create_guild("Wolf Howl Tavern", owner=owner)
    alice = emu.create_user("alice", locale="zh-CN")
    bob = emu.create_user("bob")
    carol = emu.create_user("carol", dms_closed=True)
    for user in (alice, bob, carol):
        emu.add_member(guild, user)
    moderators = emu.create_role(guild, "GM", permissions=perm.MANAGE_GUILD)
    emu.give_role(guild, alice, moderators)
    return World(guild, owner, alice, bob, carol)


async def run_bot(emu: Emulator, bot: SandboxBot) -> asyncio.Task[None]:
    """Starts ``bot`` against the emulator and waits for on_ready."""
    return await start_until_ready(bot, emu.token, timeout=10)


@pytest.fixture
async def bot(emu: Emulator, world: World) -> AsyncIterator[SandboxBot]:
    client = SandboxBot(world.guild.id)
    async with running(client, emu.token, timeout=10):
        yield client
