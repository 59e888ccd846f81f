"""Games whose channel is gone: the channel deleted (seen live or at the next start), or the
bot removed from the server.

Nothing could be posted there any more and nobody could see the game go on, so the game
is cancelled (no winner) and each seat holder and the moderator are told by DM, with the
seed (``service.cancel_game(..., channel_gone=True)``). A channel or server that is only
unavailable for a while (a Discord outage) is not gone: discord.py reports that as
another event, which is not handled here.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from typing import TYPE_CHECKING

from bot.core.errors import ServiceError
from bot.core.live_places import GamePlace
from bot.core.types import GameInfo
from bot.features.moderation.moderation import CHANNEL_GONE, cancel_game

if TYPE_CHECKING:
    from bot.discord.client import WolfBot

log = logging.getLogger("wolfhowl.discord.orphans")


async def cancel_orphaned(bot: WolfBot, games: Iterable[GameInfo | GamePlace]) -> list[int]:
    """Cancel these live games, whose channel is gone; the ids cancelled."""
    cancelled = []
    for info in games:
        try:
            await cancel_game(bot.db, info.id, CHANNEL_GONE, channel_gone=True)
        except ServiceError:  # it ended meanwhile
            continue
        log.info("game %s cancelled: channel %s or server %s is gone", info.id, info.channel_id, info.guild_id, extra={"game": info.id})
        cancelled.append(info.id)
    return cancelled
