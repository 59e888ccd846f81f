"""``/table``: the table as everyone at it knows it (``bot.discord.views.table``)."""

from __future__ import annotations

import discord
from discord.ext import commands

from bot.discord.cogs.groups import top_level
from bot.discord.views.table import show_table


class Table(commands.Cog):
    """The table as everyone at it knows it: ``/table``."""

    @top_level("table")
    async def table(self, interaction: discord.Interaction) -> None:
        await show_table(interaction)
