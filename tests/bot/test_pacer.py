"""The global pacer, on a clock the test drives: never more than its limit of requests in
any window, a request's slot held until a window after its answer (so a request that
arrives late still counts); the routes outside Discord's global limit are not held back;
discord.py's client is paced once installed."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any

import pytest

from bot.discord.outbound.pacer import GlobalPacer, exempt, pace


class Clock:
    def __init__(self) -> None:
        self.now = 0.0
        self.slept: list[float] = []

    def __call__(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)
        self.now += seconds


def most_in_a_window(starts: list[float], window: float) -> int:
    return max(sum(1 for t in starts if s <= t < s + window) for s in starts)


async def test_never_more_than_the_limit_in_any_second() -> None:
    clock = Clock()
    pacer = GlobalPacer(50, 1.0, margin=0.01, clock=clock, sleep=clock.sleep)
    starts = []
    for i in range(400):
        if i % 37 == 0:
            clock.now += 0.013  # some time passes between bursts
        await pacer.take()
        starts.append(clock.now)
        clock.now += 0.004  # the request's round trip
        pacer.done()
    assert most_in_a_window(starts, 1.0) <= 50
    # and it goes as fast as that allows: 400 in about 8 windows, not more
    assert starts[-1] - starts[0] < 8 * 1.02 + 0.1
    assert pacer.taken == 400


async def test_a_slow_request_holds_its_slot_until_a_window_after_its_answer() -> None:
    """A request that reaches Discord late (it was slow on the way) still counts in
    Discord's window: its slot frees only a window after the answer, never before."""
    clock = Clock()
    pacer = GlobalPacer(2, 1.0, margin=0.0, clock=clock, sleep=clock.sleep)
    await pacer.take()  # slow: answered at 0.9
    await pacer.take()  # answered at once
    pacer.done()
    clock.now = 0.9
    pacer.done()
    await pacer.take()
    assert clock.now == 1.0  # the quick one's slot, a window after its answer
    pacer.done()
    await pacer.take()
    assert clock.now == 1.9  # the slow one's: a window after its answer, not its start


async def test_when_every_slot_is_in_flight_the_next_waits_for_an_answer() -> None:
    clock = Clock()
    pacer = GlobalPacer(1, 1.0, margin=0.0, clock=clock, sleep=clock.sleep)
    await pacer.take()
    waiting = asyncio.create_task(pacer.take())
    await asyncio.sleep(0)
    assert not waiting.done()
    pacer.done()  # answered at 0: the slot frees at 1
    await waiting
    assert clock.now == 1.0


async def test_concurrent_callers_share_the_limit() -> None:
    clock = Clock()
    pacer = GlobalPacer(10, 1.0, margin=0.0, clock=clock, sleep=clock.sleep)
    starts: list[float] = []

    async def caller() -> None:
        for _ in range(5):
            await pacer.take()
            starts.append(clock.now)
            await asyncio.sleep(0)  # in flight while the others ask
            pacer.done()

    await asyncio.gather(*(caller() for _ in range(8)))
    assert len(starts) == 40 and most_in_a_window(starts, 1.0) <= 10


def test_interaction_answers_are_not_held_back() -> None:
    assert exempt("/interactions/{interaction_id}/{interaction_token}/callback")
    assert exempt("/webhooks/{webhook_id}/{webhook_token}")
    assert not exempt("/channels/{channel_id}/messages")
    assert not exempt("/users/@me/channels")


async def test_pace_puts_the_pacer_in_front_of_every_request_but_the_exempt() -> None:
    calls: list[str] = []

    class Http:
        async def request(self, route: Any, **kwargs: Any) -> str:
            calls.append(route.path)
            return "ok"

    http = Http()
    clock = Clock()
    pacer = GlobalPacer(50, clock=clock, sleep=clock.sleep)
    pace(http, pacer)
    assert await http.request(SimpleNamespace(path="/channels/{channel_id}/messages")) == "ok"
    await http.request(SimpleNamespace(path="/interactions/{interaction_id}/{interaction_token}/callback"))
    assert calls == ["/channels/{channel_id}/messages", "/interactions/{interaction_id}/{interaction_token}/callback"]
    assert pacer.taken == 1


def test_a_pacer_needs_a_positive_limit() -> None:
    with pytest.raises(ValueError):
        GlobalPacer(0)
