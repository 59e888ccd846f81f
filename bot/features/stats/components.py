"""The leaderboard's page buttons (custom id ``wh:lb:<server>:<sort>:<min games>:<page>``
and ``:s<season>`` for a season's board,
the whole page in it) and the confirmation of ``/stats forget`` (``wh:forget:<user>``),
both working on old messages after a restart."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import discord

from bot.discord.context import Ctx, locale_of
from bot.discord.errors import guarded
from bot.discord.guild.standing import standing_in_server
from bot.discord.payload import NUMBER, Checked
from bot.features.stats.leaderboard import SORTS, Board, board_for
from bot.features.stats.look import leaderboard_embed
from bot.features.stats.privacy import forget
from bot.i18n import t
from bot.render.replies import notice_embed

if TYPE_CHECKING:
    from bot.discord.client import WolfBot


def page_buttons(board: Board, locale: str) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    season = board.season.number if board.season is not None else None
    for label, page, disabled in (("previous", board.page - 1, board.page <= 1), ("next", board.page + 1, board.page >= board.pages)):
        button = PageButton(board.guild_id, board.sort, board.min_games, page, t(f"leaderboard.{label}", locale), season)
        button.item.disabled = disabled
        view.add_item(button)
    return view


class PageButton(
    Checked,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=rf"wh:lb:(?P<guild>{NUMBER}):(?P<sort>{'|'.join(SORTS)}):(?P<min>{NUMBER}):(?P<page>{NUMBER})(?::s(?P<season>{NUMBER}))?",
):
    """Turns a leaderboard to ``page``, as it stands when pressed, for whoever presses
    (a season's board carries its number: ``…:<page>:s<season>``)."""

    def __init__(self, guild_id: int, sort: str, min_games: int, page: int, label: str = "", season: int | None = None) -> None:
        in_season = "" if season is None else f":s{season}"
        super().__init__(
            discord.ui.Button(
                label=label or str(page), style=discord.ButtonStyle.secondary,
                custom_id=f"wh:lb:{guild_id}:{sort}:{min_games}:{page}{in_season}",
            )
        )
        self.guild_id, self.sort, self.min_games, self.page, self.season = guild_id, sort, min_games, page, season

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]) -> PageButton:
        season = int(match["season"]) if match["season"] else None
        return cls(int(match["guild"]), match["sort"], int(match["min"]), int(match["page"]), season=season)

    async def callback(self, interaction: discord.Interaction) -> None:
        async def run() -> None:
            locale = locale_of(interaction)
            bot: WolfBot = interaction.client  # type: ignore[assignment]
            standing = await standing_in_server(bot, interaction, self.guild_id)
            found = await board_for(bot.db, standing, self.guild_id, self.sort, self.page, min_games=self.min_games, season=self.season)
            await interaction.response.edit_message(embed=leaderboard_embed(found, locale), view=page_buttons(found, locale))

        await guarded(interaction, run)


class ForgetButton(Checked, discord.ui.DynamicItem[discord.ui.Button[Any]], template=rf"wh:forget:(?P<user>{NUMBER})"):
    """The confirmation of ``/stats forget``; only the user it was shown to may press it
    (``privacy.forget`` refuses anyone else)."""

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
            ctx = await Ctx.begin(interaction)
            # The service refuses anyone but the user the button names.
            count = await forget(ctx.db, interaction.user.id, self.user_id)
            text = t("stats.forgotten", ctx.locale, count=count) if count else t("stats.nothing_to_forget", ctx.locale)
            await ctx.send(embed=notice_embed(text))

        await guarded(interaction, run)


ITEMS = [PageButton, ForgetButton]
