"""A departed player writing in the game channel where the dead stay quiet.

Without the members intent the bot never sees anyone leave the server or come back. A
player who left before their departure (a death, a removal) was not muted then (the
bot mutes members of the server only) and comes back with their voice. Their first
message in the game channel shows it: the mutes are synced then. The message itself
stays (the bot cannot read it, nor needs to delete it). The sync itself is the
reconciler's (bot.discord.loops.reconciler), which waits for the post naming the departure."""

from __future__ import annotations

import logging
import time
from typing import TYPE_CHECKING

import discord

from bot.core.effects import mark_effects_due
from bot.discord.bounded import BoundedDict
from bot.discord.guild.quiet_dead import departed_ids
from bot.features.lobby.games import game_in_channel

if TYPE_CHECKING:
    from bot.discord.client import WolfBot

log = logging.getLogger("wolfhowl.discord")
# How long a channel's departed are remembered (one read per channel at most this often),
# and how soon the same person writing again may trigger another sync.
REMEMBER = 30.0
AGAIN_AFTER = 60.0


class ReturnWatch:
    """Per bot: each game channel's departed, as last read, and the syncs just made."""

    def __init__(self) -> None:
        self.departed: dict[int, tuple[float, int, frozenset[int]]] = {}  # channel -> (read at, game, user ids)
        self.synced: BoundedDict[tuple[int, int], float] = BoundedDict()

    async def message(self, bot: WolfBot, message: discord.Message) -> None:
        if message.guild is None or message.author.bot or message.webhook_id is not None:
            return
        now = time.monotonic()
        channel_id, user_id = message.channel.id, message.author.id
        hit = self.departed.get(channel_id)
        if hit is None or now - hit[0] > REMEMBER:
            info = await game_in_channel(bot.db, channel_id)
            gone = departed_ids(info) if info else frozenset()
            hit = (now, info.id if info else 0, gone)
            self.departed[channel_id] = hit
            if len(self.departed) > 5000:
                self.departed.clear()
        _, game_id, gone = hit
        if user_id not in gone or now - self.synced.get((channel_id, user_id), -AGAIN_AFTER) < AGAIN_AFTER:
            return
        self.synced[(channel_id, user_id)] = now
        try:  # the reconciler syncs, once the post announcing the departure is out
            await mark_effects_due(bot.db, [game_id])
        except Exception:
            log.warning("quiet dead: could not have game %s synced after a departed player wrote", game_id, exc_info=True)
