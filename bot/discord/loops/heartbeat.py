"""The bot's heartbeat: this process's row in ``processes`` (bot.core.processes),
registered at start-up and renewed every ``HEARTBEAT`` seconds while the bot runs, and at
once on each connection to Discord. Each beat says whether the gateway is connected (a
sharded process: all its shards), so one row tells the other processes that this one
still holds its outbox leases and tells ``wolfhowl health`` whether the bot is connected.

The row is marked over by a process that registers under the same name, which is a
misconfiguration (two processes under one name): this one then goes on under a name of
its own. At a clean stop the row is marked stopped and what it held is due at once."""

from __future__ import annotations

import contextlib
import logging
import os
import time
from collections.abc import Callable
from datetime import datetime

from bot.core import processes
from bot.core.background import BackgroundLoop
from bot.db.session import Database

log = logging.getLogger("wolfhowl.discord.heartbeat")


class Heartbeat(BackgroundLoop):
    def __init__(
        self,
        db: Database,
        connected: Callable[[], bool],
        *,
        name: str,
        shards: str = "",
        on_registered: Callable[[int], None] = lambda process_id: None,
        interval: float = processes.HEARTBEAT,
    ) -> None:
        super().__init__()
        self.db = db
        self.name = name  # this process's name (config.process_name, else host and shards)
        self.shards = shards  # what this process runs, when sharded ("0-1/4")
        self.connected = connected
        self.on_registered = on_registered  # told each id this process takes (the dispatcher's lease holder)
        self.interval = interval
        self.connected_since: datetime | None = None
        # When a beat was last recorded (time.monotonic; until the first: when this
        # started), for the metrics' heartbeat age.
        self.last_beat = time.monotonic()
        # This process's row, once registered; None again once stopped (or, for a
        # simulated crash, dropped so that nothing more is said).
        self.process_id: int | None = None

    async def register(self, name: str | None = None) -> None:
        """Say who this process is: what a process of the same name held before (a
        crash) is free at once, and what it leases from now on names this one."""
        self.process_id = await processes.register(self.db, name or self.name, shards=self.shards)
        self.last_beat = time.monotonic()
        self.on_registered(self.process_id)

    def on_connect(self) -> None:
        """A (re)connection: beat now."""
        self.connected_since = self.db.now()
        self.wake()

    async def run_forever(self) -> None:
        while self.running:
            if self.process_id is not None:
                try:
                    await self.beat(self.process_id)
                except Exception:  # the database away for a while: the next beat tries again
                    log.warning("the heartbeat could not be recorded in the database", exc_info=True)
            await self.pause(self.interval)

    async def beat(self, process_id: int) -> None:
        connected = self.connected_since if self.connected() else None
        if not await processes.heartbeat(self.db, process_id, connected):
            name = f"{self.name}:{os.getpid()}"
            log.error("another process runs under this one's name; going on as %s", name)
            await self.register(name)
        else:
            self.last_beat = time.monotonic()

    async def stopped(self) -> None:
        """The bot closes (after :meth:`stop` and the loop's end): its row says so, and
        what it still holds is due at once; should that fail, the heartbeat going stale
        frees it too."""
        if self.process_id is None:
            return
        process_id, self.process_id = self.process_id, None
        with contextlib.suppress(Exception):
            await processes.stopped(self.db, process_id)
