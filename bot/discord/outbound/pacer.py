"""Pacing the bot's REST requests under Discord's global rate limit (50 requests a second
per bot, https://discord.com/developers/docs/topics/rate-limits#global-rate-limit).

discord.py keeps each route's own bucket and waits out a 429, but it only learns of the
global limit from a 429, which also counts towards Discord's ban for invalid requests.
:class:`GlobalPacer` holds ``limit`` slots: a request takes one before it starts and
gives it back ``window`` seconds (plus a small ``margin``) after its answer came. A
request reaches Discord before its answer comes back, so any ``window`` seconds of
Discord's clock see at most ``limit`` of them, however late a request left or how long
it took on the way (a busy event loop, a slow network); at a few milliseconds a request
that is about ``limit`` a second. :func:`pace` puts it in front of every request of one
discord.py HTTP client. Interaction responses and their follow-ups (``/interactions``,
``/webhooks``) are not bound by the global limit and are never held back: a player's
answer does not wait behind a deadline's deliveries.

One pacer per process: a bot run as several processes divides the limit between them
(``rest_rate_limit``)."""

from __future__ import annotations

import asyncio
import time
from collections import deque
from collections.abc import Awaitable, Callable
from typing import Any

DISCORD_GLOBAL_LIMIT = 50
EXEMPT = ("/interactions/", "/webhooks/")


class GlobalPacer:
    """``limit`` slots, each held from a request's start until ``window + margin``
    seconds after its end; first come first served."""

    def __init__(
        self,
        limit: int = DISCORD_GLOBAL_LIMIT,
        window: float = 1.0,
        *,
        margin: float = 0.01,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[Any]] = asyncio.sleep,
    ) -> None:
        if limit < 1 or window <= 0 or margin < 0:
            raise ValueError("limit at least 1, window and margin positive")
        self.limit = limit
        self.span = window + margin
        self.clock = clock
        self.sleep = sleep
        self._busy = 0  # requests started and not yet answered
        self._cooling: deque[float] = deque()  # when the answered ones' slots free, in order
        self._answered = asyncio.Event()
        self._lock = asyncio.Lock()
        self.taken = 0  # requests let through, for the log and the benches
        self.waited = 0.0  # seconds spent waiting for a slot in all

    def _held(self) -> int:
        now = self.clock()
        while self._cooling and self._cooling[0] <= now:
            self._cooling.popleft()
        return self._busy + len(self._cooling)

    async def take(self) -> None:
        """Wait for a free slot and hold it (give it back with :meth:`done`)."""
        async with self._lock:
            while self._held() >= self.limit:
                if self._cooling:
                    wait = self._cooling[0] - self.clock()
                    self.waited += wait
                    await self.sleep(wait)
                else:  # every slot is a request still in flight: wait for an answer
                    self._answered.clear()
                    await self._answered.wait()
            self._busy += 1
            self.taken += 1

    def done(self) -> None:
        """The request holding a slot was answered (or failed): its slot frees in ``span``."""
        self._busy -= 1
        self._cooling.append(self.clock() + self.span)
        self._answered.set()


def exempt(path: str) -> bool:
    """Whether a route (discord.py's ``Route.path``) is outside the global limit."""
    return path.startswith(EXEMPT)


def pace(http: Any, pacer: GlobalPacer) -> None:
    """Have every request of discord.py's ``HTTPClient`` ``http`` hold a slot of
    ``pacer`` (the exempt routes aside). discord.py's own per-route handling stays."""
    original = http.request

    async def request(route: Any, **kwargs: Any) -> Any:
        if exempt(str(getattr(route, "path", ""))):
            return await original(route, **kwargs)
        await pacer.take()
        try:
            return await original(route, **kwargs)
        finally:
            pacer.done()

    http.request = request
