"""``/table``: the table as everyone at it knows it (``bot.discord.components.table``)."""

from __future__ import annotations

import discord
from discord.ext import commands

from bot.discord.commands.groups import top_level
from bot.discord.components.table import show_table


class Table(commands.Cog):
    """The table as everyone at it knows it: ``/table``."""

    @top_level("table")
    async def table(self, interaction: discord.Interaction) -> None:
        await show_table(interaction)
