"""Pacing the bot's REST requests under Discord's global rate limit (50 requests a second
per bot, https://discord.com/developers/docs/topics/rate-limits#global-rate-limit).

discord.py keeps each route's own bucket and waits out a 429, but it only learns of the
global limit from a 429, which also counts towards Discord's ban for invalid requests.
:class:`GlobalPacer` lets at most ``limit`` requests start in any ``window`` seconds,
plus a small ``margin`` for requests that reach Discord in another order than they
left; :func:`pace` puts it in front of every request of one discord.py HTTP client.
Interaction responses and their follow-ups (``/interactions``, ``/webhooks``) are not
bound by the global limit and are never held back: a player's answer does not wait
behind a deadline's deliveries.

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
    """At most ``limit`` starts in any ``window + margin`` seconds, first come first served."""

    def __init__(
        self,
        limit: int = DISCORD_GLOBAL_LIMIT,
        window: float = 1.0,
        *,
        margin: float = 0.05,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[Any]] = asyncio.sleep,
    ) -> None:
        if limit < 1 or window <= 0 or margin < 0:
            raise ValueError("limit at least 1, window and margin positive")
        self.limit = limit
        self.span = window + margin
        self.clock = clock
        self.sleep = sleep
        self._starts: deque[float] = deque(maxlen=limit)
        self._lock = asyncio.Lock()
        self.taken = 0  # requests let through, for the log and the benches
        self.waited = 0.0  # seconds spent waiting in all

    async def take(self) -> None:
        """Wait until one more request may start, and count it as started."""
        async with self._lock:
            while len(self._starts) == self.limit:
                wait = self._starts[0] + self.span - self.clock()
                if wait <= 0:
                    break
                self.waited += wait
                await self.sleep(wait)
            self._starts.append(self.clock())
            self.taken += 1


def exempt(path: str) -> bool:
    """Whether a route (discord.py's ``Route.path``) is outside the global limit."""
    return path.startswith(EXEMPT)


def pace(http: Any, pacer: GlobalPacer) -> None:
    """Have every request of discord.py's ``HTTPClient`` ``http`` wait for ``pacer``
    (the exempt routes aside). discord.py's own per-route handling stays as it is."""
    original = http.request

    async def request(route: Any, **kwargs: Any) -> Any:
        if not exempt(str(getattr(route, "path", ""))):
            await pacer.take()
        return await original(route, **kwargs)

    http.request = request
