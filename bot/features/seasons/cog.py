"""``/mod season start|end``: a server's seasons, opened and closed by its moderators.

Each is parse → ``service.moderate`` (which checks the caller moderates this server) →
render. The end's summary is posted through the outbox in the channel the season was
ended from, in the season's language (``bot.features.seasons.seasons``); the moderator's answer
says so."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord.context import Ctx, server_language
from bot.discord.errors import ReplyError
from bot.discord.groups import SHARED
from bot.discord.translator import L
from bot.features.moderation.commands import EndSeason, StartSeason
from bot.features.seasons.look import info_name, started_embed
from bot.features.seasons.seasons import MAX_NAME
from bot.i18n import t
from bot.render.replies import notice_embed


class Seasons(commands.Cog):
    """A server's seasons: ``/mod season start|end``."""

    position = 50  # where a shared group lists its commands (bot.discord.features)

    season = app_commands.Group(name=L("cmd.name.season"), description=L("cmd.desc.mod_season"), extras={SHARED: "mod"})

    @season.command(name=L("cmd.name.start"), description=L("cmd.desc.mod_season_start"))
    @app_commands.rename(name=L("cmd.name.season_name"))
    @app_commands.describe(name=L("cmd.param.season_name"))
    async def start(self, interaction: discord.Interaction, name: app_commands.Range[str, 1, MAX_NAME] | None = None) -> None:
        ctx = await Ctx.begin(interaction)
        if interaction.guild_id is None:
            raise ReplyError("reply.error.guild_only")
        language = server_language(interaction, ctx.bot.config.language)
        opened = await ctx.moderate(StartSeason(interaction.guild_id, ctx.user, name, language))
        await ctx.send(embed=started_embed(opened, ctx.locale))

    @season.command(name=L("cmd.name.end"), description=L("cmd.desc.mod_season_end"))
    async def end(self, interaction: discord.Interaction) -> None:
        ctx = await Ctx.begin(interaction)
        if interaction.guild_id is None or interaction.channel_id is None:
            raise ReplyError("reply.error.guild_only")
        summary = await ctx.moderate(EndSeason(interaction.guild_id, ctx.user, interaction.channel_id))
        text = t("season.ended_reply", ctx.locale, season=info_name(summary.season, ctx.locale), games=summary.games, count=summary.games)
        await ctx.send(embed=notice_embed(text))
