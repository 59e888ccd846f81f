"""The background simulation of a lobby's line-up: started when a lobby's line-up or
size changes (and, after a restart, when the reconciler finds a lobby without its
odds), run in a worker process so that the event loop, and every interaction's
acknowledgement, goes on meanwhile. The result is stored (bot.core.lineup_odds) and
the lobbies waiting for it are marked for the reconciler, which edits their posts.

One simulation per key at a time in this process; a key already stored is never
simulated again."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import multiprocessing.pool
from typing import Any, Protocol

from bot.ai.odds import estimate
from bot.core.effects import mark_effects_due
from bot.core.lineup_odds import store_odds
from bot.core.lineup_odds import stored_keys as stored_odds_keys
from bot.core.types import GameInfo, LineupOdds
from bot.db.session import Database

log = logging.getLogger("wolfhowl.discord.lineup_odds")


class HasDatabase(Protocol):
    """What the runner needs of its owner (the bot's client): its database."""

    @property
    def db(self) -> Database: ...


class OddsRunner:
    """Per bot: the simulations under way, by key, and the lobbies waiting for each."""

    def __init__(self, bot: HasDatabase, games: int) -> None:
        self.bot = bot
        self.games = games
        self.running: dict[str, asyncio.Task[None]] = {}
        self.waiting: dict[str, set[int]] = {}
        self.finished: list[str] = []  # keys stored by this process, in order (tests, log)
        self._pool: multiprocessing.pool.Pool | None = None

    def pool(self) -> multiprocessing.pool.Pool:
        if self._pool is None:
            # A fresh interpreter for the worker: forking a process with a running event
            # loop and threads would copy their locks mid-flight.
            self._pool = multiprocessing.get_context("spawn").Pool(1)
        return self._pool

    async def _estimate(self, odds: LineupOdds) -> dict[str, Any]:
        """``estimate`` in the worker process, awaited here."""
        loop = asyncio.get_running_loop()
        done: asyncio.Future[dict[str, Any]] = loop.create_future()

        def resolve(result: dict[str, Any]) -> None:
            if not done.done():  # not given up meanwhile (a stop)
                done.set_result(result)

        def fail(error: BaseException) -> None:
            if not done.done():
                done.set_exception(error)

        self.pool().apply_async(
            estimate, (odds.players, odds.rules, self.games),
            callback=lambda result: loop.call_soon_threadsafe(resolve, result),
            error_callback=lambda error: loop.call_soon_threadsafe(fail, error),
        )  # fmt: skip
        return await done

    def ensure(self, info: GameInfo) -> asyncio.Task[None] | None:
        """Have ``info``'s odds estimated unless they are known or under way; the task
        doing it (None when nothing is to do). Returns at once."""
        odds = info.odds
        if not self.games or odds is None or odds.known or info.status != "lobby":
            return None
        self.waiting.setdefault(odds.key, set()).add(info.id)
        task = self.running.get(odds.key)
        if task is None:
            task = asyncio.get_running_loop().create_task(self._run(odds), name=f"wolfhowl-odds-{info.id}")
            self.running[odds.key] = task
        return task

    async def _run(self, odds: LineupOdds) -> None:
        try:
            if odds.key not in await stored_odds_keys(self.bot.db, [odds.key]):
                result = await self._estimate(odds)
                self.finished.append(odds.key)
            else:
                result = None
            waiting = sorted(self.waiting.pop(odds.key, set()))
            if result is not None:
                await store_odds(self.bot.db, odds, result, waiting)
            else:
                await mark_effects_due(self.bot.db, waiting)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.warning("could not estimate the odds of %s", odds.key, exc_info=True)
        finally:
            self.running.pop(odds.key, None)

    async def close(self) -> None:
        """Stop: simulations under way are dropped (the next start does them again)."""
        for task in list(self.running.values()):
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        if self._pool is not None:
            # A simulation under way would run on to its end: its worker is stopped
            # (terminate waits for it to exit, off the event loop).
            pool, self._pool = self._pool, None
            await asyncio.to_thread(pool.terminate)
