"""The signals a writing unit of work fires once it has committed (bot.db.signals):
"messages written" for outbox rows to deliver, "deadline moved" for what the scheduler
sleeps on; never after a rollback or a failed commit, nothing for a read or a write no
loop waits for."""

from __future__ import annotations

import asyncio

import pytest
from sqlalchemy.exc import IntegrityError

from bot.core.effects import mark_effects_due
from bot.core.users import note_locale
from bot.core.views import player_view
from bot.db import repositories as repo
from bot.db.models import OutboxMessage
from bot.db.session import Database
from bot.db.signals import DEADLINES, MESSAGES, Signal, Signals, note
from bot.features.lobby.games import get_game, start_game
from bot.features.moderation.moderation import extend_deadline, pause_game
from bot.features.play.commands import SendSubmission, handle
from tests.service.helpers import choice, current_state, lobby, started, take_due, user


class Heard:
    """What ``db`` signalled, in order, while listened to."""

    def __init__(self, db: Database) -> None:
        self.signals: list[Signal] = []
        self.stops = [db.signals.listen(s, lambda s=s: self.signals.append(s)) for s in (MESSAGES, DEADLINES)]

    async def take(self) -> set[Signal]:
        await asyncio.sleep(0)  # (the listeners are called soon after the commit)
        found, self.signals = set(self.signals), []
        return found


def outbox_row(game_id: int, key: str, now) -> OutboxMessage:
    return OutboxMessage(
        idempotency_key=key, game_id=game_id, recipient_kind="channel", recipient_id=1, locale="en-US",
        payload={"type": "x"}, status="pending", attempts=0, next_attempt_at=now, created_at=now,
    )  # fmt: skip


async def test_a_committed_write_signals_its_messages_a_rolled_back_one_does_not(db: Database):
    game_id = await lobby(db)
    heard = Heard(db)
    async with db.transaction() as s:
        s.add(outbox_row(game_id, "k1", db.now()))
    assert (await heard.take()) == {MESSAGES}
    with pytest.raises(RuntimeError):
        async with db.transaction() as s:
            s.add(outbox_row(game_id, "k2", db.now()))
            await s.flush()  # written, then rolled back
            raise RuntimeError("the use case refuses")
    assert (await heard.take()) == set()
    assert [m.key for m in await take_due(db) if m.key.startswith("k")] == ["k1"]


async def test_a_failed_commit_signals_nothing(db: Database):
    game_id = await lobby(db)
    async with db.transaction() as s:
        s.add(outbox_row(game_id, "taken", db.now()))
    heard = Heard(db)
    with pytest.raises(IntegrityError):
        async with db.transaction() as s:
            s.add(outbox_row(game_id, "taken", db.now()))  # the same key: refused at the commit's flush
    assert (await heard.take()) == set()


async def test_use_cases_signal_what_they_wrote(db: Database):
    heard = Heard(db)
    game_id = await lobby(db)  # the lobby post
    assert (await heard.take()) == {MESSAGES}
    await start_game(db, game_id)  # the sheets, and the first deadline
    assert (await heard.take()) == {MESSAGES, DEADLINES}
    await extend_deadline(db, game_id, 3600)  # the clock moves (and the table is told)
    assert DEADLINES in (await heard.take())
    await pause_game(db, game_id)
    assert (await heard.take()) == {MESSAGES, DEADLINES}
    await player_view(db, user(1).id, game_id)  # a read
    assert (await heard.take()) == set()


async def test_a_write_no_loop_waits_for_signals_nothing(db: Database):
    game_id = await started(db)
    await take_due(db)  # delivered, as a dispatcher would
    heard = Heard(db)
    async with db.transaction() as s:
        game = await repo.get_game(s, game_id)
        game.notice_seq += 1  # seen by nobody's loop
    await note_locale(db, user(1).id, "zh-CN")
    assert (await heard.take()) == set()


async def test_a_statement_past_the_flush_notes_its_own_and_a_listener_can_stop(db: Database):
    game_id = await started(db)
    heard = Heard(db)
    await mark_effects_due(db, [game_id])  # for the reconciler, after the dispatcher's pass
    assert (await heard.take()) == {MESSAGES}
    for stop in heard.stops:
        stop()
    async with db.transaction() as s:
        note(s, MESSAGES, DEADLINES)
    assert (await heard.take()) == set()


async def test_an_early_close_moves_the_deadline_past_the_flush_of_a_submission(db: Database):
    game_id = await started(db, early_advance=True)
    heard = Heard(db)
    await send_all(db, game_id, but=1)
    assert (await heard.take()) == set()  # a submission alone: no loop waits for it
    await send_all(db, game_id)  # the last one sent brings the deadline to now
    assert (await heard.take()) == {DEADLINES}


async def send_all(db: Database, game_id: int, but: int = 0) -> None:
    """Every living player but the last ``but`` sends their simple choice."""
    state = await current_state(db, game_id)
    players = [p for p in (await get_game(db, game_id)).players if p.seat is not None]
    for p in players[: len(players) - but]:
        await handle(db, SendSubmission(choice(state, p.seat)), p.user_id, game_id=game_id)


def test_a_failing_listener_does_not_stop_the_others(caplog):
    signals = Signals()
    got: list[str] = []
    signals.listen(MESSAGES, lambda: 1 / 0)  # type: ignore[arg-type, return-value]
    signals.listen(MESSAGES, lambda: got.append("second"))  # type: ignore[arg-type, func-returns-value]
    signals.fire({MESSAGES})
    assert got == ["second"] and "ZeroDivisionError" in caplog.text
