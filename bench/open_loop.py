"""An open-loop load, and whether the harness that offered it kept to its schedule.

A bench that starts work at fixed moments (``rate`` a second, whether or not the earlier
ones are answered) measures the system under test only while it keeps to those moments.
When the harness's own event loop is busy (the emulator serving the bot, the scripted
players), the work leaves late and fewer a second than announced, and every latency
measured from the harness's side includes that wait: the figure would be the harness's
limit passed off as the bot's. :func:`open_loop` starts the work and records how late
each start was and the harness's CPU time meanwhile; :meth:`Offered.fell_behind` says
whether, and why, the figures of that stretch do not describe the system under test.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TypeVar

T = TypeVar("T")

# The harness kept up when it started at least this share of the work a second it was
# asked to, and 99% of the starts came at most MAX_LAG_S after their moment (a tenth of
# the 100 ms the bot is given to acknowledge at p99, so the harness's part stays small).
MIN_RATE_SHARE = 0.95
MAX_LAG_S = 0.010
# Above this share of a core the harness is near its limit even if it kept up.
MAX_CPU_SHARE = 0.8


@dataclass
class Offered:
    """What an open loop asked for and what it did: ``lags[k]`` is how many seconds after
    its moment ``k / rate`` the k-th start came; ``cpu_s`` the harness's CPU time and
    ``wall_s`` the wall time from the first moment to the last start."""

    rate: float
    lags: list[float]
    cpu_s: float
    wall_s: float

    @property
    def achieved_rate(self) -> float:
        """Starts a second, over the span they took (``rate`` when none was late)."""
        n = len(self.lags)
        if n == 0:
            return 0.0
        last = (n - 1) / self.rate + self.lags[-1]
        return n / (last + 1 / self.rate)

    def lag(self, q: float) -> float:
        """The ``q`` quantile of the starts' lateness, in seconds."""
        if not self.lags:
            return 0.0
        ordered = sorted(self.lags)
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))]

    @property
    def cpu_share(self) -> float:
        """The harness's CPU time over the stretch as a share of one core."""
        return self.cpu_s / self.wall_s if self.wall_s > 0 else 0.0

    def fell_behind(self) -> list[str]:
        """Why the harness, not the system under test, may have set the figures (empty:
        it kept to its schedule with room to spare)."""
        reasons = []
        if self.achieved_rate < MIN_RATE_SHARE * self.rate:
            reasons.append(f"offered {self.rate:g}/s, achieved {self.achieved_rate:.1f}/s")
        if self.lag(0.99) > MAX_LAG_S:
            reasons.append(f"starts late by {self.lag(0.99) * 1000:.0f} ms at p99")
        if self.cpu_share > MAX_CPU_SHARE:
            reasons.append(f"harness at {self.cpu_share:.0%} of a core")
        return reasons


async def open_loop(
    rate: float, seconds: float, start: Callable[[int], Awaitable[T]]
) -> tuple[Offered, list[T]]:
    """Await ``start(k)`` at moment ``k / rate`` for ``rate * seconds`` starts, each at its
    moment whatever became of the earlier ones (``start`` begins the work and returns a
    handle on it without waiting for its end, as the emulator's ``slash`` does); the
    record of how that went and the handles."""
    loop = asyncio.get_running_loop()
    handles: list[T] = []
    lags: list[float] = []
    cpu0 = time.process_time()
    t0 = loop.time()
    for k in range(int(rate * seconds)):
        moment = t0 + k / rate
        await asyncio.sleep(max(0.0, moment - loop.time()))
        lags.append(max(0.0, loop.time() - moment))
        handles.append(await start(k))
    return Offered(rate, lags, time.process_time() - cpu0, loop.time() - t0), handles
