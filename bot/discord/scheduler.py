"""Phase deadlines and reminders, rebuilt from the database at every tick.

There are no in-memory timers: each tick asks the service to advance every game whose
deadline has passed and to send the reminders that are due (``service.run_due``, which
decides under each game's lock, so a restart or a second bot process changes nothing),
then sleeps until the next thing due (``service.next_wakeup``), never longer than
``max_sleep`` and never shorter than ``min_sleep``. A submission that completes a phase
with early advance on moves the deadline to now in the database and wakes the loop.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from datetime import datetime
from typing import Any

import bot.service as service
from bot.discord.background import BackgroundLoop

log = logging.getLogger("wolfhowl.discord.scheduler")


def sleep_for(now: datetime, wakeup: datetime | None, *, max_sleep: float, min_sleep: float = 0.5) -> float:
    """How long to sleep at ``now`` when the next thing is due at ``wakeup``."""
    if wakeup is None:
        return max_sleep
    seconds = (wakeup - now).total_seconds()
    return max(min_sleep, min(max_sleep, seconds))


class Scheduler(BackgroundLoop):
    def __init__(
        self,
        db: Any,
        *,
        on_work: Callable[[], None] = lambda: None,
        max_sleep: float = 30.0,
        min_sleep: float = 0.5,
    ) -> None:
        super().__init__()
        self.db = db
        self.on_work = on_work
        self.max_sleep = max_sleep
        self.min_sleep = min_sleep

    async def tick(self) -> Any:
        """Advance what is due and send the reminders due; returns the service's report."""
        report = await service.run_due(self.db)
        if report.advanced or report.reminded:
            for step in report.advanced:
                log.info("game %s: %s of round %s closed at its deadline", step.game_id, step.closed_phase, step.closed_round)
            self.on_work()
        return report

    async def delay(self) -> float:
        return sleep_for(self.db.now(), await service.next_wakeup(self.db), max_sleep=self.max_sleep, min_sleep=self.min_sleep)

    async def run_forever(self) -> None:
        """Tick, then pause until the next thing is due or a wake; ends after ``stop()``."""
        while self.running:
            try:
                await self.tick()
                delay = await self.delay()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("scheduler tick failed")
                delay = self.max_sleep
            await self.pause(delay)
