"""Discord's side brought in line with the stored state.

Whatever a crash interrupted and however a message turned out to be delivered (sent
now, found already sent in the channel's history, routed to ``/inbox``), the Discord
side of a game is derived from the database alone, here: the departed muted and let into
the dead channel (and so the gallery's spectators: ``bot.features.gallery.gallery``), the living
able to write, a finished game's channel given back, the lobby post's player list. It runs after each delivery pass of the dispatcher (a loop of its own, woken), for the
games whose state changed since it last ran (``games.effects_due``, set by every change
of a game; one indexed read when nothing changed), a batch at a time, and after a start
for every live game (Discord may have changed while the bot was down), in the
background: the start-up only marks them, and a game unchanged since its last reconcile
is checked for what others may change (overwrites, channels), not for the bot's own
lobby post (see ``Reconciler.reconcile``). A member whose overwrites are already as they
should be costs no request (see :mod:`bot.discord.guild.quiet_dead`). A game with a channel post still to
go waits for it (see :mod:`bot.core.effects`).

Every step is idempotent (it sets what should be, whatever was), so running it twice, or
in two processes at once, does no harm."""

from __future__ import annotations

import asyncio
import logging
import time
from typing import TYPE_CHECKING

import discord

from bot import log_context
from bot.core.background import BackgroundLoop
from bot.core.effects import games_to_reconcile, mark_all_reconciled
from bot.core.errors import ServiceError
from bot.core.types import GameInfo
from bot.discord.bounded import BoundedDict
from bot.discord.guild import channel_access
from bot.discord.guild.quiet_dead import sync_quiet_dead
from bot.discord.guild.quiet_notes import tell_moderator
from bot.features.lobby.components import refresh_lobby
from bot.features.lobby.games import get_game

if TYPE_CHECKING:
    from bot.discord.client import WolfBot

log = logging.getLogger("wolfhowl.discord.reconciler")
# A game whose reconcile failed (Discord down, a bug) is tried again after this long, not
# at every pass.
RETRY_AFTER = 30.0
# Games reconciled per pass: a start-up's check of thousands of live games goes a batch at
# a time between deliveries, never all at once.
BATCH = 25
# The pause between two passes while games wait: short, so a start-up's check of every
# live game is spread over seconds, not over minutes of polls.
BUSY_GAP = 0.05


class Reconciler(BackgroundLoop):
    """Per bot: brings the games due in line; remembers the ones that just failed. Runs
    as a loop of its own, woken after each of the dispatcher's passes."""

    def __init__(self, bot: WolfBot, *, batch: int = BATCH) -> None:
        BackgroundLoop.__init__(self)
        self.bot = bot
        self.batch = batch
        self.failed: BoundedDict[int, float] = BoundedDict()  # game id -> when to try again (monotonic)
        self.done = 0  # games reconciled, for tests and the log
        self.more = False  # the last pass left games due (a full batch)
        # Games marked by the start-up check with no change of their own waiting (see
        # ``service.mark_rechecks``): checked for what others may have changed on Discord,
        # not for the bot's own lobby post. Each leaves once it is reconciled.
        self.rechecks: set[int] = set()

    async def run_forever(self, interval: float) -> None:
        """After each delivery pass (or every ``interval`` seconds): the posts held for a
        right given back are made due (:meth:`given_back`), then the games due are
        reconciled, a batch at a time (the next batch after ``BUSY_GAP`` while more wait);
        ends after ``stop()``, once the batch in hand is done."""
        while self.running:
            try:
                await self.given_back()
                await self.run_once()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("reconciling Discord after a dispatcher pass failed")
            await self.pause(min(interval, BUSY_GAP) if self.more else interval)

    async def given_back(self) -> int:
        """The channels that refused a post where the bot may post again now (the right
        came back while the post was in flight) have their held posts made due at once
        (``channel_access``); the number made due. Not one whose cache let the bot post
        when Discord refused it: nothing says the right is back."""
        ids = self.bot.access.take()
        channels = [c for c in map(self.bot.get_channel, ids) if isinstance(c, discord.abc.GuildChannel)]
        return await channel_access.retry_channels(self.bot, channels) if channels else 0

    async def run_once(self) -> int:
        """Reconcile up to ``batch`` games due whose server this process holds; how many
        were. ``more`` says whether others wait. Their marks are cleared together at the
        end of the pass (one short write), also when the pass stops half-way."""
        now = time.monotonic()
        waiting = [g for g, at in self.failed.items() if at > now]
        due = await games_to_reconcile(self.bot.db, limit=self.batch, skip=waiting)
        self.more = len(due) == self.batch
        reconciled: list[tuple[int, int]] = []
        try:
            for game_id, changes in due:
                with log_context.about(game=game_id):  # the lines of its reconciling name it
                    try:
                        info = await get_game(self.bot.db, game_id)
                    except ServiceError:
                        self.rechecks.discard(game_id)
                        continue
                    if not self.holds(info):
                        # Another process's server: its own reconciler clears the mark. Not asked
                        # again for a while, so such games never crowd this one's out of a batch.
                        self.failed[game_id] = now + RETRY_AFTER
                        continue
                    try:
                        # Still 1: nothing changed since the start-up check marked it.
                        await self.reconcile(info, recheck=changes == 1 and game_id in self.rechecks)
                    except Exception:
                        log.warning("could not bring Discord in line with game %s; again in %.0f s", game_id, RETRY_AFTER, exc_info=True)
                        self.failed[game_id] = now + RETRY_AFTER
                        continue
                    self.failed.pop(game_id, None)
                    reconciled.append((game_id, changes))
        finally:
            await mark_all_reconciled(self.bot.db, reconciled)
            for game_id, _ in reconciled:
                self.rechecks.discard(game_id)
            self.done += len(reconciled)
        return len(reconciled)

    def holds(self, info: GameInfo) -> bool:
        """Whether this process is the one to reconcile ``info``: it sees the game's server
        (its shard is this process's). A server the bot has left (held here, yet not in
        the cache) holds nothing to reconcile: true there too, so the mark is cleared."""
        if info.guild_id is not None and self.bot.get_guild(info.guild_id) is not None:
            return True
        return self.bot.holds_guild(info.guild_id)

    async def reconcile(self, info: GameInfo, *, recheck: bool = False) -> None:
        """Discord's side of ``info`` as its state says. ``recheck``: the game has not
        changed since it was last reconciled (the start-up check): the closed lobby post
        of a started game, the bot's own message, is as that reconcile left it, and
        finding it again would read the channel's history (a request per game, at every
        start, for every game still in its first phase). A practice game has nothing on
        Discord's side to bring in line (no lobby post, no server to mute anyone in)."""
        if info.guild_id is None:
            return
        guild = self.bot.get_guild(info.guild_id)
        if guild is None:
            return
        channel = guild.get_channel(info.channel_id)
        if not isinstance(channel, discord.TextChannel):
            return  # gone: the game is cancelled (bot.discord.loops.orphans), nothing to show
        if info.status == "lobby" or (info.version <= 1 and not recheck):
            # The lobby post: its roster and odds, closed once the game has started or ended.
            await refresh_lobby(self.bot, channel, info.id)
            self.bot.odds.ensure(info)
        if info.version >= 1:  # started: seats, and perhaps the departed
            await tell_moderator(self.bot, info, await sync_quiet_dead(self.bot, info))
