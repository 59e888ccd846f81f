"""Practice against the AI, on Discord: ``/practice start [players] [language]`` and
``/practice stop``. (Discord lets a command with subcommands take no options of its
own, so starting one is a subcommand beside stopping it.)

The game's channel is the caller's DM with the bot: used in a DM with the bot, that one;
used anywhere else (a server, one without the bot for a person who installed the app to
their account, or a DM between people), the answer is private and the DM with the bot is
opened first, a short note sent there to be sure the bot may write to it (a person whose
DMs are closed is told so, and no game is made); where the bot cannot post, the answer
says the game is played in the DMs. The game itself is the service's
(``bot.features.practice.practice``)."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.core.dm_channels import remember_dm_channel
from bot.discord.context import Ctx
from bot.discord.errors import ReplyError
from bot.discord.groups import bot_absent, group
from bot.discord.translator import L
from bot.features.practice.practice import (
    DEFAULT_PLAYERS as PRACTICE_PLAYERS,
)
from bot.features.practice.practice import (
    practice_settings,
    start_practice,
    stop_practice,
)
from bot.i18n import LOCALES, t
from bot.render.replies import notice_embed

LANGUAGES = [app_commands.Choice(name=L(f"cmd.choice.lang_{code.replace('-', '_')}"), value=code) for code in LOCALES]


async def dm_channel(ctx: Ctx) -> int:
    """The caller's DM channel with the bot, where the practice game is played: this one
    in a DM, else opened and tried with a note (ReplyError when DMs are closed)."""
    interaction = ctx.interaction
    in_bot_dm = interaction.guild_id is None and not interaction.context.private_channel  # not a DM between people
    if in_bot_dm and isinstance(interaction.channel, discord.DMChannel) and interaction.channel_id is not None:
        return interaction.channel_id
    try:
        channel = await interaction.user.create_dm()
        await channel.send(embed=notice_embed(t("practice.dm_note", ctx.locale)))
    except discord.Forbidden:
        raise ReplyError("practice.dms_closed") from None
    return channel.id


class Practice(commands.Cog):
    """A game for one person against AI seats: ``/practice start``, ``/practice stop``."""

    position = 160  # where a shared group lists its commands (bot.discord.features)

    practice = group("practice", anywhere=True)

    @practice.command(name=L("cmd.name.start"), description=L("cmd.desc.practice_start"))
    @app_commands.rename(players=L("cmd.name.players"), language=L("cmd.name.language"))
    @app_commands.describe(players=L("cmd.param.practice_players"), language=L("cmd.param.practice_language"))
    @app_commands.choices(language=LANGUAGES)
    async def start(self, interaction: discord.Interaction, players: int | None = None, language: str | None = None) -> None:
        ctx = await Ctx.begin(interaction)
        count = PRACTICE_PLAYERS if players is None else players
        practice_settings(count, language or ctx.locale)  # a bad table is refused before the DM is touched
        channel_id = await dm_channel(ctx)
        await remember_dm_channel(ctx.db, interaction.user.id, channel_id)  # the game's posts and the person's news: one place
        info = await start_practice(ctx.db, ctx.user, channel_id, players=count, language=language or ctx.locale)
        started = t("practice.started", ctx.locale, game=info.id, count=len(info.players), ai=len(info.players) - 1, channel=f"<#{channel_id}>")
        if bot_absent(interaction):
            started = t("practice.in_your_dms", ctx.locale) + "\n" + started
        await ctx.send(embed=notice_embed(started))

    @practice.command(name=L("cmd.name.stop"), description=L("cmd.desc.practice_stop"))
    async def stop(self, interaction: discord.Interaction) -> None:
        ctx = await Ctx.begin(interaction)
        info = await stop_practice(ctx.db, interaction.user.id)
        await ctx.send(embed=notice_embed(t("practice.stopped", ctx.locale, game=info.id)))
