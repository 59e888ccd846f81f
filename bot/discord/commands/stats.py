"""``/stats view|hide|show|forget`` and ``/leaderboard``: the community's records.

Every figure comes from the records of finished games (``bot.service.stats``,
``bot.service.leaderboard``), never from a live game. The leaderboard's page buttons
carry the whole page in their custom id (``wh:lb:<server>:<sort>:<min games>:<page>``),
and the forget confirmation the user it is for (``wh:forget:<user>``), so both work on
old messages after a restart."""

from __future__ import annotations

import asyncio
import io
import re
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord.commands.groups import group, top_level
from bot.discord.context import Ctx, locale_of
from bot.discord.embeds.replies import notice_embed
from bot.discord.embeds.stats_replies import CHART_FILE, chart_png, leaderboard_embed, stats_embed
from bot.discord.errors import ReplyError, guarded
from bot.discord.guild.standing import standing_in_server
from bot.discord.payload import NUMBER, Checked
from bot.discord.translator import L
from bot.i18n import t
from bot.service.leaderboard import (
    DEFAULT_MIN_GAMES,
    MAX_MIN_GAMES,
    MAX_PAGE,
    SORTS,
    Board,
    board_for,
)
from bot.service.privacy import forget, set_hidden
from bot.service.stats import player_stats

if TYPE_CHECKING:
    from bot.discord.client import WolfBot

SORT_CHOICES = [app_commands.Choice(name=L(f"cmd.choice.sort_{s}"), value=s) for s in SORTS]


class Stats(commands.Cog):
    """The community's records: ``/stats view|hide|show|forget``, ``/leaderboard``."""

    stats = group("stats")

    @stats.command(name=L("cmd.name.view"), description=L("cmd.desc.stats_view"))
    @app_commands.rename(player=L("cmd.name.player"), all_servers=L("cmd.name.all_servers"), public=L("cmd.name.public"))
    @app_commands.describe(player=L("cmd.param.stats_player"), all_servers=L("cmd.param.all_servers"), public=L("cmd.param.public"))
    async def view(
        self,
        interaction: discord.Interaction, player: discord.User | None = None, all_servers: bool = False, public: bool = False
    ) -> None:
        target = player or interaction.user
        guild = None if all_servers or interaction.guild_id is None else interaction.guild_id
        # Read before answering: a refusal (a hidden profile, no games) goes to the caller
        # alone even when the answer was to be posted.
        found = await player_stats(
            interaction.client.db, interaction.user.id, target.id, guild, name=target.display_name  # type: ignore[attr-defined]
        )
        ctx = await Ctx.begin(interaction, ephemeral=not public, idempotent=True)
        # Drawn in a worker thread: the bot keeps answering meanwhile.
        png = await asyncio.to_thread(chart_png, found, ctx.locale)
        file = discord.File(io.BytesIO(png), filename=CHART_FILE)
        await ctx.send(embed=stats_embed(found, target.display_name, ctx.locale), file=file, ephemeral=not public)

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
    @app_commands.rename(sort=L("cmd.name.sort"), min_games=L("cmd.name.min_games"), page=L("cmd.name.page"))
    @app_commands.describe(sort=L("cmd.param.sort"), min_games=L("cmd.param.min_games"), page=L("cmd.param.page"))
    @app_commands.choices(sort=SORT_CHOICES)
    async def board(
        self,
        interaction: discord.Interaction,
        sort: app_commands.Choice[str] | None = None,
        min_games: app_commands.Range[int, 1, MAX_MIN_GAMES] = DEFAULT_MIN_GAMES,
        page: app_commands.Range[int, 1, MAX_PAGE] = 1,
    ) -> None:
        if interaction.guild_id is None:
            raise ReplyError("reply.error.guild_only")
        ctx = await Ctx.begin(interaction, idempotent=True)
        standing = await standing_in_server(ctx.bot, interaction, interaction.guild_id)
        found = await board_for(ctx.db, standing, interaction.guild_id, sort.value if sort else "rating", page, min_games=min_games)
        await ctx.send(embed=leaderboard_embed(found, ctx.locale), view=page_buttons(found, ctx.locale))

def page_buttons(board: Board, locale: str) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for label, page, disabled in (("previous", board.page - 1, board.page <= 1), ("next", board.page + 1, board.page >= board.pages)):
        button = PageButton(board.guild_id, board.sort, board.min_games, page, t(f"leaderboard.{label}", locale))
        button.item.disabled = disabled
        view.add_item(button)
    return view


class PageButton(
    Checked,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=rf"wh:lb:(?P<guild>{NUMBER}):(?P<sort>{'|'.join(SORTS)}):(?P<min>{NUMBER}):(?P<page>{NUMBER})",
):
    """Turns a leaderboard to ``page``, as it stands when pressed, for whoever presses."""

    def __init__(self, guild_id: int, sort: str, min_games: int, page: int, label: str = "") -> None:
        super().__init__(
            discord.ui.Button(
                label=label or str(page), style=discord.ButtonStyle.secondary,
                custom_id=f"wh:lb:{guild_id}:{sort}:{min_games}:{page}",
            )
        )
        self.guild_id, self.sort, self.min_games, self.page = guild_id, sort, min_games, page

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]) -> PageButton:
        return cls(int(match["guild"]), match["sort"], int(match["min"]), int(match["page"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        async def run() -> None:
            locale = locale_of(interaction)
            bot: WolfBot = interaction.client  # type: ignore[assignment]
            standing = await standing_in_server(bot, interaction, self.guild_id)
            found = await board_for(bot.db, standing, self.guild_id, self.sort, self.page, min_games=self.min_games)
            await interaction.response.edit_message(embed=leaderboard_embed(found, locale), view=page_buttons(found, locale))

        await guarded(interaction, run)


class ForgetButton(Checked, discord.ui.DynamicItem[discord.ui.Button[Any]], template=rf"wh:forget:(?P<user>{NUMBER})"):
    """The confirmation of ``/stats forget``; only the user it was shown to may press it."""

    def __init__(self, user_id: int, locale: str = "en-US") -> None:
        super().__init__(
            discord.ui.Button(label=t("stats.forget_button", locale), style=discord.ButtonStyle.danger, custom_id=f"wh:forget:{user_id}")
        )
        self.user_id = user_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]) -> ForgetButton:
        return cls(int(match["user"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        async def run() -> None:
            if interaction.user.id != self.user_id:
                raise ReplyError("stats.not_your_button")
            ctx = await Ctx.begin(interaction)
            count = await forget(ctx.db, self.user_id)
            text = t("stats.forgotten", ctx.locale, count=count) if count else t("stats.nothing_to_forget", ctx.locale)
            await ctx.send(embed=notice_embed(text))

        await guarded(interaction, run)


ITEMS = [PageButton, ForgetButton]
