"""The scheduler's decisions, with the database's clock injected: when to sleep, when a
deadline advances the game, when reminders go out, and that a restart loses nothing."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

from bot.core.deadlines import next_wakeup, run_due
from bot.db.session import Database
from bot.db.signals import MESSAGES
from bot.discord.loops import scheduler as scheduler_loop
from bot.discord.loops.scheduler import Scheduler, sleep_for
from bot.features.lobby.games import get_game
from bot.features.moderation.moderation import pause_game
from bot.features.play.commands import SendGrail, handle
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
    db.signals.listen(MESSAGES, lambda: woken.append(1))  # as the bot's dispatcher does
    scheduler = Scheduler(db)
    assert (await scheduler.tick()).advanced == []
    assert await scheduler.delay() == scheduler.max_sleep  # the reminder is 50 minutes away
    clock.advance(3600 - 600)  # the reminder is due
    report = await scheduler.tick()
    assert report.reminded == [game_id] and woken == [1]
    assert sorted(set(await types_due(db))) == ["reminder"]
    clock.advance(600)
    report = await scheduler.tick()
    assert [s.closed_phase for s in report.advanced] == ["day"]
    assert (await get_game(db, game_id)).phase == "dusk"
    # A second scheduler (another process, or after a restart) finds nothing to do.
    assert (await Scheduler(db).tick()).advanced == []


async def test_a_restart_rebuilds_every_timer_from_the_database(db: Database, clock):
    game_id = await started(db, 6, day_seconds=600)
    clock.advance(601)
    fresh = Scheduler(db)  # nothing in memory: everything comes from the stored deadline
    assert await fresh.delay() == fresh.min_sleep
    assert [s.game_id for s in (await fresh.tick()).advanced] == [game_id]


async def test_a_deadline_passed_while_the_bot_was_down_closes_one_phase_the_next_gets_its_full_length(db: Database, clock):
    game_id = await started(db, 6, day_seconds=3600, dusk_seconds=7200, reminder_lead_seconds=600)
    await types_due(db)
    clock.advance(3 * 86400)  # down for three days, through the deadline and its reminder
    report = await Scheduler(db).tick()  # the first tick after the start
    assert [s.closed_phase for s in report.advanced] == ["day"] and report.reminded == []
    assert "reminder" not in await types_due(db)
    game = await get_game(db, game_id)
    assert (game.round, game.phase) == (1, "dusk")
    assert game.deadline == db.now() + timedelta(seconds=7200)


async def test_early_advance_when_everyone_has_sent(db: Database, clock):
    game_id = await started(db, 6, day_seconds=86400)
    for i in range(1, 7):
        await handle(db, SendGrail(10 * i), user(i).id, game_id=game_id)
    scheduler = Scheduler(db)
    assert await scheduler.delay() == scheduler.min_sleep
    assert [s.closed_phase for s in (await scheduler.tick()).advanced] == ["day"]


async def test_paused_games_do_not_advance(db: Database, clock):
    game_id = await started(db, 6, day_seconds=600)
    await pause_game(db, game_id)
    clock.advance(7200)
    assert (await Scheduler(db).tick()).advanced == []


async def test_stop_lets_the_tick_in_flight_finish_then_ends_the_loop(db: Database, clock, monkeypatch):
    """Shutting down never cuts a tick (one transaction) in half, and a loop asleep for
    its full ``max_sleep`` ends at once when stopped."""
    game_id = await started(db, 6, day_seconds=600)
    clock.advance(601)
    entered, release, finished = asyncio.Event(), asyncio.Event(), []
    real_run_due = run_due

    async def gated_run_due(database: Database, held=(), **kw):
        entered.set()
        await release.wait()
        finished.append(await real_run_due(database, held, **kw))
        return finished[-1]

    monkeypatch.setattr(scheduler_loop, "run_due", gated_run_due)
    scheduler = Scheduler(db, max_sleep=3600)
    loop = asyncio.create_task(scheduler.run_forever())
    await entered.wait()
    scheduler.stop()
    release.set()
    await asyncio.wait_for(loop, 10)  # a guard against hanging, not a timing claim
    assert not loop.cancelled()
    assert [s.game_id for s in finished[0].advanced] == [game_id]
    assert len(finished) == 1  # no tick after the stop

    asked: list[object] = []
    real_next_wakeup = next_wakeup

    async def counted_next_wakeup(database: Database, held=()):
        asked.append(await real_next_wakeup(database, held))
        return asked[-1]

    monkeypatch.setattr(scheduler_loop, "next_wakeup", counted_next_wakeup)
    idle = Scheduler(db, max_sleep=3600)
    idle_loop = asyncio.create_task(idle.run_forever())
    while not asked:  # its first pass is done: it now sleeps for an hour
        await asyncio.sleep(0)
    idle.stop()
    await asyncio.wait_for(idle_loop, 10)
    assert len(finished) == 1  # nothing was due: that pass did not tick


async def test_a_pass_with_nothing_due_is_one_statement_and_ticks_when_something_is(db: Database, clock, monkeypatch):
    """The scheduler reads when the next thing is due and ticks only once it has come:
    an idle pass is one statement however many games are live."""
    from tests.service.test_ai_turns import counting

    first = await started(db, 6, day_seconds=600)
    await started(db, 6, day_seconds=900, channel=2001, first=20)
    scheduler = Scheduler(db, max_sleep=30)
    ticks: list[object] = []
    real_tick = scheduler.tick

    async def counted_tick():
        ticks.append(await real_tick())
        return ticks[-1]

    monkeypatch.setattr(scheduler, "tick", counted_tick)
    await scheduler.step()
    with counting(db) as idle:
        assert await scheduler.step() == 30
    assert len(idle) == 1 and ticks == []
    clock.advance(601)
    assert await scheduler.step() == 30
    assert len(ticks) == 1 and [s.game_id for s in ticks[0].advanced] == [first]


async def test_a_failing_game_is_retried_less_and_less_often_without_holding_up_others(db: Database, clock, monkeypatch):
    """An advance that keeps raising is tried again after 1 s, 2 s, 4 s … (never more
    than ``max_sleep``), not at every tick; the scheduler sleeps until that retry or the
    next thing due elsewhere, and another game's deadline is kept meanwhile."""
    from bot.core import deadlines

    broken = await started(db, 6, day_seconds=600)
    other = await started(db, 6, day_seconds=605, channel=2001, first=20)
    await types_due(db)
    real, attempts = deadlines.advance, []

    async def flaky(t, **kw):
        if t.id == broken and len(attempts) < 5:
            attempts.append(t.now)
            raise RuntimeError("engine bug")
        return await real(t, **kw)

    monkeypatch.setattr(deadlines, "advance", flaky)
    scheduler = Scheduler(db, max_sleep=6)
    clock.advance(600)
    assert (await scheduler.tick()).failed == [broken]
    assert await scheduler.delay() == 1  # its retry, not the overdue deadline every 0.5 s
    assert (await scheduler.tick()).failed == []  # not yet: not tried
    clock.advance(1)  # t = 601
    assert (await scheduler.tick()).failed == [broken]
    assert await scheduler.delay() == 2
    clock.advance(1)  # t = 602
    assert (await scheduler.tick()).failed == []
    clock.advance(1)  # t = 603
    assert (await scheduler.tick()).failed == [broken]
    assert await scheduler.delay() == 2  # the other game's deadline comes before the retry at 607
    clock.advance(2)  # t = 605
    report = await scheduler.tick()
    assert report.failed == [] and [s.game_id for s in report.advanced] == [other]
    await types_due(db)  # its dawn posts, out of the way
    clock.advance(2)  # t = 607
    assert (await scheduler.tick()).failed == [broken]
    assert await scheduler.delay() == 6  # 8 s, capped at max_sleep
    clock.advance(6)  # t = 613
    assert (await scheduler.tick()).failed == [broken]
    assert len(attempts) == 5  # five tries in 13 s, not 26
    clock.advance(6)  # t = 619: the bug is gone
    assert [s.game_id for s in (await scheduler.tick()).advanced] == [broken]
    assert scheduler.backoff.next_retry() is None  # forgotten once it went through
    assert (await get_game(db, broken)).phase == "dusk"


async def test_a_wakeup_during_a_tick_brings_another_pass_at_once(db: Database, clock, monkeypatch):
    """A wake that arrives while a tick runs (a submission moving a deadline to now while
    the tick read the old one) is not lost: the loop makes another pass (reads when the
    next thing is due, and ticks if it has come) without sleeping its full ``max_sleep``."""
    await started(db, 6, day_seconds=600)
    clock.advance(601)
    passes: list[object] = []
    third = asyncio.Event()
    scheduler = Scheduler(db, max_sleep=3600)
    real_run_due, real_next_wakeup = run_due, next_wakeup

    async def run_due_and_wake(database: Database, held=(), **kw):
        scheduler.wake()  # arrives in the middle of the tick
        return await real_run_due(database, held, **kw)

    async def counted_next_wakeup(database: Database, held=()):
        passes.append(await real_next_wakeup(database, held))
        if len(passes) == 3:  # before the tick, after it, and the next pass
            third.set()
        return passes[-1]

    monkeypatch.setattr(scheduler_loop, "run_due", run_due_and_wake)
    monkeypatch.setattr(scheduler_loop, "next_wakeup", counted_next_wakeup)
    loop = asyncio.create_task(scheduler.run_forever())
    try:
        await asyncio.wait_for(third.wait(), 10)  # a guard against hanging: an hour's sleep would time out
    finally:
        scheduler.stop()
        await asyncio.wait_for(loop, 10)
    assert len(passes) >= 3


async def test_the_dispatcher_is_woken_as_each_game_closes_not_after_the_whole_tick(db: Database, clock):
    """A deadline many games share: each game's messages are delivered while the next
    games are still being closed."""
    woken: list[int] = []
    games = [await started(db, 6, day_seconds=600, channel=900 + k, first=10 * k + 1) for k in range(3)]
    clock.advance(601)
    db.signals.listen(MESSAGES, lambda: woken.append(len(woken)))  # as the bot's dispatcher does
    scheduler = Scheduler(db)
    report = await scheduler.tick()
    assert sorted(s.game_id for s in report.advanced) == sorted(games)
    assert len(woken) == 3
