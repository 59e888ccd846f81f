"""The table for scripted games: the local Discord, the real bot and a server full of
people, in one process.

:class:`Tavern` starts the emulator, builds a server (an owner, a moderator with Manage
Server, the players, a ``#tavern`` channel), points discord.py at the emulator and runs
the unmodified :class:`bot.discord.client.WolfBot` on a database (a temporary SQLite file
unless told otherwise). The bot can be stopped and started again on the same database
(:meth:`Tavern.restart_bot`), as after a crash or a deploy.

:class:`GameClock` is the clock the bot's service reads: real time, optionally running
``speed`` times faster, so phases of a minute pass in a few seconds.

:class:`MessageIndex` files the emulator's messages by channel as they arrive, so that
hundreds of scripted players can each follow their own DMs cheaply.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import hashlib
import itertools
import logging
import shutil
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from types import SimpleNamespace
from typing import Any, TypeVar
from unittest import mock

from discord_emulator import Channel, Emulator, Guild, Message, User
from discord_emulator import permissions as perm
from discord_emulator.ready import start_until_ready

log = logging.getLogger("wolfhowl.sandbox.table")
T = TypeVar("T")

# Names that are not a class, faction or trait in either language (the leak checks look
# for those words in the public channel).
EN_NAMES = (
    "alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi", "ivan", "judy",
    "mallory", "niaj", "olivia", "peggy", "quentin", "rupert", "sybil", "trent", "uma", "victor",
)  # fmt: skip
ZH_NAMES = ("阿明", "小红", "老王", "阿杰", "小兰", "大伟", "阿秀", "小虎", "阿芳", "小龙")


class GameClock:
    """Aware UTC "now" for the bot's service: real time times ``speed``, plus whatever
    :meth:`skip` added. Deadlines of minutes pass in seconds at ``speed`` 20."""

    def __init__(self, speed: float = 1.0, start: datetime | None = None) -> None:
        self.speed = speed
        self.start = start or datetime.now(UTC)
        self._t0 = time.monotonic()
        self._skipped = 0.0
        self._skips: list[tuple[datetime, float]] = []

    def __call__(self) -> datetime:
        return self.start + timedelta(
            seconds=(time.monotonic() - self._t0) * self.speed + self._skipped
        )

    def skip(self, seconds: float) -> datetime:
        self._skipped += seconds
        self._skips.append((datetime.now(UTC), seconds))
        return self()

    def at(self, real: datetime) -> datetime:
        """What this clock read at the real moment ``real`` (a message's timestamp)."""
        skipped = sum(s for when, s in self._skips if when <= real)
        return self.start + (real - self.start) * self.speed + timedelta(seconds=skipped)


def _opened_connections(db: Any) -> list[Any]:
    """Every driver connection ``db`` opens from now on (for :func:`_as_if_dead`)."""
    from sqlalchemy import event

    opened: list[Any] = []
    event.listen(db.engine.sync_engine, "connect", lambda dbapi_connection, _record: opened.append(dbapi_connection))
    return opened


async def _as_if_dead(connections: list[Any]) -> None:
    """Close ``connections`` as the end of their process would, the database rolling back
    whatever they had begun, then free whatever the dead bot left unreachable. Needed in
    one process: a task cancelled inside a transaction, or while opening a connection,
    can leave a connection open (on SQLite with the write lock, which no new process
    could then take) in a reference cycle that only the garbage collector frees."""
    for adapted in connections:
        driver = adapted.driver_connection  # aiosqlite's or asyncpg's connection
        with contextlib.suppress(Exception):
            if hasattr(driver, "terminate"):  # asyncpg: the socket dropped
                driver.terminate()
            else:
                await asyncio.wait_for(driver.close(), 30)
    gc.collect()


@contextlib.contextmanager
def seeded_games(seed: str | None) -> Iterator[None]:
    """Make the secret seeds the bot draws for new games reproducible: game ``n`` created
    in this block gets a seed derived from ``seed`` and ``n``. The bot draws its seeds with
    ``secrets.token_hex`` in ``bot.features.lobby.games``; that module's ``secrets`` is replaced
    here (only there, only in this block). Without ``seed`` nothing changes."""
    if seed is None:
        yield
        return
    import bot.features.lobby.games as games

    counter = itertools.count(1)

    def token_hex(nbytes: int = 32) -> str:
        return hashlib.sha256(f"wolfhowl-demo|{seed}|{next(counter)}".encode()).hexdigest()[
            : 2 * nbytes
        ]

    if getattr(games, "secrets", None) is None:
        log.warning("bot.features.lobby.games draws no seed with `secrets`: games are not reproducible")
        yield
        return
    with mock.patch.object(games, "secrets", SimpleNamespace(token_hex=token_hex)):
        yield


class Watcher:
    """Many waits, one waiter: every emulator event wakes each task waiting on the
    emulator's notifier, so hundreds of scripted people each waiting for their own
    answer would cost hundreds of task switches per event. Here one task sweeps all the
    pending conditions on each event and completes the futures whose condition holds."""

    def __init__(self, emu: Emulator) -> None:
        self.emu = emu
        self._waits: list[tuple[Callable[[], Any], asyncio.Future[Any]]] = []
        self._task: asyncio.Task[None] | None = None

    async def until(
        self, predicate: Callable[[], T | None], timeout: float, what: str = "condition"
    ) -> T:
        """The first truthy value of ``predicate`` (checked at every emulator event, and
        every quarter second); TimeoutError after ``timeout`` seconds."""
        value = predicate()
        if value:
            return value
        fut: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._waits.append((predicate, fut))
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._run(), name="sandbox-watcher")
        try:
            return await asyncio.wait_for(asyncio.shield(fut), timeout)
        except TimeoutError:
            fut.cancel()
            raise TimeoutError(f"timed out after {timeout}s waiting for {what}") from None

    def _sweep(self) -> bool:
        keep = []
        for predicate, fut in self._waits:
            if fut.done():
                continue
            try:
                value = predicate()
            except Exception as exc:
                fut.set_exception(exc)
                continue
            if value:
                fut.set_result(value)
            else:
                keep.append((predicate, fut))
        self._waits = keep
        return not keep

    async def _run(self) -> None:
        while self._waits:
            with contextlib.suppress(TimeoutError):
                await self.emu.ctx.notifier.wait_for(
                    self._sweep, 3600.0, what="the watcher", poll=0.25
                )


class MessageIndex:
    """The emulator's recorded messages filed by channel, updated incrementally (each
    recorder event is looked at once, however many readers wait)."""

    def __init__(self, emu: Emulator, watcher: Watcher | None = None) -> None:
        self.emu = emu
        self.watcher = watcher or Watcher(emu)
        self._cursor = 0
        self.by_channel: dict[int, list[Message]] = defaultdict(list)

    def update(self) -> None:
        events = self.emu.ctx.recorder.events
        if self._cursor == len(events):
            return
        for ev in events[self._cursor :]:
            if ev.kind == "create":
                self.by_channel[ev.message.channel_id].append(ev.message)
        self._cursor = len(events)

    def channel(self, channel_id: int) -> list[Message]:
        self.update()
        return self.by_channel[channel_id]

    async def wait(self, predicate: Callable[[], T | None], timeout: float, what: str) -> T:
        def check() -> T | None:
            self.update()
            return predicate()

        return await self.watcher.until(check, timeout, what)


class Cursor:
    """One reader's place in one channel: :meth:`new` returns what arrived since."""

    def __init__(
        self, index: MessageIndex, channel_id: int, accept: Callable[[Message], bool]
    ) -> None:
        self.index = index
        self.channel_id = channel_id
        self.accept = accept
        self.pos = 0

    def new(self) -> list[Message]:
        msgs = self.index.channel(self.channel_id)
        out = [m for m in msgs[self.pos :] if self.accept(m)]
        self.pos = len(msgs)
        return out


@dataclass
class TableSpec:
    """Who sits at the table: ``players`` people, every ``zh_every``-th speaking zh-CN
    (or, with ``language``, every one speaking that language), the players at
    ``closed_dms`` (0-based) with their DMs closed to the bot."""

    players: int = 15
    zh_every: int = 3
    closed_dms: Sequence[int] = ()
    guild_locale: str = "en-US"
    name_prefix: str = ""
    language: str | None = None

    def people(self) -> list[tuple[str, str, bool]]:
        out = []
        en, zh = iter(EN_NAMES), iter(ZH_NAMES)
        for i in range(self.players):
            if self.language is not None:
                locale = self.language
            else:
                locale = "zh-CN" if self.zh_every > 0 and i % self.zh_every == self.zh_every - 1 else "en-US"
            name = next(zh, None) if locale.startswith("zh") else next(en, None)
            if name is None:
                name = f"player{i + 1}"
            out.append((self.name_prefix + name, locale, i in self.closed_dms))
        return out


@dataclass
class Seating:
    """One game's place: a channel, its moderator and its players (Discord accounts)."""

    guild: Guild
    channel: Channel
    moderator: User
    players: list[User] = field(default_factory=list)


class Tavern:
    """The emulator, the real bot and one server; use as ``async with Tavern() as t``.

    ``database_url``: where the bot keeps its games (default: a temporary SQLite file,
    deleted at the end). ``clock``: what the service reads the time from.
    ``bot_options``: extra :class:`bot.discord.config.DiscordConfig` fields."""

    def __init__(
        self,
        *,
        database_url: str | None = None,
        clock: Callable[[], datetime] | None = None,
        seed: str | None = None,
        emulator_options: dict[str, Any] | None = None,
        bot_options: dict[str, Any] | None = None,
        guild_locale: str = "en-US",
    ) -> None:
        self._tmp: Path | None = None
        if database_url is None:
            self._tmp = Path(tempfile.mkdtemp(prefix="wolfhowl-demo-"))
            database_url = f"sqlite+aiosqlite:///{self._tmp / 'wolfhowl.sqlite3'}"
        self.database_url = database_url
        self.clock = clock
        self.seed = seed
        self.emu = Emulator(**({"heartbeat_interval": 5.0} | (emulator_options or {})))
        self.bot_options = bot_options or {}
        self.guild_locale = guild_locale
        self.bot: Any = None
        self.db: Any = None
        self._task: asyncio.Task[None] | None = None
        self._connections: list[Any] = []
        self._stack = contextlib.ExitStack()
        self.watcher = Watcher(self.emu)
        self.index = MessageIndex(self.emu, self.watcher)
        self.guild: Guild | None = None
        self.owner: User | None = None
        self.moderators: Any = None
        self.starts = 0

    # -- lifecycle -----------------------------------------------------------------
    async def __aenter__(self) -> Tavern:
        await self.emu.start()
        self._stack.enter_context(self.emu.patch_discord())
        self._stack.enter_context(seeded_games(self.seed))
        self.owner = self.emu.create_user("owner")
        self.guild = self.emu.create_guild(
            "Wolf Howl Tavern", owner=self.owner, channels=("general",), locale=self.guild_locale
        )
        self.moderators = self.emu.create_role(
            self.guild, "Game Master", permissions=perm.MANAGE_GUILD
        )
        await self.start_bot()
        return self

    async def __aexit__(self, *exc: object) -> None:
        try:
            await self.stop_bot()
        finally:
            self._stack.close()
            await self.emu.stop()
            if self._tmp is not None:
                shutil.rmtree(self._tmp, ignore_errors=True)

    def config(self) -> Any:
        from bot.discord.config import DiscordConfig

        options: dict[str, Any] = {
            "database_url": self.database_url,
            "token": self.emu.token,
            "migrate_on_start": True,
            "scheduler_max_sleep": 0.25,
            "dispatch_interval": 1.0,
            "log_level": "WARNING",
            # No lobby odds unless asked for: each would play a thousand games aside.
            "lineup_odds_games": 0,
            # The local Discord sends every GUILD_CREATE right after READY: no need to
            # wait discord.py's 2 s for a late one.
            "guild_ready_timeout": 0.5,
        }
        options.update(self.bot_options)
        return DiscordConfig(**options)

    async def start_bot(self, timeout: float = 60.0) -> None:
        """Start a fresh bot process's worth of objects (client, database handle)."""
        from bot.db.session import Database
        from bot.discord.client import WolfBot

        assert self.bot is None, "the bot is already running"
        self.db = (
            Database(self.database_url, clock=self.clock)
            if self.clock
            else Database(self.database_url)
        )
        self._connections = _opened_connections(self.db)
        self.bot = WolfBot(self.config(), db=self.db)
        self._task = await start_until_ready(self.bot, self.emu.token, timeout)
        self.starts += 1

    async def stop_bot(self, *, crash: bool = False) -> None:
        """Stop the bot as a deploy would: its scheduler and dispatcher finish the pass in
        hand, then the gateway and the database close. With ``crash`` it dies instead:
        both are cancelled wherever they are, so messages it had claimed stay leased to
        it and a new process must take them over once the lease runs out; its database
        connections are closed as a dying process's are, whatever they were doing."""
        if self.bot is None:
            return
        bot, task, connections = self.bot, self._task, self._connections
        self.bot, self._task, self.db = None, None, None
        if crash:
            bot.stop_grace = 0
            bot.heartbeat.process_id = None  # a dying process tells the database nothing
        # A task cancelled inside a database read leaves a connection whose reset
        # SQLAlchemy then logs as an error: expected of a crash, so keep the log quiet.
        pool_log = logging.getLogger("sqlalchemy.pool")
        level = pool_log.level
        if crash:
            pool_log.setLevel(logging.CRITICAL)
        try:
            await bot.close()
            if task is not None:
                with contextlib.suppress(Exception, asyncio.CancelledError):
                    await asyncio.wait_for(task, 10)
            if crash:
                await _as_if_dead(connections)
                # What the dead process had sent, Discord has answered long before another
                # process takes over its leases (a restart takes seconds): in one process
                # the emulator may still be handling it, so let it finish first.
                with contextlib.suppress(TimeoutError):
                    await self.emu.wait_for(lambda: self.emu.ctx.recorder.in_flight == 0 or None, 10, "the dead bot's requests answered")
            await asyncio.sleep(0)
        finally:
            pool_log.setLevel(level)

    async def restart_bot(self) -> None:
        await self.stop_bot()
        await self.start_bot()

    # -- the world -----------------------------------------------------------------
    def seat_table(self, spec: TableSpec, channel_name: str = "tavern") -> Seating:
        """A new channel with a moderator and ``spec.players`` members."""
        assert self.guild is not None
        channel = self.emu.create_text_channel(self.guild, channel_name)
        mod = self.emu.create_user(
            f"{spec.name_prefix}gm" if spec.name_prefix else f"gm-{channel_name}"
        )
        self.emu.add_member(self.guild, mod)
        self.emu.give_role(self.guild, mod, self.moderators)
        seating = Seating(self.guild, channel, mod)
        for name, locale, closed in spec.people():
            user = self.emu.create_user(name, locale=locale, dms_closed=closed)
            self.emu.add_member(self.guild, user)
            self.emu.dm_channel(user)
            seating.players.append(user)
        return seating

    def public(self, channel: Channel | int) -> list[Message]:
        """The channel as anyone sees it: no ephemeral replies."""
        cid = channel if isinstance(channel, int) else channel.id
        return [m for m in self.index.channel(cid) if not m.ephemeral and not m.deleted]

    def dms(self, user: User) -> list[Message]:
        """What the bot sent ``user`` by DM on its own (not replies to their commands)."""
        channel = self.emu.ctx.world.dm_channels.get(user.id)
        if channel is None:
            return []
        return [
            m
            for m in self.index.channel(channel.id)
            if m.interaction_id is None and m.author.bot and not m.deleted
        ]

    async def news_delivered(self, timeout: float = 5.0) -> None:
        """Wait, at most ``timeout``, until the bot has delivered what it has to deliver
        now, as people read their messages before they act: a scripted player who acted
        on a phase's post before its own news of the step had arrived would choose from
        less than it was told, and the same seed would not play the same game. Nothing
        when the bot is down, and no error on the timeout (a test of an outage)."""
        if self.bot is None:
            return
        with contextlib.suppress(TimeoutError):
            await self.drained(timeout)

    async def drained(self, timeout: float = 30.0) -> None:
        """Wait until the bot's outbox has nothing left to deliver now, and Discord's side
        of every game is in line with it (the reconciler has run)."""
        from bot.core.effects import games_to_reconcile
        from bot.core.outbox import pending_count

        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while True:
            assert self.bot is not None
            self.bot.wake_dispatcher()
            if await pending_count(self.db) == 0 and not await games_to_reconcile(self.db):
                return
            if loop.time() > end:
                raise TimeoutError("the outbox did not drain")
            await asyncio.sleep(0.05)
