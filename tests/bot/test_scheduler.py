"""The scheduler's decisions, with the database's clock injected: when to sleep, when a
deadline advances the game, when reminders go out, and that a restart loses nothing."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

import bot.service as service
from bot.db.session import Database
from bot.discord.scheduler import Scheduler, sleep_for
from tests.service.helpers import started, take_due, user

T0 = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)


def test_sleep_until_the_next_thing_within_bounds():
    assert sleep_for(T0, None, max_sleep=30) == 30
    assert sleep_for(T0, T0 + timedelta(seconds=10), max_sleep=30) == 10
    assert sleep_for(T0, T0 + timedelta(hours=5), max_sleep=30) == 30
    assert sleep_for(T0, T0 - timedelta(seconds=10), max_sleep=30) == 0.5  # overdue: at once
    assert sleep_for(T0, T0 + timedelta(seconds=0.1), max_sleep=30, min_sleep=0.2) == 0.2


async def types_due(db: Database) -> list[str]:
    """Deliver what is due (to nobody) and say what it was."""
    return [m.payload["type"] for m in await take_due(db)]


async def test_a_deadline_advances_the_game_and_only_once(db: Database, clock):
    woken = []
    game_id = await started(db, 6, day_seconds=3600, reminder_lead_seconds=600)
    await types_due(db)  # the start's messages: out of the way
    scheduler = Scheduler(db, on_work=lambda: woken.append(1))
    assert (await scheduler.tick()).advanced == []
    assert await scheduler.delay() == scheduler.max_sleep  # the reminder is 50 minutes away
    clock.advance(3600 - 600)  # the reminder is due
    report = await scheduler.tick()
    assert report.reminded == [game_id] and woken == [1]
    assert sorted(set(await types_due(db))) == ["reminder"]
    clock.advance(600)
    report = await scheduler.tick()
    assert [s.closed_phase for s in report.advanced] == ["day"]
    assert (await service.get_game(db, game_id)).phase == "dusk"
    # A second scheduler (another process, or after a restart) finds nothing to do.
    assert (await Scheduler(db).tick()).advanced == []


async def test_a_restart_rebuilds_every_timer_from_the_database(db: Database, clock):
    game_id = await started(db, 6, day_seconds=600)
    clock.advance(601)
    fresh = Scheduler(db)  # nothing in memory: everything comes from the stored deadline
    assert await fresh.delay() == fresh.min_sleep
    assert [s.game_id for s in (await fresh.tick()).advanced] == [game_id]


async def test_early_advance_when_everyone_has_sent(db: Database, clock):
    game_id = await started(db, 6, day_seconds=86400)
    for i in range(1, 7):
        await service.submit_grail(db, user(i).id, 10 * i, game_id=game_id)
    scheduler = Scheduler(db)
    assert await scheduler.delay() == scheduler.min_sleep
    assert [s.closed_phase for s in (await scheduler.tick()).advanced] == ["day"]


async def test_paused_games_do_not_advance(db: Database, clock):
    game_id = await started(db, 6, day_seconds=600)
    await service.pause_game(db, game_id)
    clock.advance(7200)
    assert (await Scheduler(db).tick()).advanced == []


async def test_stop_lets_the_tick_in_flight_finish_then_ends_the_loop(db: Database, clock, monkeypatch):
    """Shutting down never cuts a tick (one transaction) in half, and a loop asleep for
    its full ``max_sleep`` ends at once when stopped."""
    game_id = await started(db, 6, day_seconds=600)
    clock.advance(601)
    entered, release, finished = asyncio.Event(), asyncio.Event(), []
    real_run_due = service.run_due

    async def gated_run_due(database: Database):
        entered.set()
        await release.wait()
        finished.append(await real_run_due(database))
        return finished[-1]

    monkeypatch.setattr(service, "run_due", gated_run_due)
    scheduler = Scheduler(db, max_sleep=3600)
    loop = asyncio.create_task(scheduler.run_forever())
    await entered.wait()
    scheduler.stop()
    release.set()
    await asyncio.wait_for(loop, 10)  # a guard against hanging, not a timing claim
    assert not loop.cancelled()
    assert [s.game_id for s in finished[0].advanced] == [game_id]
    assert len(finished) == 1  # no tick after the stop

    idle = Scheduler(db, max_sleep=3600)
    idle_loop = asyncio.create_task(idle.run_forever())
    while len(finished) < 2:  # its first tick is done: it now sleeps for an hour
        await asyncio.sleep(0)
    idle.stop()
    await asyncio.wait_for(idle_loop, 10)
