"""Joining and leaving a game before it starts: ``/game join`` and ``/game leave``, the
flows the lobby post's buttons use (``bot.features.lobby.components``)."""

from __future__ import annotations

import discord
from discord.ext import commands

from bot.discord.groups import command
from bot.features.lobby.components import join_flow, leave_flow


class Lobby(commands.Cog):
    """Joining and leaving a game's lobby: ``/game join``, ``/game leave``."""

    position = 10  # where a shared group lists its commands (bot.discord.features)

    @command("game", "join")
    async def join(self, interaction: discord.Interaction) -> None:
        await join_flow(interaction, None)

    @command("game", "leave")
    async def leave(self, interaction: discord.Interaction) -> None:
        await leave_flow(interaction, None)
