"""Deadlines, reminders, pause/resume/extend, on an injected clock (no sleeping)."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest

from bot.core import errors as E
from bot.core.advance import advance_phase
from bot.core.deadlines import next_wakeup, run_due
from bot.core.dispatch import Dispatcher, MemorySender
from bot.core.outbox import claim_due_messages
from bot.db.session import Database
from bot.db.signals import MESSAGES
from bot.features.lobby.games import get_game
from bot.features.moderation.moderation import extend_deadline, pause_game, resume_game
from bot.features.play.commands import SendGrail, SendSubmission, Withdraw, handle
from bot.render.refusals import service_refusal
from tests.service.helpers import started, user

DAY = 600
LEAD = 120


async def test_deadline_advances_and_reminds_the_missing(db: Database, clock) -> None:
    game_id = await started(db, 6, day_seconds=DAY, reminder_lead_seconds=LEAD, early_advance=False)
    start = clock.now
    # The start's messages are due now, but they are the dispatcher's: the scheduler's
    # next time is the reminder's.
    assert await next_wakeup(db) == start + timedelta(seconds=DAY - LEAD)
    await Dispatcher(db, MemorySender()).drain()
    assert await next_wakeup(db) == start + timedelta(seconds=DAY - LEAD)
    await handle(db, SendGrail(50), user(1).id)
    await handle(db, SendGrail(60), user(2).id)
    clock.advance(DAY - LEAD - 1)
    report = await run_due(db)
    assert report.advanced == [] and report.reminded == []
    clock.advance(1)
    report = await run_due(db)
    assert report.reminded == [game_id]
    msgs = await claim_due_messages(db, limit=100)
    assert msgs[0].payload["type"] == "reminder" and msgs[0].payload["missing"] == 4
    assert sorted(m.recipient_id for m in msgs[1:]) == [user(i).id for i in range(3, 7)]
    assert (await run_due(db)).reminded == []  # once per phase
    clock.advance(LEAD)
    report = await run_due(db)
    assert [r.closed_phase for r in report.advanced] == ["day"]
    assert (await get_game(db, game_id)).phase == "dusk"
    assert (await run_due(db)).advanced == []


async def test_early_advance_is_picked_up_at_the_next_tick(db: Database, clock) -> None:
    game_id = await started(db, 6, day_seconds=DAY)
    for i in range(1, 7):
        await handle(db, SendGrail(i), user(i).id)
    report = await run_due(db)
    assert [r.game_id for r in report.advanced] == [game_id]


async def test_pause_keeps_the_time_left_and_resume_restores_it(db: Database, clock) -> None:
    game_id = await started(db, 6, day_seconds=DAY)
    clock.advance(100)
    info = await pause_game(db, game_id)
    assert info.status == "paused" and info.paused_remaining == DAY - 100 and info.deadline is None
    with pytest.raises(E.GamePausedError) as again:
        await pause_game(db, game_id)
    assert again.value.key == "error.already_paused"  # worded for the moderator
    with pytest.raises(E.GamePausedError) as advancing:
        await advance_phase(db, game_id)
    assert "/phase resume" in service_refusal(advancing.value, "en-US")
    clock.advance(10_000)
    assert (await run_due(db)).advanced == []
    info = await extend_deadline(db, game_id, 50)
    assert info.paused_remaining == DAY - 50
    info = await resume_game(db, game_id)
    assert info.status == "running" and info.deadline == clock.now + timedelta(seconds=DAY - 50)
    with pytest.raises(E.NotPausedError):
        await resume_game(db, game_id)


async def test_resume_after_everyone_sent_closes_the_phase_as_before_the_pause(db: Database, clock) -> None:
    """A pause caught between the early close and the scheduler's tick keeps nobody
    waiting a minute on resume: everyone has sent, so the phase closes at once (at Dusk
    after the grace, as before the pause)."""
    game_id = await started(db, 6, day_seconds=DAY)
    for i in range(1, 7):
        await handle(db, SendGrail(i), user(i).id)
    await pause_game(db, game_id)
    info = await resume_game(db, game_id)
    assert info.deadline == clock.now
    assert [r.game_id for r in (await run_due(db)).advanced] == [game_id]
    # At Dusk nobody has sent yet: the time left, at least a minute, as before.
    dusk_deadline = (await get_game(db, game_id)).deadline
    clock.now = dusk_deadline - timedelta(seconds=30)
    await pause_game(db, game_id)
    assert (await resume_game(db, game_id)).deadline == clock.now + timedelta(seconds=60)


async def test_extend_moves_the_deadline(db: Database, clock) -> None:
    game_id = await started(db, 6, day_seconds=DAY)
    before = (await get_game(db, game_id)).deadline
    info = await extend_deadline(db, game_id, 300)
    assert (info.deadline - before).total_seconds() == 300
    clock.advance(DAY)
    assert (await run_due(db)).advanced == []
    clock.advance(300)
    assert len((await run_due(db)).advanced) == 1
    for bad in (0, -5, 10**9, "60"):
        with pytest.raises(E.BadArgumentError):
            await extend_deadline(db, game_id, bad)  # type: ignore[arg-type]


async def test_a_broken_game_does_not_stop_the_others(db: Database, clock, monkeypatch) -> None:
    from bot.core import deadlines

    a = await started(db, 6, day_seconds=DAY)
    b = await started(db, 6, day_seconds=DAY, channel=2001, first=20)
    clock.advance(DAY)
    real = deadlines.advance

    async def flaky(t, **kw):
        if t.id == a:
            raise RuntimeError("engine bug")
        return await real(t, **kw)

    monkeypatch.setattr(deadlines, "advance", flaky)
    report = await run_due(db)
    assert report.failed == [a] and [r.game_id for r in report.advanced] == [b]
    assert (await get_game(db, a)).phase == "day"  # rolled back, retried next tick


async def test_the_games_due_close_a_few_at_a_time_and_are_reported_in_order(db: Database, clock, monkeypatch) -> None:
    """Six games share a deadline: four close together (never more), the first one
    found due finishes last, one breaks; the report still lists them as found, the
    broken one only among the failures, and "messages written" is signalled once per
    game closed, as each commits (the dispatcher delivers while the others close)."""
    from bot.core import deadlines

    games = [await started(db, 6, day_seconds=DAY, channel=2000 + k, first=1 + 10 * k) for k in range(6)]
    broken = games[2]
    clock.advance(DAY)
    real = deadlines.advance_if_due
    running: list[int] = []
    most = 0
    together = asyncio.Event()
    finished: list[int] = []
    rest_done = asyncio.Event()
    woken: list[list[int]] = []

    async def watched(db_: Database, game_id: int):
        nonlocal most
        running.append(game_id)
        most = max(most, len(running))
        if len(running) == deadlines.CLOSING_AT_ONCE:
            together.set()
        try:
            await asyncio.wait_for(together.wait(), 30)  # a bound: sequential closing never gets here
            if game_id == games[0]:
                await asyncio.wait_for(rest_done.wait(), 30)
            if game_id == broken:
                raise RuntimeError("engine bug")
            return await real(db_, game_id)
        finally:
            running.remove(game_id)
            finished.append(game_id)
            if len(finished) == len(games) - 1:
                rest_done.set()

    monkeypatch.setattr(deadlines, "advance_if_due", watched)
    db.signals.listen(MESSAGES, lambda: woken.append(list(finished)))
    report = await run_due(db)
    assert most == deadlines.CLOSING_AT_ONCE
    assert finished[-1] == games[0]
    assert [r.game_id for r in report.advanced] == [g for g in games if g != broken]
    assert report.failed == [broken]
    assert len(woken) == 5 and woken[0] != woken[-1]  # after each game, not once at the end
    assert (await get_game(db, broken)).phase == "day"


async def at_dusk_with_seat_2_wounded(db: Database, **settings: object):
    """A game of six at its first Dusk, seat 2 at HP 0 (as if hit); (game id, state)."""
    from bot.core.advance import advance_phase
    from bot.core.rules import state_of
    from bot.db import repositories as repo
    from tests.service.helpers import apply_state

    game_id = await started(db, 6, day_seconds=DAY, dusk_seconds=DAY, **settings)
    await advance_phase(db, game_id)
    async with db.transaction() as s:
        game = await repo.get_game(s, game_id)
        state = state_of(game)
        state.player(2).hp = 0
        apply_state(game, state)
    return game_id, state


async def test_the_dusk_reminder_asks_for_orders_and_tells_the_wounded_how_to_pass(db: Database, clock) -> None:
    from bot.render.outgoing import render_outgoing
    from tests.bot.test_outbound import text_of

    game_id, _ = await at_dusk_with_seat_2_wounded(db, reminder_lead_seconds=LEAD, early_advance=False)
    await Dispatcher(db, MemorySender()).drain()
    clock.advance(DAY - LEAD)
    assert (await run_due(db)).reminded == [game_id]
    private = {m.payload["seat"]: m for m in await claim_due_messages(db, limit=100) if m.recipient_kind == "user"}
    assert sorted(private) == [1, 2, 3, 4, 5, 6]
    assert [seat for seat, m in private.items() if m.payload.get("wounded")] == [2]
    info = await get_game(db, game_id)
    wounded, healthy = text_of(render_outgoing(private[2], info)), text_of(render_outgoing(private[1], info))
    assert "You are wounded" in wounded and "nothing tonight" in wounded
    assert "not sent your night orders" in healthy and "`/act attack`" in healthy and "wounded" not in healthy


def one_guess(state, seat: int):
    """The first identification ``seat`` may send (one guess on another living seat)."""
    import engine

    spec = engine.class_spec(state.player(seat).class_id)
    values = {"trait": [t.value for t in engine.Trait], "faction": [f.value for f in engine.Faction], "class": list(engine.catalogue())}
    for slot in spec.identify:
        for target in (p.seat for p in state.players if p.alive and p.seat != seat):
            for value in slot.values or values[slot.what]:
                guess = engine.Identification((engine.Guess(target, slot.what, value),))
                try:
                    return engine.validate(state, seat, guess)
                except engine.RuleViolation:
                    continue
    raise AssertionError(f"seat {seat} may send no identification")


async def test_at_dusk_a_wounded_player_who_identified_does_not_hold_up_the_early_close(db: Database, clock) -> None:
    """Waiting for orders a wounded player cannot give would tell the table, by an early
    close that never comes, that someone is hurt."""
    import engine

    game_id, state = await at_dusk_with_seat_2_wounded(db, early_advance=True)
    deadline = (await get_game(db, game_id)).deadline
    for seat in (1, 3, 4, 5, 6):
        await handle(db, SendSubmission(engine.Orders(actions=(engine.Action("attack", (2,)),))), user(seat).id, game_id=game_id)
    assert (await get_game(db, game_id)).deadline == deadline  # seat 2 has sent nothing yet
    receipt = await handle(db, SendSubmission(one_guess(state, 2)), user(2).id, game_id=game_id)
    assert receipt.all_sent
    assert (await get_game(db, game_id)).deadline == clock.now + timedelta(seconds=60)  # Dusk's grace


async def test_at_dusk_a_healthy_player_who_only_identified_is_still_awaited(db: Database, clock) -> None:
    import engine
    from bot.core.advance import advance_phase
    from tests.service.helpers import current_state

    game_id = await started(db, 6, day_seconds=DAY, dusk_seconds=DAY, early_advance=True)
    await advance_phase(db, game_id)
    state = await current_state(db, game_id)
    deadline = (await get_game(db, game_id)).deadline
    for seat in (1, 3, 4, 5, 6):
        await handle(db, SendSubmission(engine.Orders(actions=(engine.Action("attack", (2,)),))), user(seat).id, game_id=game_id)
    receipt = await handle(db, SendSubmission(one_guess(state, 2)), user(2).id, game_id=game_id)
    assert not receipt.all_sent and (await get_game(db, game_id)).deadline == deadline


async def test_removing_the_last_player_who_had_not_sent_closes_the_phase_early(db: Database, clock) -> None:
    from bot.features.moderation.moderation import remove_player

    game_id = await started(db, 6, day_seconds=3600, early_advance=True)
    for i in range(1, 6):
        await handle(db, SendGrail(10 * i), user(i).id, game_id=game_id)
    assert (await get_game(db, game_id)).deadline == clock.now + timedelta(seconds=3600)
    await remove_player(db, game_id, 6)
    assert (await get_game(db, game_id)).deadline == clock.now  # everyone left has sent
    clock.advance(1)
    assert [r.closed_phase for r in (await run_due(db)).advanced] == ["day"]


async def test_a_withdrawal_in_the_dusk_grace_does_not_move_the_deadline_back(db: Database, clock) -> None:
    """A ruling: once everyone has sent, the Dusk closes after its short grace; taking
    orders back in the grace leaves that player with none (the grace is for adding)."""
    import engine
    from bot.core.advance import advance_phase

    game_id = await started(db, 6, day_seconds=3600, dusk_seconds=3600, early_advance=True)
    await advance_phase(db, game_id)
    for i in range(1, 7):
        await handle(db, SendSubmission(engine.Orders()), user(i).id, game_id=game_id)
    grace_end = (await get_game(db, game_id)).deadline
    assert grace_end == clock.now + timedelta(seconds=60)
    assert await handle(db, Withdraw("orders"), user(4).id, game_id=game_id)
    assert (await get_game(db, game_id)).deadline == grace_end


async def test_an_extend_meant_for_a_phase_the_deadline_closed_is_refused(db: Database, clock) -> None:
    """The moderator saw Day and asked for more time as the Day's deadline passed: the
    scheduler closed it first, so the extension must not go to the Dusk."""
    from bot.features.moderation.moderation import extend_deadline

    game_id = await started(db, 6, day_seconds=600, dusk_seconds=600)
    clock.advance(600)
    await run_due(db)  # the scheduler wins the race
    info = await get_game(db, game_id)
    assert info.phase == "dusk"
    with pytest.raises(E.PhaseClosedError):
        await extend_deadline(db, game_id, 3600, expected_round=1, expected_phase="day")
    assert (await get_game(db, game_id)).deadline == info.deadline
    await extend_deadline(db, game_id, 3600, expected_round=1, expected_phase="dusk")
    assert (await get_game(db, game_id)).deadline == info.deadline + timedelta(seconds=3600)


async def test_no_reminder_once_the_deadline_has_passed(db: Database, clock) -> None:
    """A tick that reaches a reminder only after the deadline (a slow tick, an advance
    that failed and waits for its retry) sends none: the phase is closing."""
    from bot.core.deadlines import remind_if_due

    game_id = await started(db, 6, day_seconds=DAY, reminder_lead_seconds=LEAD, early_advance=False)
    await Dispatcher(db, MemorySender()).drain()  # the start's messages
    clock.advance(DAY + 1)
    assert await remind_if_due(db, game_id) == 0
    assert await claim_due_messages(db, limit=100) == []


async def test_extending_again_and_again_never_leaves_more_than_seven_days(db: Database, clock) -> None:
    from bot.core.types import MAX_PHASE_SECONDS
    from bot.features.moderation.moderation import extend_deadline, pause_game

    game_id = await started(db, 6, day_seconds=DAY)
    await extend_deadline(db, game_id, MAX_PHASE_SECONDS)
    capped = await get_game(db, game_id)
    assert capped.deadline == clock.now + timedelta(seconds=MAX_PHASE_SECONDS)
    await claim_due_messages(db, limit=100)
    # Once there, a further extension is refused: nothing changes, nothing is announced.
    with pytest.raises(E.ExtendAtLimitError) as refused:
        await extend_deadline(db, game_id, 3600)
    assert service_refusal(refused.value, "en-US") == "The phase already has as long left as a phase may run (7 days): nothing was changed."
    assert (await get_game(db, game_id)).version == capped.version
    assert await claim_due_messages(db, limit=100) == []
    await pause_game(db, game_id)
    with pytest.raises(E.ExtendAtLimitError):
        await extend_deadline(db, game_id, MAX_PHASE_SECONDS)
    assert (await get_game(db, game_id)).paused_remaining == MAX_PHASE_SECONDS


async def test_an_extended_deadline_is_reminded_again_by_the_lead_set_then(db: Database, clock) -> None:
    """The first reminder has gone out; the moderator shortens the reminder and extends
    the phase: the new deadline gets its own reminder, by the new lead (as the guides say)."""
    from bot.features.moderation.moderation import update_settings

    game_id = await started(db, 6, day_seconds=DAY, reminder_lead_seconds=LEAD, early_advance=False)
    clock.advance(DAY - LEAD)
    assert (await run_due(db)).reminded == [game_id]
    await update_settings(db, game_id, reminder_lead_seconds=30)
    info = await extend_deadline(db, game_id, 300)
    assert info.deadline is not None
    clock.now = info.deadline - timedelta(seconds=31)
    assert (await run_due(db)).reminded == []
    clock.advance(1)
    assert (await run_due(db)).reminded == [game_id]
