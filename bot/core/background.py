"""What the bot's background loops (the outbox dispatcher, the scheduler, the reconciler, the heartbeat) share: a
pause between passes that a ``wake()`` cuts short, and a ``stop()`` that ends the loop
between two passes, so a pass in flight (one database transaction, one delivery) always
finishes and no connection is abandoned half-way when the bot shuts down.

A wake that arrives during a pass is kept: the pause after that pass returns at once, so
the work that woke the loop (a deadline moved to now while a tick was reading the old
one) is done by the next pass, not after a full pause."""

from __future__ import annotations

import asyncio
import contextlib


class BackgroundLoop:
    def __init__(self) -> None:
        self._wake = asyncio.Event()
        self._stopping = False

    @property
    def running(self) -> bool:
        """False once ``stop()`` was called: the loop ends before its next pass."""
        return not self._stopping

    def wake(self) -> None:
        self._wake.set()

    def stop(self) -> None:
        self._stopping = True
        self._wake.set()

    async def pause(self, seconds: float) -> None:
        """Sleep up to ``seconds``; return early when woken or stopped."""
        if self._stopping:
            return
        if not self._wake.is_set():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), timeout=seconds)
        self._wake.clear()
