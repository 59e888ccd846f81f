"""The global pacer: never more than its limit of requests started in any window (plus its
margin), on a clock the test drives; the routes outside Discord's global limit are not
held back; discord.py's client is paced once installed."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any

import pytest

from bot.discord.pacer import GlobalPacer, exempt, pace


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
    pacer = GlobalPacer(50, 1.0, margin=0.05, clock=clock, sleep=clock.sleep)
    starts = []
    for i in range(400):
        if i % 37 == 0:
            clock.now += 0.013  # some time passes between bursts
        await pacer.take()
        starts.append(clock.now)
    assert most_in_a_window(starts, 1.0) <= 50
    assert most_in_a_window(starts, 1.05) <= 50  # the margin too
    # and it goes as fast as that allows: 400 in about 8 windows, not more
    assert starts[-1] - starts[0] < 8 * 1.05 + 0.1
    assert pacer.taken == 400


async def test_concurrent_callers_share_the_limit() -> None:
    clock = Clock()
    pacer = GlobalPacer(10, 1.0, margin=0.0, clock=clock, sleep=clock.sleep)
    starts: list[float] = []

    async def caller() -> None:
        for _ in range(5):
            await pacer.take()
            starts.append(clock.now)

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
