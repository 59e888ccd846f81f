"""Switching between global commands and ``command_guild_ids`` leaves no second copy of
each command: Discord would list a server's own copies beside the global ones."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator

import pytest

from bot.db.session import Database
from bot.discord.client import WolfBot
from bot.discord.config import DiscordConfig
from discord_emulator import Emulator, Guild
from discord_emulator.ready import running as started
from tests.conftest import FakeClock, wipe

LEFTOVER = [{"name": "game", "description": "an earlier registration", "type": 1}]
GUILD_PUT = "PUT /applications/{application_id}/guilds/{guild_id}/commands"


@contextlib.asynccontextmanager
async def running(emu: Emulator, db: Database, **config: object) -> AsyncIterator[WolfBot]:
    settings = DiscordConfig(database_url=db.url.render_as_string(hide_password=False), token=emu.token, migrate_on_start=False, **config)  # type: ignore[arg-type]
    client = WolfBot(settings, db=db)
    async with started(client, emu.token):
        yield client


@pytest.fixture
async def world(sqlite_url: str, clock: FakeClock) -> AsyncIterator[tuple[Emulator, Database, Guild, Guild]]:
    db = Database(sqlite_url, clock=clock)
    await wipe(db)
    async with Emulator(heartbeat_interval=0.5) as emu:
        with emu.patch_discord():
            owner = emu.create_user("owner")
            tested = emu.create_guild("Test Inn", owner=owner)
            other = emu.create_guild("Wolf Howl Tavern", owner=owner)
            yield emu, db, tested, other
            assert emu.server_errors == []


def names(emu: Emulator, guild: Guild | None = None) -> set[str]:
    return {c["name"] for c in emu.registered_commands(guild)}


async def test_server_commands_remove_the_global_copies(world) -> None:
    emu, db, tested, _ = world
    emu.ctx.commands.bulk_overwrite(None, LEFTOVER)  # a global run before
    async with running(emu, db, command_guild_ids=[tested.id]):
        assert {"game", "grail", "act", "vote"} <= names(emu, tested)
        assert names(emu) == set()


async def test_global_commands_remove_the_server_copies_where_there_are_some(world) -> None:
    emu, db, tested, other = world
    emu.ctx.commands.bulk_overwrite(tested.id, LEFTOVER)  # a command_guild_ids run before
    async with running(emu, db):
        read = GUILD_PUT.replace("PUT", "GET")

        def checked_both() -> bool | None:
            return {str(g.id) for g in (tested, other) if any(str(g.id) in r.path for r in emu.requests_for(read))} == {str(tested.id), str(other.id)} or None

        await emu.wait_for(checked_both, 5, "both servers' commands to be read")
        await emu.wait_for(lambda: not names(emu, tested) or None, 5, "the server's copies to go")
        assert {"game", "grail", "act", "vote"} <= names(emu)
        # Only the server that had copies is written to; the other is only read.
        puts = emu.requests_for(GUILD_PUT)
        assert len(puts) == 1 and str(tested.id) in puts[0].path
