"""The gallery's menu of predictions for one round (custom id ``wh:predict:<game>:<round>``):
posted by the outbox with the round's Day (``PredictionsOpened``), it stores the pick of
whoever uses it through the service, which decides who may and until when (the round's
Dusk). Nothing is kept on the message, so the menu works after a restart."""

from __future__ import annotations

import re
from typing import Any

import discord

from bot.core.messages import PredictionsOpened
from bot.core.outbox import OutgoingMessage
from bot.core.types import GameInfo
from bot.discord.context import Ctx
from bot.discord.errors import guarded
from bot.discord.payload import NUMBER, Checked
from bot.features.gallery.predictions import FACTION_NAMES, predict
from bot.i18n import t
from bot.render.outgoing import RENDERERS
from bot.render.replies import notice_embed

FACTION_EMOJI = {"lawful": "🛡️", "neutral": "⚖️", "chaotic": "🔥"}


class PredictSelect(Checked, discord.ui.DynamicItem[discord.ui.Select[Any]], template=rf"wh:predict:(?P<game>{NUMBER}):(?P<round>{NUMBER})"):
    def __init__(self, game_id: int, round_no: int, locale: str = "en-US") -> None:
        options = [
            discord.SelectOption(label=t("predictions.option", locale, faction=t(f"faction.{f}", locale)), value=f, emoji=FACTION_EMOJI[f])
            for f in FACTION_NAMES
        ]
        super().__init__(
            discord.ui.Select(
                custom_id=f"wh:predict:{game_id}:{round_no}", placeholder=t("predictions.placeholder", locale), options=options,
                min_values=1, max_values=1,
            )
        )  # fmt: skip
        self.game_id = game_id
        self.round_no = round_no

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]) -> PredictSelect:
        return cls(int(match["game"]), int(match["round"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        async def run() -> None:
            ctx = await Ctx.begin(interaction)
            picked = self.item.values[0] if self.item.values else ""
            done = await predict(ctx.db, self.game_id, ctx.user.id, picked, round_no=self.round_no)
            loc = ctx.locale
            faction = t(f"faction.{done.faction}", loc)
            if done.replaced is not None and done.replaced != done.faction:
                text = t("predictions.changed", loc, round=done.round, game=done.game_id, faction=faction, before=t(f"faction.{done.replaced}", loc))
            else:
                text = t("predictions.stored", loc, round=done.round, game=done.game_id, faction=faction)
            await ctx.send(embed=notice_embed(text))

        await guarded(interaction, run)


def predict_view(game_id: int, round_no: int, locale: str) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(PredictSelect(game_id, round_no, locale))
    return view


ITEMS: list[type[discord.ui.DynamicItem[Any]]] = [PredictSelect]


def _predict_controls(m: PredictionsOpened, msg: OutgoingMessage, info: GameInfo | None, loc: str) -> discord.ui.View | None:
    return predict_view(msg.game_id, m.round, loc) if msg.game_id else None


RENDERERS.add_controls(PredictionsOpened, _predict_controls)
