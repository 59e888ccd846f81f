"""The Newer/Older buttons of ``/game history`` (custom id
``wh:hist:<server>:<page>:<tag>``), which turn the page in place after a restart too."""

from __future__ import annotations

import re
from typing import Any

import discord

from bot.discord.context import Ctx
from bot.discord.errors import ReplyError, guarded
from bot.discord.guild.standing import standing_in_server
from bot.discord.payload import NUMBER, Checked
from bot.features.history.history import HistoryPage, game_history
from bot.features.history.look import history_embed
from bot.i18n import t


def history_view(guild_id: int, page: HistoryPage, locale: str) -> discord.ui.View | None:
    if page.pages <= 1:
        return None
    view = discord.ui.View(timeout=None)
    view.add_item(HistoryPageButton(guild_id, page.page - 1, t("history.newer", locale), disabled=page.page <= 1, tag="n"))
    view.add_item(HistoryPageButton(guild_id, page.page + 1, t("history.older", locale), disabled=page.page >= page.pages, tag="o"))
    return view


class HistoryPageButton(Checked, discord.ui.DynamicItem[discord.ui.Button[Any]], template=rf"wh:hist:(?P<guild>{NUMBER}):(?P<page>{NUMBER}):(?P<tag>[no])"):
    """Shows another page in place. (The tag keeps the two buttons' ids apart when both
    point at page 0 or past the end, disabled.)"""

    def __init__(self, guild_id: int, page: int, label: str = "…", *, disabled: bool = False, tag: str = "o") -> None:
        custom_id = f"wh:hist:{guild_id}:{max(page, 0)}:{tag}"
        super().__init__(discord.ui.Button(label=label, style=discord.ButtonStyle.secondary, custom_id=custom_id, disabled=disabled))
        self.guild_id, self.page = guild_id, page

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]) -> HistoryPageButton:
        return cls(int(match["guild"]), int(match["page"]), tag=match["tag"])

    async def callback(self, interaction: discord.Interaction) -> None:
        async def run() -> None:
            if interaction.guild_id is None:
                raise ReplyError("history.guild_only")
            ctx = Ctx(interaction)
            standing = await standing_in_server(ctx.bot, interaction, self.guild_id)
            page = await game_history(ctx.bot.db, standing, self.guild_id, self.page)
            view = history_view(self.guild_id, page, ctx.locale)
            await interaction.response.edit_message(embed=history_embed(page, ctx.locale), view=view)

        await guarded(interaction, run)



ITEMS: list[type[discord.ui.DynamicItem[Any]]] = [HistoryPageButton]
