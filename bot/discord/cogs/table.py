"""``/table``: the table as everyone at it knows it (``bot.discord.views.table``)."""

from __future__ import annotations

import discord
from discord import app_commands

from bot.discord.cogs import Groups, top_level
from bot.discord.views.table import show_table


def install(tree: app_commands.CommandTree, groups: Groups) -> None:
    @top_level("table")
    async def table(interaction: discord.Interaction) -> None:
        await show_table(interaction)

    tree.add_command(table)
