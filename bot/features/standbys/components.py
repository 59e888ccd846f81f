"""The Accept button of a seat offered to a standby (custom id ``wh:offer:<offer>``):
the offer is read from the database when it is pressed, so a button on an old DM keeps
working after a restart, and one whose offer has expired or been taken is refused."""

from __future__ import annotations

import re
from typing import Any

import discord

from bot.core.messages import SeatOffered
from bot.core.outbox import OutgoingMessage
from bot.core.types import GameInfo
from bot.discord.context import Ctx
from bot.discord.errors import guarded
from bot.discord.payload import NUMBER, Checked
from bot.features.lobby.games import get_game
from bot.features.standbys.standbys import accept_offer, offered_game
from bot.i18n import t
from bot.render.outgoing import RENDERERS
from bot.render.replies import notice_embed


class AcceptOfferButton(Checked, discord.ui.DynamicItem[discord.ui.Button[Any]], template=rf"wh:offer:(?P<offer>{NUMBER})"):
    def __init__(self, offer_id: int, locale: str = "en-US") -> None:
        super().__init__(
            discord.ui.Button(label=t("absence.accept", locale), emoji="🪑", style=discord.ButtonStyle.success, custom_id=f"wh:offer:{offer_id}")
        )
        self.offer_id = offer_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]) -> AcceptOfferButton:
        return cls(int(match["offer"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        async def run() -> None:
            ctx = await Ctx.begin(interaction)
            game = await offered_game(ctx.db, self.offer_id)
            result = await accept_offer(ctx.db, self.offer_id, ctx.user, await ctx.standing(game))
            info = await get_game(ctx.db, result.game_id)
            seat = next((p.seat for p in info.players if p.user_id == ctx.user.id), None)
            await ctx.send(embed=notice_embed(t("absence.accepted", ctx.locale, seat=seat, game=result.game_id)))

        await guarded(interaction, run)


def offer_view(offer_id: int, locale: str) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(AcceptOfferButton(offer_id, locale))
    return view


ITEMS: list[type[discord.ui.DynamicItem[Any]]] = [AcceptOfferButton]


def _offer_controls(m: SeatOffered, msg: OutgoingMessage, info: GameInfo | None, loc: str) -> discord.ui.View | None:
    return offer_view(m.offer, loc)


RENDERERS.add_controls(SeatOffered, _offer_controls)
