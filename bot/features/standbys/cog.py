"""A game's standby list, on Discord: ``/standby join`` and ``/standby leave``, for anyone
not playing. (The absence policy is a setting of ``/mod settings``.)"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord.context import Ctx
from bot.discord.errors import ReplyError
from bot.discord.groups import group
from bot.discord.translator import L
from bot.features.lobby.games import game_in_channel, get_game
from bot.features.standbys.standbys import join_standby, leave_standby
from bot.i18n import t
from bot.render.replies import notice_embed


async def _standby_game(ctx: Ctx, game_id: int | None) -> int:
    """The game named, else the live game of the channel the command is used in."""
    if game_id is not None:
        return game_id
    if ctx.interaction.guild_id is not None and ctx.interaction.channel_id is not None:
        info = await game_in_channel(ctx.db, ctx.interaction.channel_id)
        if info is not None:
            return info.id
    raise ReplyError("absence.which")


class Standby(commands.Cog):
    """A game's standby list: ``/standby join``, ``/standby leave``."""

    position = 130  # where a shared group lists its commands (bot.discord.features)

    standby = group("standby")

    @standby.command(name=L("cmd.name.join"), description=L("cmd.desc.standby_join"))
    @app_commands.rename(game_id=L("cmd.name.game_id"))
    @app_commands.describe(game_id=L("cmd.param.standby_game"))
    async def join(self, interaction: discord.Interaction, game_id: app_commands.Range[int, 1] | None = None) -> None:
        ctx = await Ctx.begin(interaction)
        game = await get_game(ctx.db, await _standby_game(ctx, game_id))
        waiting = await join_standby(ctx.db, game.id, ctx.user, await ctx.standing(game))
        await ctx.send(embed=notice_embed(t("absence.standby_joined", ctx.locale, game=game.id, count=waiting)))

    @standby.command(name=L("cmd.name.leave"), description=L("cmd.desc.standby_leave"))
    @app_commands.rename(game_id=L("cmd.name.game_id"))
    @app_commands.describe(game_id=L("cmd.param.standby_game"))
    async def leave(self, interaction: discord.Interaction, game_id: app_commands.Range[int, 1] | None = None) -> None:
        ctx = await Ctx.begin(interaction)
        info = await leave_standby(ctx.db, await _standby_game(ctx, game_id), interaction.user.id)
        await ctx.send(embed=notice_embed(t("absence.standby_left", ctx.locale, game=info.id)))
