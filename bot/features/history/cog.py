"""``/game history``: the server's finished games, newest first, ten to a page, with
Newer/Older buttons (``bot.features.history.components``) that work after a restart.
Any member of the server may look (the access policy's see_board): only games that are
over are listed, with what their end made public."""

from __future__ import annotations

import discord
from discord.ext import commands

from bot.discord.context import Ctx
from bot.discord.errors import ReplyError
from bot.discord.groups import command
from bot.discord.guild.standing import standing_in_server
from bot.features.history.components import history_view
from bot.features.history.history import game_history
from bot.features.history.look import history_embed


class History(commands.Cog):
    """The server's finished games: ``/game history``."""

    position = 60  # where a shared group lists its commands (bot.discord.features)

    @command("game", "history")
    async def history(self, interaction: discord.Interaction) -> None:
        ctx = await Ctx.begin(interaction, idempotent=True)
        if interaction.guild_id is None:
            raise ReplyError("history.guild_only")
        standing = await standing_in_server(ctx.bot, interaction, interaction.guild_id)
        page = await game_history(ctx.db, standing, interaction.guild_id)
        view = history_view(interaction.guild_id, page, ctx.locale)
        await ctx.send(embed=history_embed(page, ctx.locale), view=view)
