"""The bot's heartbeat: while the gateway is connected, its row in the database is
renewed every ``HEARTBEAT_SECONDS`` (and at once on each connection; a sharded process
has a row of its own, named for its host and shards, and beats while all its shards are
connected), so that
``wolfhowl health`` can tell an operator, or Docker, whether the bot is connected."""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import datetime

from bot.db.session import Database
from bot.discord.background import BackgroundLoop
from bot.service.health import HEARTBEAT_SECONDS, beat

log = logging.getLogger("wolfhowl.discord.heartbeat")


class Heartbeat(BackgroundLoop):
    def __init__(
        self, db: Database, connected: Callable[[], bool], interval: float = HEARTBEAT_SECONDS, shards: str = ""
    ) -> None:
        super().__init__()
        self.db = db
        self.shards = shards  # what this process runs, when sharded ("0-1/4"): its row's name
        self.connected = connected
        self.interval = interval
        self.connected_since: datetime | None = None

    def on_connect(self) -> None:
        """A (re)connection: beat now."""
        self.connected_since = self.db.now()
        self.wake()

    async def run_forever(self) -> None:
        while self.running:
            if self.connected_since is not None and self.connected():
                try:
                    await beat(self.db, self.connected_since, shards=self.shards)
                except Exception:
                    log.warning("the heartbeat could not be recorded in the database", exc_info=True)
            await self.pause(self.interval)
