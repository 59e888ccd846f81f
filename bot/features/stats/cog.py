"""``/stats view|hide|show|forget`` and ``/leaderboard``: the community's records.

Every figure comes from the records of finished games (``bot.features.stats.stats``,
``bot.features.stats.leaderboard``), never from a live game. The leaderboard's page buttons
carry the whole page in their custom id (``wh:lb:<server>:<sort>:<min games>:<page>``),
and the forget confirmation the user it is for (``wh:forget:<user>``), so both work on
old messages after a restart (``bot.features.stats.components``)."""

from __future__ import annotations

import asyncio
import io
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord.context import Ctx, locale_of
from bot.discord.errors import ReplyError
from bot.discord.groups import bot_absent, group, top_level
from bot.discord.guild.standing import standing_in_server
from bot.discord.translator import L
from bot.features.seasons.look import info_name
from bot.features.seasons.seasons import MAX_SEASON, seasons_of
from bot.features.stats.components import ForgetButton, page_buttons
from bot.features.stats.errors import NoRecordsError
from bot.features.stats.leaderboard import (
    DEFAULT_MIN_GAMES,
    MAX_MIN_GAMES,
    MAX_PAGE,
    SORTS,
    board_for,
)
from bot.features.stats.look import CHART_FILE, chart_png, leaderboard_embed, stats_embed
from bot.features.stats.privacy import set_hidden
from bot.features.stats.stats import player_stats
from bot.i18n import t
from bot.render.replies import notice_embed

if TYPE_CHECKING:
    pass


SORT_CHOICES = [app_commands.Choice(name=L(f"cmd.choice.sort_{s}"), value=s) for s in SORTS]


class Stats(commands.Cog):
    """The community's records: ``/stats view|hide|show|forget``, ``/leaderboard``."""

    position = 110  # where a shared group lists its commands (bot.discord.features)

    stats = group("stats", anywhere=True)

    @stats.command(name=L("cmd.name.view"), description=L("cmd.desc.stats_view"))
    @app_commands.rename(player=L("cmd.name.player"), all_servers=L("cmd.name.all_servers"), public=L("cmd.name.public"))
    @app_commands.describe(player=L("cmd.param.stats_player"), all_servers=L("cmd.param.all_servers"), public=L("cmd.param.public"))
    async def view(
        self,
        interaction: discord.Interaction, player: discord.User | None = None, all_servers: bool = False, public: bool = False
    ) -> None:
        target = player or interaction.user
        # A server without the bot (the caller's own install of the app) has no table of
        # ours: the records across every server are what the caller can mean there.
        elsewhere = bot_absent(interaction) and interaction.guild_id is not None
        guild = None if all_servers or elsewhere or interaction.guild_id is None else interaction.guild_id
        # Read before answering: a refusal (a hidden profile, no games) goes to the caller
        # alone even when the answer was to be posted.
        try:
            found = await player_stats(
                interaction.client.db, interaction.user.id, target.id, guild, name=target.display_name  # type: ignore[attr-defined]
            )
        except NoRecordsError:
            if not elsewhere:
                raise
            raise ReplyError("stats.no_records_anywhere", name=target.display_name) from None
        ctx = await Ctx.begin(interaction, ephemeral=not public, idempotent=True)
        # Drawn in a worker thread: the bot keeps answering meanwhile.
        png = await asyncio.to_thread(chart_png, found, ctx.locale)
        file = discord.File(io.BytesIO(png), filename=CHART_FILE)
        embed = stats_embed(found, target.display_name, ctx.locale)
        if elsewhere and not all_servers:
            embed.set_author(name=t("stats.scope_elsewhere", ctx.locale))
        await ctx.send(embed=embed, file=file, ephemeral=not public)

    @stats.command(name=L("cmd.name.hide"), description=L("cmd.desc.stats_hide"))
    async def hide(self, interaction: discord.Interaction) -> None:
        ctx = await Ctx.begin(interaction)
        changed = await set_hidden(ctx.db, interaction.user.id, True)
        await ctx.send(embed=notice_embed(t("stats.hidden_now" if changed else "stats.hidden_already", ctx.locale)))

    @stats.command(name=L("cmd.name.show"), description=L("cmd.desc.stats_show"))
    async def show(self, interaction: discord.Interaction) -> None:
        ctx = await Ctx.begin(interaction)
        changed = await set_hidden(ctx.db, interaction.user.id, False)
        await ctx.send(embed=notice_embed(t("stats.shown_now" if changed else "stats.shown_already", ctx.locale)))

    @stats.command(name=L("cmd.name.forget"), description=L("cmd.desc.stats_forget"))
    async def forget_me(self, interaction: discord.Interaction) -> None:
        ctx = await Ctx.begin(interaction)
        view = discord.ui.View(timeout=None)
        view.add_item(ForgetButton(interaction.user.id, ctx.locale))
        await ctx.send(embed=notice_embed(t("stats.forget_confirm", ctx.locale), colour=0xB45309), view=view)

    @top_level("leaderboard")
    @app_commands.rename(sort=L("cmd.name.sort"), min_games=L("cmd.name.min_games"), page=L("cmd.name.page"), season=L("cmd.name.season"))
    @app_commands.describe(sort=L("cmd.param.sort"), min_games=L("cmd.param.min_games"), page=L("cmd.param.page"), season=L("cmd.param.season"))
    @app_commands.choices(sort=SORT_CHOICES)
    async def board(
        self,
        interaction: discord.Interaction,
        sort: app_commands.Choice[str] | None = None,
        min_games: app_commands.Range[int, 1, MAX_MIN_GAMES] = DEFAULT_MIN_GAMES,
        page: app_commands.Range[int, 1, MAX_PAGE] = 1,
        season: app_commands.Range[int, 0, MAX_SEASON] | None = None,
    ) -> None:
        if interaction.guild_id is None:
            raise ReplyError("reply.error.guild_only")
        ctx = await Ctx.begin(interaction, idempotent=True)
        standing = await standing_in_server(ctx.bot, interaction, interaction.guild_id)
        found = await board_for(
            ctx.db, standing, interaction.guild_id, sort.value if sort else "rating", page, min_games=min_games, season=season
        )
        await ctx.send(embed=leaderboard_embed(found, ctx.locale), view=page_buttons(found, ctx.locale))

    @board.autocomplete("season")
    async def _seasons(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[int]]:
        """The server's seasons, the latest first, as "Season 3: Spring"."""
        if interaction.guild_id is None:
            return []
        locale = locale_of(interaction)
        found = await seasons_of(interaction.client.db, interaction.guild_id)  # type: ignore[attr-defined]
        typed = current.strip().casefold()
        names = [(s.number, info_name(s, locale)) for s in found]
        return [app_commands.Choice(name=n[:100], value=number) for number, n in names if typed in n.casefold() or typed == str(number)][:25]
