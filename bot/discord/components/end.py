"""The confirmation buttons of ``/mod end`` (custom ids ``wh:end:<game>`` and
``wh:cancel:<game>``): a running game ends scored, a lobby is cancelled."""

from __future__ import annotations

import re
from typing import Any

import discord

import bot.service as service
from bot.discord.components.lobby import close_lobby
from bot.discord.context import Ctx
from bot.discord.embeds.replies import notice_embed
from bot.discord.errors import ReplyError, guarded
from bot.discord.guild.checks import require_moderator
from bot.discord.guild.quiet_dead import sync_quiet_dead
from bot.discord.guild.quiet_notes import report_note, with_note
from bot.discord.payload import NUMBER, Checked
from bot.i18n import t


class EndButton(Checked, discord.ui.DynamicItem[discord.ui.Button[Any]], template=rf"wh:end:(?P<game>{NUMBER})"):
    """The confirmation of /mod end for a running or paused game: the game ends now,
    scored like a natural end. Checks the moderator again when pressed."""

    def __init__(self, game_id: int, locale: str = "en-US") -> None:
        super().__init__(discord.ui.Button(label=t("ui.end_confirm", locale), style=discord.ButtonStyle.danger, custom_id=f"wh:end:{game_id}"))
        self.game_id = game_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]) -> EndButton:
        return cls(int(match["game"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        async def run() -> None:
            ctx = await Ctx.begin(interaction)
            info = await service.get_game(ctx.db, self.game_id)
            await require_moderator(ctx.bot, interaction, info)
            await service.end_game(ctx.db, self.game_id)
            await _after_end(ctx, self.game_id, t("reply.ended", ctx.locale, game=self.game_id))

        await guarded(interaction, run)


class CancelButton(Checked, discord.ui.DynamicItem[discord.ui.Button[Any]], template=rf"wh:cancel:(?P<game>{NUMBER})"):
    """The confirmation of /mod end for a lobby: the game is cancelled, if it is still
    in the lobby (once started, /mod end must be confirmed again, as a scored end)."""

    def __init__(self, game_id: int, locale: str = "en-US") -> None:
        super().__init__(discord.ui.Button(label=t("ui.cancel_confirm", locale), style=discord.ButtonStyle.danger, custom_id=f"wh:cancel:{game_id}"))
        self.game_id = game_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]) -> CancelButton:
        return cls(int(match["game"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        async def run() -> None:
            ctx = await Ctx.begin(interaction)
            info = await service.get_game(ctx.db, self.game_id)
            await require_moderator(ctx.bot, interaction, info)
            if info.status in ("running", "paused"):
                raise ReplyError("reply.error.end_started", game=info.id)
            await service.cancel_game(ctx.db, self.game_id, "cancelled")
            await _after_end(ctx, self.game_id, t("reply.cancelled", ctx.locale, game=self.game_id))

        await guarded(interaction, run)


async def _after_end(ctx: Ctx, game_id: int, text: str) -> None:
    """The end is written (its posts go as it commits): close the lobby post, give the dead their
    voice back, and tell the moderator."""
    info = await service.get_game(ctx.db, game_id)
    await close_lobby(ctx.bot, info)
    note = report_note(await sync_quiet_dead(ctx.bot, info), ctx.locale)
    await ctx.send(embed=notice_embed(with_note(text, note)))


ITEMS: list[type[discord.ui.DynamicItem[Any]]] = [EndButton, CancelButton]
