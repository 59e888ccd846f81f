"""Event-driven waiting and a controllable clock.

Tests must never sleep-and-hope.  Every state change in the emulator (a
message stored, an interaction answered, the clock advanced) calls
:meth:`Notifier.notify`; waiters re-check their predicate only then.  The
:class:`Clock` drives Discord's deadlines (3 s to answer an interaction, 15
minutes of token validity); tests can jump it forward instead of waiting.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


class Notifier:
    """Wakes every pending waiter when anything observable changes."""

    def __init__(self) -> None:
        self._waiters: set[asyncio.Future[None]] = set()

    def notify(self) -> None:
        for fut in self._waiters:
            if not fut.done():
                fut.set_result(None)
        self._waiters.clear()

    async def wait_for(
        self,
        predicate: Callable[[], T | None],
        timeout: float,
        *,
        what: str = "condition",
        poll: float | None = None,
    ) -> T:
        """Returns the first truthy value of ``predicate``; it may raise to abort.

        The predicate is re-checked on every notification.  ``poll`` adds a
        periodic re-check for predicates over state the emulator cannot see
        change (e.g. the bot's own cache).  Raises ``TimeoutError`` mentioning
        ``what`` if ``timeout`` seconds pass.
        """
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while True:
            result = predicate()
            if result:
                return result
            remaining = end - loop.time()
            if remaining <= 0:
                raise TimeoutError(f"timed out after {timeout}s waiting for {what}")
            fut: asyncio.Future[None] = loop.create_future()
            self._waiters.add(fut)
            try:
                await asyncio.wait({fut}, timeout=min(remaining, poll) if poll else remaining)
            finally:
                self._waiters.discard(fut)

    def wake_at(self, delay: float) -> asyncio.TimerHandle:
        """Schedules a notify after ``delay`` real seconds (for deadline checks)."""
        return asyncio.get_running_loop().call_later(max(delay, 0.0), self.notify)


class Clock:
    """Monotonic seconds plus an offset that tests may :meth:`advance`."""

    def __init__(self, notifier: Notifier) -> None:
        self._offset = 0.0
        self._notifier = notifier

    def now(self) -> float:
        return time.monotonic() + self._offset

    def advance(self, seconds: float) -> None:
        """Jumps forward, e.g. past the 3 s interaction deadline, and wakes waiters."""
        self._offset += seconds
        self._notifier.notify()
