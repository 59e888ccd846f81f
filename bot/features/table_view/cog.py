"""``/table``: the table as everyone at it knows it (``bot.features.table_view.components``)."""

from __future__ import annotations

import discord
from discord.ext import commands

from bot.discord.groups import top_level
from bot.features.table_view.components import show_table


class Table(commands.Cog):
    """The table as everyone at it knows it: ``/table``."""

    position = 140  # where a shared group lists its commands (bot.discord.features)

    @top_level("table")
    async def table(self, interaction: discord.Interaction) -> None:
        await show_table(interaction)
