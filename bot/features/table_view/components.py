"""The table as everyone at it knows it: ``/table`` and the Table button on a phase post
(custom id ``wh:table:<game>``). Each seat with its name as every post names it, in the
game or departed as announced, the phase and its deadline, and how many have sent (the
public reminder's count). Answered privately in the caller's language, to whoever can
see the game's channel or sits at it (the service's ``see_table``)."""

from __future__ import annotations

import re
from typing import Any

import discord

import engine
from bot.discord.context import Ctx
from bot.discord.errors import guarded
from bot.discord.payload import NUMBER, Checked
from bot.features.lobby.games import get_game
from bot.features.table_view.table import TableView, table_view
from bot.i18n import t
from bot.render import words
from bot.render.durations import format_duration
from bot.render.fields import add_lines
from bot.render.posts import PHASE_COLOUR
from bot.render.replies import INFO_COLOUR, deadline_line, names_of, phase_name


def table_embed(tv: TableView, locale: str) -> discord.Embed:
    """The public table: nothing here that the channel has not been told."""
    info = tv.game
    if info.round == 0:
        title = t("table.title_lobby", locale, game=info.id)
    else:
        title = t("table.title", locale, game=info.id, phase=phase_name(info.phase, locale), round=info.round)
    embed = discord.Embed(title=title, description=t(f"reply.status.{info.status}", locale), colour=PHASE_COLOUR.get(info.phase or "", INFO_COLOUR))
    names = names_of(info, locale)
    seated = [p for p in info.players if p.seat is not None]
    if seated:
        lines = [f"{words.seat_label(p.seat, names)} — {t('table.alive' if p.alive else 'table.departed', locale)}" for p in seated if p.seat is not None]
        living = sum(1 for p in seated if p.alive)
        add_lines(embed, t("table.seats", locale, living=living, count=len(seated)), lines)
    else:
        add_lines(embed, t("reply.players", locale, count=len(info.players)), [words.shown_name(p.name, locale) for p in info.players] or ["—"])
    if info.status == "paused":
        embed.add_field(name=t("reply.deadline", locale), value=t("table.paused", locale, left=format_duration(info.paused_remaining or 0, locale)), inline=False)
    elif info.status == "running":
        embed.add_field(name=t("reply.deadline", locale), value=deadline_line(info.deadline, locale), inline=False)
    if tv.sent is not None and info.phase in engine.PHASE_ORDER:
        command = t(f"reply.post.reminder_command_{info.phase}", locale)
        embed.add_field(name=t("reply.status.sent", locale, done=tv.sent, living=tv.living), value=t("table.sent", locale, sent=tv.sent, living=tv.living, command=command), inline=False)
    embed.set_footer(text=t("table.legend", locale))
    return embed


async def show_table(interaction: discord.Interaction, game_id: int | None = None) -> None:
    """The table of ``game_id`` (or, from ``/table``, of the game the command is about),
    privately to whoever asked."""
    ctx = await Ctx.begin(interaction, idempotent=True)
    info = await get_game(ctx.db, game_id) if game_id is not None else await ctx.game()
    tv = await table_view(ctx.db, info.id, await ctx.standing(info))
    await ctx.send(embed=table_embed(tv, ctx.locale))


class TableButton(Checked, discord.ui.DynamicItem[discord.ui.Button[Any]], template=rf"wh:table:(?P<game>{NUMBER})"):
    """On public phase posts and reminders: the table, to whoever pressed."""

    def __init__(self, game_id: int, locale: str = "en-US") -> None:
        super().__init__(discord.ui.Button(label=t("ui.table", locale), emoji="🪑", style=discord.ButtonStyle.secondary, custom_id=f"wh:table:{game_id}"))
        self.game_id = game_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]) -> TableButton:
        return cls(int(match["game"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, lambda: show_table(interaction, self.game_id))


ITEMS: list[type[discord.ui.DynamicItem[Any]]] = [TableButton]
