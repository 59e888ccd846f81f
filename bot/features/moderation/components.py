"""The confirmation button of ``/mod end``, carrying the command it confirms: a running
game ends scored (``wh:end:<game>``, ``EndGame``), a lobby is cancelled
(``wh:cancel:<game>``, ``CancelGame``). Both ids are those of the buttons posted before,
so a button already in Discord still works."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import discord

from bot.discord.context import Ctx
from bot.discord.errors import guarded
from bot.discord.guild.quiet_dead import sync_quiet_dead
from bot.discord.guild.quiet_notes import report_note, with_note
from bot.discord.payload import NUMBER, Checked
from bot.features.lobby.components import close_lobby
from bot.features.lobby.games import get_game
from bot.features.moderation.commands import CancelGame, EndGame
from bot.i18n import t
from bot.render.replies import notice_embed

Confirmed = EndGame | CancelGame


@dataclass(frozen=True)
class Confirmation:
    """What a button confirming one kind of command shows: the word of its custom id,
    and its catalogue keys (the question asked, the button's label, the reply once done)."""

    word: str
    question: str
    label: str
    done: str


CONFIRMATIONS: dict[type[Confirmed], Confirmation] = {
    EndGame: Confirmation("end", "reply.end_confirm", "ui.end_confirm", "reply.ended"),
    CancelGame: Confirmation("cancel", "reply.cancel_confirm", "ui.cancel_confirm", "reply.cancelled"),
}
BY_WORD = {c.word: cls for cls, c in CONFIRMATIONS.items()}


def confirm_key(command: Confirmed) -> str:
    """The question ``command``'s button answers."""
    return CONFIRMATIONS[type(command)].question


class ConfirmButton(Checked, discord.ui.DynamicItem[discord.ui.Button[Any]], template=rf"wh:(?P<word>end|cancel):(?P<game>{NUMBER})"):
    """Runs the command it carries through ``service.moderate`` when pressed, so the
    moderator is checked again then: a lobby's cancel once started is refused (``/mod
    end`` must be confirmed again, as a scored end)."""

    def __init__(self, command: Confirmed, locale: str = "en-US") -> None:
        shown = CONFIRMATIONS[type(command)]
        custom_id = f"wh:{shown.word}:{command.game_id}"
        super().__init__(discord.ui.Button(label=t(shown.label, locale), style=discord.ButtonStyle.danger, custom_id=custom_id))
        self.command = command

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]) -> ConfirmButton:
        return cls(BY_WORD[match["word"]](game_id=int(match["game"])))

    async def callback(self, interaction: discord.Interaction) -> None:
        async def run() -> None:
            ctx = await Ctx.begin(interaction)
            game_id = self.command.game_id
            assert game_id is not None  # (a confirmation names its game)
            await ctx.moderate(self.command)
            await _after_end(ctx, game_id, t(CONFIRMATIONS[type(self.command)].done, ctx.locale, game=game_id))

        await guarded(interaction, run)


async def _after_end(ctx: Ctx, game_id: int, text: str) -> None:
    """The end is written (its posts go as it commits): close the lobby post, give the dead their
    voice back, and tell the moderator."""
    info = await get_game(ctx.db, game_id)
    await close_lobby(ctx.bot, info)
    note = report_note(await sync_quiet_dead(ctx.bot, info), ctx.locale)
    await ctx.send(embed=notice_embed(with_note(text, note)))


ITEMS: list[type[discord.ui.DynamicItem[Any]]] = [ConfirmButton]
