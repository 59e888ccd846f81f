"""The Replay button under a finished game's end post (custom id ``wh:replay:<game>``).

Pressed, it answers the one who pressed with the game's replay page as a file, rendered
then from the stored log: nothing is kept on the post, so the post stays light, a
replay is always the current renderer's, and the button works after a restart. The
page tells every secret of the game; the service refuses it while the game is live."""

from __future__ import annotations

import asyncio
import io
import re
from typing import Any

import discord

from bot.core.messages import Ending, StepEvents
from bot.core.outbox import OutgoingMessage
from bot.core.types import GameInfo
from bot.discord.context import Ctx
from bot.discord.errors import guarded
from bot.discord.payload import NUMBER, Checked
from bot.features.lobby.games import get_game
from bot.features.replay.export import replay_for
from bot.features.replay.look import replay_html
from bot.i18n import t
from bot.render.outgoing import RENDERERS, private
from bot.render.replies import notice_embed


class ReplayButton(Checked, discord.ui.DynamicItem[discord.ui.Button[Any]], template=rf"wh:replay:(?P<game>{NUMBER})"):
    def __init__(self, game_id: int, locale: str = "en-US") -> None:
        super().__init__(
            discord.ui.Button(label=t("replay.button", locale), emoji="📼", style=discord.ButtonStyle.secondary, custom_id=f"wh:replay:{game_id}")
        )
        self.game_id = game_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]) -> ReplayButton:
        return cls(int(match["game"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, lambda: send_replay(interaction, self.game_id))


def replay_view(game_id: int, locale: str) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(ReplayButton(game_id, locale))
    return view


async def send_replay(interaction: discord.Interaction, game_id: int) -> None:
    """The replay of ``game_id`` to whoever asked, privately, in the game's language."""
    ctx = await Ctx.begin(interaction)
    game = await get_game(ctx.db, game_id)
    log = await replay_for(ctx.db, game.id, await ctx.standing(game))
    # A page of a long game takes a moment to write: off the event loop.
    page = await asyncio.to_thread(replay_html, log)
    file = discord.File(io.BytesIO(page.encode()), filename=f"wolfhowl-game-{game_id}.html")
    await ctx.send(embed=notice_embed(t("replay.sent", ctx.locale, game=game_id)), file=file)


ITEMS: list[type[discord.ui.DynamicItem[Any]]] = [ReplayButton]


def _last_post_controls(m: StepEvents, msg: OutgoingMessage, info: GameInfo | None, loc: str) -> discord.ui.View | None:
    """The channel's post of the step that ended the game carries the Replay button."""
    if private(msg) or not msg.game_id or not any(e.kind == "GameEnded" for e in m.events):
        return None
    return replay_view(msg.game_id, loc)


def _ending_controls(m: Ending, msg: OutgoingMessage, info: GameInfo | None, loc: str) -> discord.ui.View | None:
    return replay_view(msg.game_id, loc) if msg.game_id else None


RENDERERS.add_controls(StepEvents, _last_post_controls)
RENDERERS.add_controls(Ending, _ending_controls)
