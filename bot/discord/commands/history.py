"""``/game history``: the server's finished games, newest first, ten to a page, with
Newer/Older buttons (custom id ``wh:hist:<server>:<page>``) that work after a restart.
Anyone may look: only games that are over are listed, with what their end made public."""

from __future__ import annotations

import re
from typing import Any

import discord
from discord.ext import commands

from bot.discord.commands.groups import command
from bot.discord.context import Ctx
from bot.discord.errors import ReplyError, guarded
from bot.discord.guild.standing import standing_in_server
from bot.discord.payload import NUMBER, Checked
from bot.i18n import t, terms
from bot.render import words
from bot.service import policy
from bot.service.history import FinishedGame, HistoryPage, game_history

SHOWN_NAMES = 8  # names on a game's line; the rest counted
COLOUR = 0x10B981


def game_line(g: FinishedGame, locale: str) -> str:
    winners = words.listing((terms.faction(w, locale) for w in g.winners), locale) or t("history.nobody", locale)
    names = [words.shown_name(n, locale) for n in g.players[:SHOWN_NAMES]]
    if len(g.players) > SHOWN_NAMES:
        names.append(t("history.more", locale, count=len(g.players) - SHOWN_NAMES))
    date = f"<t:{int(g.ended_at.timestamp())}:d>" if g.ended_at else "—"
    return t("history.line", locale, game=g.id, date=date, rounds=g.rounds, count=g.rounds, winners=winners, players=words.listing(names, locale))


def history_embed(page: HistoryPage, locale: str) -> discord.Embed:
    embed = discord.Embed(title=t("history.title", locale), colour=COLOUR)
    if not page.games:
        embed.description = t("history.empty", locale)
        return embed
    embed.description = "\n\n".join(game_line(g, locale) for g in page.games)[:4096]
    embed.set_footer(text=t("history.page", locale, page=page.page, pages=page.pages, count=page.total))
    return embed


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
            # A server's records are for its members (the access policy's see_board),
            # whatever server the button's id names.
            policy.require_board(await standing_in_server(ctx.bot, interaction, self.guild_id), self.guild_id)
            page = await game_history(ctx.bot.db, self.guild_id, self.page)
            view = history_view(self.guild_id, page, ctx.locale)
            await interaction.response.edit_message(embed=history_embed(page, ctx.locale), view=view)

        await guarded(interaction, run)


class History(commands.Cog):
    """The server's finished games: ``/game history``."""

    @command("game", "history")
    async def history(self, interaction: discord.Interaction) -> None:
        ctx = await Ctx.begin(interaction, idempotent=True)
        if interaction.guild_id is None:
            raise ReplyError("history.guild_only")
        page = await game_history(ctx.db, interaction.guild_id)
        view = history_view(interaction.guild_id, page, ctx.locale)
        await ctx.send(embed=history_embed(page, ctx.locale), view=view)

ITEMS: list[type[discord.ui.DynamicItem[Any]]] = [HistoryPageButton]
