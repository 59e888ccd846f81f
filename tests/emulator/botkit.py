"""A small but representative discord.py bot used by the sandbox tests.

It exercises what the real game bot will use: slash commands with options and
subcommand groups, autocomplete, ephemeral/deferred replies, followups with a
PNG file and embeds, persistent views (buttons and selects), modals, DMs,
channel creation with permission overwrites.  Errors the bot receives from
the emulator are collected in ``bot.errors`` so tests can assert on the exact
discord.py exception types and codes.
"""

from __future__ import annotations

import asyncio
import struct
import zlib
from typing import Any

import aiohttp
import discord
from discord import app_commands
from discord.ext import commands


def tiny_png(width: int = 2, height: int = 3) -> bytes:
    """A valid RGB PNG, enough to stand in for the bot's matplotlib chart."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return (
            struct.pack(">I", len(data))
            + kind
            + data
            + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
        )

    raw = b"".join(b"\x00" + b"\xff\x00\x00" * width for _ in range(height))
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(raw))
        + chunk(b"IEND", b"")
    )


class PanelView(discord.ui.View):
    """Persistent view: no timeout and fixed custom_ids, registered via add_view."""

    def __init__(self) -> None:
        super().__init__(timeout=None)
        self.joined: list[str] = []

    @discord.ui.button(label="Join", style=discord.ButtonStyle.primary, custom_id="panel:join")
    async def join(self, interaction: discord.Interaction, button: discord.ui.Button[Any]) -> None:
        self.joined.append(interaction.user.name)
        await interaction.response.edit_message(content=f"joined: {', '.join(self.joined)}")

    @discord.ui.select(
        custom_id="panel:class",
        placeholder="Pick a class",
        options=[
            discord.SelectOption(label="Knight", value="knight"),
            discord.SelectOption(label="Mage", value="mage"),
        ],
    )
    async def pick(self, interaction: discord.Interaction, select: discord.ui.Select[Any]) -> None:
        await interaction.response.send_message(f"you picked {select.values[0]}", ephemeral=True)


class VoteView(discord.ui.View):
    """Non-persistent view attached to an interaction response (stored by message id)."""

    def __init__(self) -> None:
        super().__init__(timeout=60)
        self.votes = 0

    @discord.ui.button(label="Yes", custom_id="vote:yes")
    async def yes(self, interaction: discord.Interaction, button: discord.ui.Button[Any]) -> None:
        self.votes += 1
        await interaction.response.defer()  # type 6: acknowledge, edit later
        await interaction.edit_original_response(content=f"votes: {self.votes}")


class NameModal(discord.ui.Modal, title="Your name"):
    name: discord.ui.TextInput[Any] = discord.ui.TextInput(
        label="Name", custom_id="name", max_length=20
    )

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"welcome {self.name.value}", ephemeral=True)


class SandboxBot(commands.Bot):
    def __init__(self, guild_id: int, **options: Any) -> None:
        options.setdefault("intents", discord.Intents.default())
        super().__init__(command_prefix="!", guild_ready_timeout=0.05, **options)
        self.guild_id = guild_id
        self.errors: list[Exception] = []
        self.error_event = asyncio.Event()
        self.gate = asyncio.Event()
        self.resumed_event = asyncio.Event()
        self.synced: list[app_commands.AppCommand] = []
        _install_commands(self)

    def record_error(self, exc: Exception) -> None:
        self.errors.append(exc)
        self.error_event.set()

    async def setup_hook(self) -> None:
        self.add_view(PanelView())
        self.synced = await self.tree.sync(guild=discord.Object(self.guild_id))
        await self.tree.sync()

    async def on_resumed(self) -> None:
        self.resumed_event.set()


def _install_commands(bot: SandboxBot) -> None:
    tree = bot.tree
    guild = discord.Object(bot.guild_id)

    @tree.command(name="greet", description="Greet someone privately", guild=guild)
    async def greet(interaction: discord.Interaction, target: discord.Member) -> None:
        await interaction.response.send_message(
            f"hello {target.display_name} from {interaction.user.name} ({interaction.locale.value})",
            ephemeral=True,
        )

    act = app_commands.Group(name="act", description="Night actions", guild_ids=[bot.guild_id])
    combat = app_commands.Group(name="combat", description="Combat actions", parent=act)

    @combat.command(name="attack", description="Attack a player")
    async def attack(
        interaction: discord.Interaction, target: str, power: app_commands.Range[int, 1, 10] = 1
    ) -> None:
        await interaction.response.send_message(
            f"{interaction.user.name} attacks {target} with {power}"
        )

    @attack.autocomplete("target")
    async def attack_target(
        interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        names = ["alice", "albert", "bob", "carol"]
        return [
            app_commands.Choice(name=n.title(), value=n) for n in names if n.startswith(current)
        ]

    tree.add_command(act)

    @tree.command(name="many", description="Too many autocomplete choices", guild=guild)
    async def many(interaction: discord.Interaction, pick: str) -> None:
        await interaction.response.send_message(pick)

    @many.autocomplete("pick")
    async def many_choices(
        interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return [app_commands.Choice(name=f"c{i}", value=f"c{i}") for i in range(30)]

    @tree.command(name="report", description="Deferred report with a chart", guild=guild)
    async def report(interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        embed = discord.Embed(title="Stats", description="win rates").set_image(
            url="attachment://chart.png"
        )
        await interaction.followup.send(
            file=discord.File(__import__("io").BytesIO(tiny_png()), "chart.png"), embed=embed
        )
        await interaction.followup.send("and one more thing")

    @tree.command(name="panel", description="Post the join panel", guild=guild)
    async def panel(interaction: discord.Interaction) -> None:
        assert interaction.channel is not None
        await interaction.channel.send("joined: nobody", view=PanelView())  # type: ignore[union-attr]
        await interaction.response.send_message("panel posted", ephemeral=True)

    @tree.command(name="vote", description="Start a vote", guild=guild)
    async def vote(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("votes: 0", view=VoteView())

    @tree.command(name="countdown", description="Edits its own reply and followups", guild=guild)
    async def countdown(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("3")
        await interaction.edit_original_response(content="2")
        original = await interaction.original_response()
        note = await interaction.followup.send(
            f"original says {original.content}", ephemeral=True, wait=True
        )
        await note.edit(content="note edited")
        extra = await interaction.followup.send("temporary", wait=True)
        await extra.delete()

    @tree.command(name="slowjob", description="Defers, then reports after the gate", guild=guild)
    async def slowjob(interaction: discord.Interaction) -> None:
        await interaction.response.defer()
        await bot.gate.wait()
        try:
            await interaction.followup.send("job done")
        except discord.HTTPException as exc:
            bot.record_error(exc)

    @tree.command(name="form", description="Ask for a name", guild=guild)
    async def form(interaction: discord.Interaction) -> None:
        await interaction.response.send_modal(NameModal())

    @tree.command(name="whisper", description="DM a player", guild=guild)
    async def whisper(interaction: discord.Interaction, target: discord.Member) -> None:
        try:
            await target.send("a secret role: werewolf")
        except discord.HTTPException as exc:
            bot.record_error(exc)
            await interaction.response.send_message(f"could not DM ({exc.code})", ephemeral=True)
        else:
            await interaction.response.send_message("sent", ephemeral=True)

    @tree.command(name="long", description="Send an oversized message", guild=guild)
    async def long(interaction: discord.Interaction) -> None:
        await interaction.response.defer()
        try:
            await interaction.channel.send("x" * 2001)  # type: ignore[union-attr]
        except discord.HTTPException as exc:
            bot.record_error(exc)
        await interaction.followup.send("tried")

    @tree.command(name="double", description="Answer twice", guild=guild)
    async def double(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("first")
        # discord.py refuses a second response itself: this one goes to Discord directly.
        callback = f"{discord.http.Route.BASE}/interactions/{interaction.id}/{interaction.token}/callback"
        try:
            second = {"type": 4, "data": {"content": "second"}}
            async with aiohttp.ClientSession() as session, session.post(callback, json=second) as response:
                if response.status >= 400:
                    raise discord.HTTPException(response, await response.json())
        except discord.HTTPException as exc:
            bot.record_error(exc)

    @tree.command(name="announce", description="Post in the channel", guild=guild)
    async def announce(interaction: discord.Interaction, text: str) -> None:
        await interaction.response.send_message("ok", ephemeral=True)
        try:
            await interaction.channel.send(text)  # type: ignore[union-attr]
        except discord.HTTPException as exc:
            bot.record_error(exc)

    @tree.command(name="burst", description="Post several messages quickly", guild=guild)
    async def burst(interaction: discord.Interaction, count: int) -> None:
        await interaction.response.defer(ephemeral=True)
        for i in range(count):
            await interaction.channel.send(f"burst {i}")  # type: ignore[union-attr]
        await interaction.followup.send("burst done")

    @tree.command(name="late", description="Answers only after the gate opens", guild=guild)
    async def late(interaction: discord.Interaction) -> None:
        await bot.gate.wait()
        try:
            await interaction.response.send_message("too late?")
        except discord.HTTPException as exc:
            bot.record_error(exc)

    @tree.command(name="room", description="Create a private room", guild=guild)
    @app_commands.default_permissions(manage_guild=True)
    async def room(interaction: discord.Interaction, name: str, guest: discord.Member) -> None:
        g = interaction.guild
        assert g is not None
        overwrites = {
            g.default_role: discord.PermissionOverwrite(view_channel=False),
            guest: discord.PermissionOverwrite(view_channel=True, send_messages=True),
            g.me: discord.PermissionOverwrite(view_channel=True, send_messages=True),
        }
        channel = await g.create_text_channel(name, overwrites=overwrites)
        await channel.set_permissions(interaction.user, view_channel=True)  # type: ignore[arg-type]
        await channel.send(f"welcome {guest.mention}")
        await interaction.response.send_message(f"created {channel.mention}", ephemeral=True)

    @tree.command(name="dmhelp", description="Works in DMs too")
    @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=False)
    async def dmhelp(interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"help for {interaction.user.name}")
