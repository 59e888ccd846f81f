"""The bot: a ``commands.Bot`` with non-privileged intents only, the command tree with
the one error handler and the translator, the persistent components, and two background
tasks (the phase scheduler and the outbox dispatcher), woken by the database's signals
after each commit that wrote messages or moved a deadline (``bot.db.signals``): no
handler wakes them. Posts held for want of a right in a game channel go as soon as the
gateway shows it given back (``channel_access``)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from typing import Any

import discord
from discord.ext import commands
from sqlalchemy.exc import SQLAlchemyError

from bot import features, log_context, metrics
from bot.core import processes
from bot.core.dispatch import Dispatcher
from bot.core.effects import mark_rechecks
from bot.core.live_places import GamePlace, live_game_places
from bot.core.types import GameInfo
from bot.db import migrate
from bot.db.session import Database
from bot.db.signals import DEADLINES, MESSAGES
from bot.db.where import describe, moved, problem
from bot.discord import command_sync, metering, payload
from bot.discord.answering import Answering
from bot.discord.bounded import BoundedDict
from bot.discord.config import DiscordConfig
from bot.discord.context import TableCache, ViewCache
from bot.discord.features import discover
from bot.discord.guild import channel_access
from bot.discord.guild.quiet_dead import QuietReport, dead_channel_deleted
from bot.discord.guild.quiet_return import ReturnWatch
from bot.discord.loops.dispatcher import DiscordSender
from bot.discord.loops.heartbeat import Heartbeat
from bot.discord.loops.orphans import cancel_orphaned
from bot.discord.loops.reconciler import Reconciler
from bot.discord.loops.scheduler import Scheduler
from bot.discord.metrics_server import MetricsServer
from bot.discord.outbound.pacer import GlobalPacer, pace
from bot.discord.shards import event_shard, shard_of
from bot.discord.translator import CatalogueTranslator
from bot.discord.tree import install
from bot.discord.turns import Turns
from bot.discord.wolf_tree import WolfTree
from bot.features.lineup.runner import OddsRunner
from bot.features.lobby.components import close_lobby_post
from bot.features.lobby.games import game_in_channel
from bot.features.play.components import grail_form_submitted
from bot.features.stats.privacy import forget_leftovers

log = logging.getLogger("wolfhowl.discord")
# How long a shutdown waits for a scheduler tick or a delivery batch in flight to finish
# (docker stop allows 10 s before it kills).
STOP_GRACE = 5.0


def intents() -> discord.Intents:
    """The events the bot uses and no others: servers (their channels, roles and
    overwrites), and messages in channels and DMs (a departed player writing in a game
    channel: ``quiet_return``). None of the privileged three (members, presences, message
    content): every input arrives as an interaction. Each event Discord sends is work
    for the process holding its shard, and the default set adds many the bot never
    reads (someone typing, a reaction, a voice state, an invite, an emoji…)."""
    return discord.Intents(guilds=True, guild_messages=True, dm_messages=True)


class WolfBot(commands.Bot):
    """The bot. With a shard setting (``shard_count``), ``WolfBot(config)`` is a
    :class:`ShardedWolfBot`: the same bot on discord.py's sharded client."""

    def __new__(cls, config: DiscordConfig, *args: Any, **kwargs: Any) -> WolfBot:
        if cls is WolfBot and config.sharded:
            cls = ShardedWolfBot
        return super().__new__(cls)

    def __init__(self, config: DiscordConfig, *, db: Database | None = None, run_tasks: bool = True, **options: Any) -> None:
        features.load()  # every feature's handlers, before the service is used
        options.setdefault("intents", intents())
        options.setdefault("tree_cls", WolfTree)
        options.setdefault("help_command", None)
        options.setdefault("allowed_mentions", discord.AllowedMentions.none())
        options.setdefault("guild_ready_timeout", config.guild_ready_timeout)
        if config.metrics_port is not None:  # every response from Discord counted (bot.discord.metering)
            options.setdefault("http_trace", metering.rest_trace())
        # The bot never joins voice: discord.py's start-up warnings about the missing voice
        # libraries would only worry an operator reading the log.
        discord.VoiceClient.warn_nacl = False
        discord.VoiceClient.warn_dave = False
        super().__init__(command_prefix=commands.when_mentioned, **options)
        self.config = config
        self.db = db or Database(config.database_url)
        self.run_tasks = run_tasks
        self.tables = TableCache()
        self.views = ViewCache()
        self.odds = OddsRunner(self, config.lineup_odds_games)  # lobbies' line-up odds, simulated aside
        self.reconciler = Reconciler(self)  # Discord's side brought in line with the database
        self.lobby_turns = Turns()  # one refresh of a game's lobby post at a time
        # Every REST request but the interactions' waits its turn under the global limit.
        self.pacer = GlobalPacer(config.rest_rate_limit)
        pace(self.http, self.pacer)
        self.dispatcher = Dispatcher(
            self.db, DiscordSender(self), batch=200, after_pass=self.reconciler.wake, concurrency=config.dispatch_concurrency,
        )  # fmt: skip
        self.scheduler = Scheduler(
            self.db, on_work=self.wake_dispatcher, on_lobby=self.lobby_closed, max_sleep=config.scheduler_max_sleep
        )
        self.heartbeat = Heartbeat(
            self.db, self.gateway_open, name=self.process_name(), shards=config.shards_label(), on_registered=self.holding
        )
        self._tasks: list[asyncio.Task[None]] = []
        self._unlisten: list[Callable[[], None]] = []
        self.answering = Answering()  # the interactions being answered (a stop waits for them)
        # Per game, what the moderator was last told quiet dead could not do (so a DM
        # after each announcement does not repeat it).
        self.quiet_told: BoundedDict[int, QuietReport] = BoundedDict()
        self._resynced = False
        self.stop_grace = STOP_GRACE
        # Users whose language is recorded as their client's (context.note_locale).
        self.locales_noted: dict[int, str] = {}
        self.returns = ReturnWatch()  # departed players back in the server (quiet_return)
        self.component_items: list[type[discord.ui.DynamicItem[Any]]] = []  # (setup_hook)
        self.access = channel_access.AccessWatch()  # game channels that refused a post
        self.db_revision = ""  # the database's schema revision, once checked (setup_hook)
        self.metrics_server: MetricsServer | None = None  # /metrics, when metrics_port is set

    def wake_dispatcher(self) -> None:
        """For tools and tests that change what is due without a commit (a test clock
        moved, another process's work); the bot's own writes wake it by their commit."""
        self.dispatcher.wake()

    def wake_scheduler(self) -> None:
        """As :meth:`wake_dispatcher`, for the scheduler."""
        self.scheduler.wake()

    async def lobby_closed(self, game_id: int) -> None:
        await close_lobby_post(self, game_id)

    async def setup_hook(self) -> None:
        await self.check_database()
        if self.is_closed():  # stopped while migrating: connect no further
            return
        await self.tree.set_translator(CatalogueTranslator())
        install(self.tree)
        self.component_items = list(discover().items)
        self.add_dynamic_items(*self.component_items)
        if self.config.metrics_port is not None:
            await self.start_metrics()
        if self.config.sync_commands:
            await command_sync.register(self)
        if self.run_tasks:
            await self.heartbeat.register()
            self.start_tasks()

    async def start_metrics(self) -> None:
        """Record the metrics and serve them at ``metrics_host:metrics_port/metrics``."""
        recording = metrics.enable()
        commands = [c.qualified_name for c in self.tree.walk_commands() if not isinstance(c, discord.app_commands.Group)]
        recording.known(commands)
        server = MetricsServer(self, recording, self.config.metrics_host, int(self.config.metrics_port or 0))
        server.collector.db_revision = self.db_revision
        try:
            await server.start()
        except BaseException:
            metrics.disable(recording)
            raise
        self.metrics_server = server

    async def on_app_command_completion(self, interaction: discord.Interaction, command: Any) -> None:
        metering.finished(interaction, "answered")

    def holding(self, process_id: int) -> None:
        """The leases taken from now on name this process's row (bot.discord.loops.heartbeat)."""
        self.dispatcher.holder = process_id

    def process_name(self) -> str:
        """This process's name in the database: as configured, else its host and shards."""
        return self.config.process_name or processes.default_name(self.config.shards_label())

    def holds_guild(self, guild_id: int | None) -> bool:
        """Whether Discord sends this server's events to this process: always, unsharded;
        sharded, when the server's shard is one of this process's. A server held here but
        missing from the cache has removed the bot; one held elsewhere is reached by REST."""
        count = self.shard_count
        if not count or count == 1:
            return True
        ids: list[int] | None = getattr(self, "shard_ids", None)  # the sharded client's
        return ids is None or shard_of(guild_id, count) in ids

    def messageable(self, channel_id: int, guild_id: int | None) -> discord.abc.Messageable | None:
        """A game's channel to post in or read: from the cache, or, for a server on
        another process's shard, a partial channel reached by REST (no gateway needed)."""
        channel = self.get_channel(channel_id)
        if channel is None and not self.holds_guild(guild_id):
            return self.get_partial_messageable(channel_id, guild_id=guild_id)
        return channel if isinstance(channel, discord.abc.Messageable) else None

    async def check_database(self) -> None:
        """Migrate (unless told not to) and log which database this is and its revision;
        any failure to reach it is a DatabaseProblem naming it (not a Discord one)."""
        where = describe(self.db.url)
        try:
            if self.config.migrate_on_start:
                before, after = await migrate.upgrade(self.db.url)
                self.db_revision = after or ""
                log.info("database: %s", moved(where, before, after))
            else:
                rev, head = await migrate.current(self.db.url), migrate.head_revision()
                self.db_revision = rev or ""
                log.info("database: %s at %s%s", where, rev or "empty", "" if rev == head else f" (head is {head}: run `wolfhowl db upgrade`)")
        except (OSError, SQLAlchemyError, ValueError) as exc:
            raise problem(self.db.url, exc) from exc
        if self.config.migrate_on_start and (finished := await forget_leftovers(self.db)):
            log.info("privacy: finished forgetting %d seat(s) of games that ended before forgetting reached the games", finished)

    def start_tasks(self) -> None:
        signals = self.db.signals
        self._unlisten = [signals.listen(MESSAGES, self.dispatcher.wake), signals.listen(DEADLINES, self.scheduler.wake)]
        self._tasks = [
            asyncio.create_task(self.scheduler.run_forever(), name="wolfhowl-scheduler"),
            asyncio.create_task(self.dispatcher.run_forever(self.config.dispatch_interval), name="wolfhowl-dispatcher"),
            asyncio.create_task(self.reconciler.run_forever(self.config.dispatch_interval), name="wolfhowl-reconciler"),
            asyncio.create_task(self.heartbeat.run_forever(), name="wolfhowl-heartbeat"),
        ]

    def gateway_open(self) -> bool:
        """Connected to Discord's gateway now (ready, and the socket not closed)."""
        ws = self.ws
        return self.is_ready() and not self.is_closed() and ws is not None and ws.open

    async def on_ready(self) -> None:
        # Sharded, READY comes through one shard's connection but is about the whole
        # process (and so are the tasks started from here): its lines name no shard.
        log_context.set_context(shard=None)
        shards = f" as shards {self.config.shards_label()}" if self.config.sharded else ""
        log.info("connected as %s (%s) to %d servers%s", self.user, getattr(self.user, "id", "?"), len(self.guilds), shards)
        self.heartbeat.on_connect()
        if not self._resynced:
            self._resynced = True
            self._tasks.append(asyncio.create_task(self.resync(), name="wolfhowl-resync"))
            if self.config.sync_commands:
                self._tasks.append(asyncio.create_task(command_sync.remove_server_copies(self), name="wolfhowl-command-copies"))

    async def on_message(self, message: discord.Message) -> None:
        await self.returns.message(self, message)
        await self.process_commands(message)  # what commands.Bot does by default

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        # Commands, buttons and menus are routed by discord.py; forms by their custom id.
        # What discord.py drops without a word (a component no item takes) is refused.
        if not await grail_form_submitted(interaction):
            await payload.unclaimed_component(self.component_items, interaction)

    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        info = await game_in_channel(self.db, channel.id)  # one indexed read
        if info is not None:
            await cancel_orphaned(self, [info])
        else:
            await dead_channel_deleted(self, channel)

    async def on_guild_channel_update(self, before: discord.abc.GuildChannel, after: discord.abc.GuildChannel) -> None:
        await channel_access.channel_updated(self, before, after)

    async def on_guild_role_update(self, before: discord.Role, after: discord.Role) -> None:
        await channel_access.role_updated(self, after)

    async def on_member_update(self, before: discord.Member, after: discord.Member) -> None:
        # (Discord sends the bot its own member's updates without the members intent.)
        await channel_access.member_updated(self, after)

    async def on_guild_remove(self, guild: discord.Guild) -> None:
        await cancel_orphaned(self, await live_game_places(self.db, guild.id))

    async def resync(self) -> None:
        """After a (re)start, catch up with what happened while the bot was down: cancel
        the games whose channel was deleted or whose server removed the bot meanwhile
        (from their places alone, one read of three columns), then have the reconciler
        check the Discord side of every live game of the servers this process holds (a
        death announced while the bot was down, an end it did not see, an overwrite
        changed meanwhile; sharded, the other processes check theirs). That is one
        UPDATE here; the reconciler works through the games a batch at a time after the
        dispatcher's passes, in the background, so the start does not wait for it and
        no pass reads every live game's state. A game with a post still to go is
        reconciled once that post is out (the reconciler waits for it): silencing the
        night's dead before the dawn post names them would announce the deaths early."""
        try:
            places = await live_game_places(self.db)
            await cancel_orphaned(self, [p for p in places if self.channel_gone(p)])
            held = [p.id for p in places if p.guild_id is None or self.get_guild(p.guild_id) is not None]
            for start in range(0, len(held), 500):  # (a statement's parameters are limited)
                self.reconciler.rechecks.update(await mark_rechecks(self.db, held[start : start + 500]))
        except Exception:
            log.warning("the start-up check of the live games failed", exc_info=True)

    def channel_gone(self, info: GameInfo | GamePlace) -> bool:
        """Once ready: the bot is no longer in the game's server, or the server is here
        and whole and the channel is not in it. READY lists every server the bot is in,
        those in an outage as unavailable, so a server missing from it has removed the
        bot; an unavailable one proves nothing. A practice game's DM is never gone."""
        if info.guild_id is None:
            return False
        guild = self.get_guild(info.guild_id)
        if guild is None:
            return self.holds_guild(info.guild_id)  # a sharded process sees only its own servers
        return not guild.unavailable and guild.get_channel(info.channel_id) is None

    async def close(self) -> None:
        """Stop the background loops between two passes (cancelling only what is still
        busy after ``stop_grace`` seconds), let the interactions in hand be answered
        (within the same grace), close the gateway, then the database."""
        loop = asyncio.get_running_loop()
        until = loop.time() + self.stop_grace
        for unlisten in self._unlisten:
            unlisten()
        self._unlisten = []
        self.scheduler.stop()
        self.dispatcher.stop()
        self.reconciler.stop()
        self.heartbeat.stop()
        if self._tasks:
            _, busy = await asyncio.wait(self._tasks, timeout=self.stop_grace)
            for task in busy:
                if self.stop_grace:
                    log.warning("%s still busy after %.0f s: cancelled", task.get_name(), self.stop_grace)
                task.cancel()
            for task in self._tasks:
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
        self._tasks = []
        await self.odds.close()
        await self.heartbeat.stopped()
        unanswered = await self.answering.settle(max(0.0, until - loop.time()))
        if unanswered and self.stop_grace:
            log.warning("%d interactions still unanswered after %.0f s: closing", unanswered, self.stop_grace)
        await super().close()
        if self.metrics_server is not None:
            server, self.metrics_server = self.metrics_server, None
            await server.stop()
            metrics.disable(server.recording)
        await self.db.dispose()


class ShardedWolfBot(WolfBot, commands.AutoShardedBot):
    """The bot on discord.py's sharded client: the shards of ``shard_ids`` (all when
    empty) out of ``shard_count`` (Discord's recommendation when "auto"), each its own
    gateway connection in this one process."""

    def __init__(self, config: DiscordConfig, **kwargs: Any) -> None:
        if config.shard_count != "auto":
            kwargs.setdefault("shard_count", config.shard_count)
        if config.shard_ids:
            kwargs.setdefault("shard_ids", sorted(config.shard_ids))
        super().__init__(config, **kwargs)

    def gateway_open(self) -> bool:
        """Every shard of this process connected (ready, and its socket open)."""
        if not self.is_ready() or self.is_closed() or not self.shards:
            return False
        return all(not shard.is_closed() for shard in self.shards.values())

    def dispatch(self, event: str, /, *args: Any, **kwargs: Any) -> None:
        """discord.py's dispatch, naming in the log's context (``bot.log_context``) the
        shard the event came through, known from the event itself (``shards.event_shard``:
        its server's shard, a DM's 0, a shard event's own): each handler runs in a task of
        its own that inherits the context as it is here, so the lines of whatever the
        gateway brings (an interaction, a channel deleted, an event replayed after a
        resume) name its shard. The dispatching task's own context is left as it was."""
        shard = event_shard(event, args, self.shard_count or 1)
        if shard is None:
            super().dispatch(event, *args, **kwargs)
            return
        with log_context.about(shard=shard):
            super().dispatch(event, *args, **kwargs)
