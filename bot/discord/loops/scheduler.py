"""Phase deadlines and reminders, rebuilt from the database at every tick.

There are no in-memory timers: each pass reads when the next thing is due
(``service.next_wakeup``, one statement). When that time has come, it ticks: it asks the
service to advance every game whose deadline has passed and to send the reminders that
are due (``service.run_due``, which decides under each game's lock, so a restart or a
second bot process changes nothing), and starts (or cancels) the lobbies whose start
time has come. Then it sleeps until the next thing due, never longer than ``max_sleep``
and never shorter than ``min_sleep``: an idle pass costs one statement however many
games are live. A unit of work that moves what it sleeps on (a submission that completes
a phase with early advance on moves the deadline to now, an extension, a start time, a
seat offered) wakes the loop once it commits (``bot.db.signals``; a wake during a tick
brings another at once). The due games are found through the indexes on (status, time),
never by reading every live game. Each game closed wakes the dispatcher as its commit
writes its messages, so a deadline many games share is delivered while the later ones
close.

A game whose advance or reminder fails (logged, rolled back) is retried after 1 s, then
2 s, 4 s … up to ``max_sleep``; the other games go on meanwhile. The wait is kept in
memory: a restart tries every game again at once.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from datetime import datetime, timedelta
from typing import Any

from bot import log_context, metrics
from bot.core.background import BackgroundLoop
from bot.core.deadlines import next_wakeup, run_due
from bot.features.ai_seats.turns import plan_missing as plan_missing_ai_turns

log = logging.getLogger("wolfhowl.discord.scheduler")


def sleep_for(now: datetime, wakeup: datetime | None, *, max_sleep: float, min_sleep: float = 0.5) -> float:
    """How long to sleep at ``now`` when the next thing is due at ``wakeup``."""
    if wakeup is None:
        return max_sleep
    seconds = (wakeup - now).total_seconds()
    return max(min_sleep, min(max_sleep, seconds))


class Backoff:
    """When each failing game may be tried again: 1 s after its first failure, twice as
    long after each further one, never more than ``cap`` seconds."""

    def __init__(self, cap: float) -> None:
        self.cap = cap
        self._failures: dict[int, int] = {}
        self._retry_at: dict[int, datetime] = {}

    def held(self, now: datetime) -> frozenset[int]:
        """The games whose retry is not yet due."""
        return frozenset(g for g, at in self._retry_at.items() if at > now)

    def next_retry(self) -> datetime | None:
        return min(self._retry_at.values(), default=None)

    def record(self, now: datetime, failed: list[int]) -> None:
        """After a tick at ``now``: the ``failed`` games wait longer; a game whose retry
        was due and that did not fail again (it advanced, or is no longer due) is
        forgotten."""
        for game_id, at in list(self._retry_at.items()):
            if at <= now and game_id not in failed:
                del self._retry_at[game_id], self._failures[game_id]
        for game_id in dict.fromkeys(failed):
            n = self._failures.get(game_id, 0) + 1
            self._failures[game_id] = n
            self._retry_at[game_id] = now + timedelta(seconds=min(self.cap, 2.0 ** (n - 1)))


class Scheduler(BackgroundLoop):
    def __init__(
        self,
        db: Any,
        *,
        on_work: Callable[[], None] = lambda: None,
        on_lobby: Callable[[int], Awaitable[None]] | None = None,
        max_sleep: float = 30.0,
        min_sleep: float = 0.5,
    ) -> None:
        super().__init__()
        self.db = db
        self.on_work = on_work
        self.on_lobby = on_lobby
        self.max_sleep = max_sleep
        self.min_sleep = min_sleep
        self.backoff = Backoff(max_sleep)

    async def tick(self) -> Any:
        """Advance what is due and send the reminders due, failing games only when their
        retry is due; returns the service's report."""
        now = self.db.now()
        held = self.backoff.held(now)
        report = await run_due(self.db, held)
        self.backoff.record(now, report.failed)
        for step in report.advanced:
            log.info(
                "game %s: %s of round %s closed at its deadline", step.game_id, step.closed_phase, step.closed_round,
                extra={"game": step.game_id},
            )
        # Messages wake the dispatcher as they commit; these may change Discord's side
        # alone, which the reconciler after the dispatcher's pass brings in line.
        lobbies = report.done.get("lobbies", [])
        if lobbies or report.done.get("offers_closed") or report.done.get("ai_played"):
            self.on_work()
        for game_id in lobbies:
            log.info("game %s: its lobby's start time came", game_id, extra={"game": game_id})
            if self.on_lobby is not None:
                with log_context.about(game=game_id):
                    try:
                        await self.on_lobby(game_id)
                    except Exception:  # the lobby post is best effort; the game has started
                        log.warning("could not close the lobby post of game %s", game_id, exc_info=True)
        return report

    async def next_due(self, now: datetime) -> datetime | None:
        """When the next thing is due: the database's next time (the failing games whose
        retry is not yet due left out) or the next retry, whichever comes first."""
        wakeup = await next_wakeup(self.db, self.backoff.held(now))
        retry = self.backoff.next_retry()
        if retry is not None and (wakeup is None or retry < wakeup):
            wakeup = retry
        return wakeup

    async def delay(self) -> float:
        now = self.db.now()
        return sleep_for(now, await self.next_due(now), max_sleep=self.max_sleep, min_sleep=self.min_sleep)

    async def step(self) -> float:
        """One pass: tick when something is due, then how long to pause. A pass with
        nothing due is one statement (``next_due``), not a tick's several."""
        now = self.db.now()
        wakeup = await self.next_due(now)
        if wakeup is not None and wakeup <= now:
            await self.tick()
            now = self.db.now()
            wakeup = await self.next_due(now)
        m = metrics.current
        if m is not None:
            m.scheduler_pass.set_to_current_time()
        return sleep_for(now, wakeup, max_sleep=self.max_sleep, min_sleep=self.min_sleep)

    async def run_forever(self) -> None:
        """A pass (``step``), then pause until the next thing is due or a wake; ends after ``stop()``.
        First, once, the AI turns an older version left unplanned (``plan_missing_ai_turns``:
        every phase opened since plans its own)."""
        try:
            await plan_missing_ai_turns(self.db)
        except asyncio.CancelledError:
            raise
        except Exception:  # the turns wait for the next start; the deadlines do not
            log.exception("planning the AI turns left unplanned failed")
        while self.running:
            try:
                delay = await self.step()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("scheduler tick failed")
                delay = self.max_sleep
            await self.pause(delay)
