"""The open-loop load's verdict on its own harness (bench/open_loop.py): a figure taken
while the harness fell behind must say so."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))

from open_loop import Offered, open_loop


def test_a_harness_on_schedule_with_room_to_spare_is_not_behind():
    on_time = Offered(rate=100, lags=[0.001] * 1000, cpu_s=2.0, wall_s=10.0)
    assert on_time.achieved_rate == pytest.approx(100, rel=0.001)
    assert on_time.fell_behind() == []


def test_starts_that_came_late_make_the_figures_the_harness_s():
    # One stall of half a second: the 50 starts due meanwhile left late, all at once.
    stalled = [0.0] * 500 + [0.5 - k / 100 for k in range(50)] + [0.0] * 450
    offered = Offered(rate=100, lags=stalled, cpu_s=2.0, wall_s=10.0)
    assert offered.achieved_rate == pytest.approx(100, rel=0.001)  # caught up by the end
    assert offered.fell_behind() == ["starts late by 410 ms at p99"]


def test_a_harness_that_could_not_start_as_many_a_second_is_behind():
    # Each start a further 5 ms late: 1,000 starts took 15 s instead of 10.
    drifting = [k * 0.005 for k in range(1000)]
    offered = Offered(rate=100, lags=drifting, cpu_s=9.5, wall_s=15.0)
    reasons = offered.fell_behind()
    assert offered.achieved_rate == pytest.approx(1000 / 15.0, rel=0.01)
    assert reasons[0] == "offered 100/s, achieved 66.7/s" and len(reasons) == 2


def test_a_harness_near_a_full_core_is_flagged_even_on_schedule():
    busy = Offered(rate=100, lags=[0.0] * 1000, cpu_s=9.0, wall_s=10.0)
    assert busy.fell_behind() == ["harness at 90% of a core"]


def test_the_open_loop_starts_each_piece_of_work_once_in_order():
    started: list[int] = []

    async def start(k: int) -> int:
        started.append(k)
        return k * 10

    offered, handles = asyncio.run(open_loop(10_000, 0.002, start))
    assert started == list(range(20)) and handles == [k * 10 for k in range(20)]
    assert len(offered.lags) == 20 and all(lag >= 0 for lag in offered.lags)
