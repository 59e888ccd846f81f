"""User installs with the real discord.py client: a person who added the app to their own
account uses its commands in a server without the bot and in a DM with another person."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import discord
import pytest
from discord import app_commands

from discord_emulator import Emulator, InvalidInvocation
from discord_emulator import permissions as perm
from discord_emulator.ready import running

from .conftest import World


class PersonalBot(discord.Client):
    """``/echo`` may be installed to an account and used anywhere; ``/server`` is the
    server install's only. Every followup the bot tried and every gateway message seen
    are kept."""

    def __init__(self) -> None:
        super().__init__(intents=discord.Intents.default())
        self.tree = app_commands.CommandTree(self)
        self.followup_codes: list[int | None] = []
        self.messages_seen: list[int] = []

        @self.tree.command(description="Echoes, with some followups")
        @app_commands.allowed_installs(guilds=True, users=True)
        @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
        async def echo(interaction: discord.Interaction, followups: int = 0) -> None:
            await interaction.response.send_message("echo")
            for i in range(followups):
                try:
                    await interaction.followup.send(f"more {i}")
                    self.followup_codes.append(None)
                except discord.HTTPException as exc:
                    self.followup_codes.append(exc.code)

        @self.tree.command(description="Only where the server installed the app")
        @app_commands.allowed_installs(guilds=True, users=False)
        @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=False)
        async def server(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("server")

    async def setup_hook(self) -> None:
        await self.tree.sync()

    async def on_message(self, message: discord.Message) -> None:
        self.messages_seen.append(message.channel.id)


@pytest.fixture
async def personal(emu: Emulator, world: World) -> AsyncIterator[PersonalBot]:
    client = PersonalBot()
    async with running(client, emu.token, timeout=10):
        yield client


async def test_the_interaction_says_who_authorized_it_and_where(emu: Emulator, world: World, personal: PersonalBot) -> None:
    elsewhere = emu.create_guild("Elsewhere", owner=world.owner, add_bot=False)
    emu.add_member(elsewhere, world.bob)
    emu.install_app(world.bob)
    private = emu.private_channel(world.bob, world.alice)
    cases: list[tuple[dict[str, Any], dict[str, str], int]] = [
        ({"guild": elsewhere}, {"1": str(world.bob.id)}, 0),
        ({"channel": private}, {"1": str(world.bob.id)}, 2),
        ({"guild": world.guild}, {"0": str(world.guild.id), "1": str(world.bob.id)}, 0),
        ({"dm": True}, {"0": "0", "1": str(world.bob.id)}, 1),
    ]
    for where, owners, context in cases:
        result = await emu.slash(world.bob, "echo", **where)
        await result.wait()
        payload = result.record.payload
        assert (payload["authorizing_integration_owners"], payload["context"]) == (owners, context), where
        assert result.content == "echo" and not result.ephemeral
    assert ("member" in payload) is False and payload["user"]["id"] == str(world.bob.id)
    # The bot is told nothing of the server it is not in, nor of the DM between people.
    assert all(g.id != elsewhere.id for g in personal.guilds)
    assert private.id not in personal.messages_seen


async def test_only_what_the_install_and_the_place_allow_is_offered(emu: Emulator, world: World, personal: PersonalBot) -> None:
    elsewhere = emu.create_guild("Elsewhere", owner=world.owner, add_bot=False)
    emu.add_member(elsewhere, world.bob)
    private = emu.private_channel(world.bob, world.alice)
    with pytest.raises(InvalidInvocation, match="has not installed the app"):
        await emu.slash(world.bob, "echo", guild=elsewhere)
    with pytest.raises(InvalidInvocation, match="hidden"):
        await emu.slash(world.bob, "echo", channel=private)
    emu.install_app(world.bob)
    assert emu.command_list(world.bob, guild=elsewhere) == ["echo"]
    assert emu.command_list(world.bob, channel=private) == ["echo"]
    assert emu.command_list(world.bob, guild=world.guild) == ["echo", "server"]
    with pytest.raises(InvalidInvocation, match="hidden"):
        await emu.slash(world.bob, "server", channel=private)
    with pytest.raises(InvalidInvocation, match="between two other users"):
        await emu.slash(world.carol, "echo", channel=private)
    emu.uninstall_app(world.bob)
    assert emu.command_list(world.bob, channel=private) == []


async def test_a_user_install_answers_only_through_the_interaction(emu: Emulator, world: World, personal: PersonalBot) -> None:
    elsewhere = emu.create_guild("Elsewhere", owner=world.owner, add_bot=False)
    emu.add_member(elsewhere, world.bob)
    emu.install_app(world.bob)
    general = next(iter(elsewhere.channels.values()))
    result = await emu.slash(world.bob, "echo", {"followups": 6}, guild=elsewhere)
    await result.wait_followups(5)
    await emu.wait_for(lambda: len(personal.followup_codes) == 6)
    assert personal.followup_codes == [None] * 5 + [40094]  # 5 followups, then refused
    # Where the member may not use external apps publicly, every answer is ephemeral.
    everyone = elsewhere.roles[elsewhere.id]
    emu.set_role_permissions(elsewhere, everyone, everyone.permissions & ~perm.USE_EXTERNAL_APPS)
    quiet = await emu.slash(world.bob, "echo", guild=elsewhere)
    await quiet.wait()
    assert quiet.ephemeral
    # The bot's own REST calls into the place are refused: Missing Access.
    for channel in (general, emu.private_channel(world.bob, world.alice)):
        with pytest.raises(discord.Forbidden) as refused:
            await personal.http.send_message(channel.id, params=discord.http.handle_message_parameters(content="hi"))
        assert refused.value.code == 50001
    # A person who installed the app may be DMed by the bot without a shared server.
    stranger = emu.create_user("stranger")
    emu.install_app(stranger)
    dm = await personal.http.start_private_message(stranger.id)
    sent = await personal.http.send_message(int(dm["id"]), params=discord.http.handle_message_parameters(content="hi"))
    assert sent["content"] == "hi"
