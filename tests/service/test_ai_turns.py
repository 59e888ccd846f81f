"""The AI seats' turns are planned in the transaction that opens a phase (or hands a
seat to the AI), so the scheduler's idle tick reads no live game: its statements are
the same with one live game or many."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from sqlalchemy import delete, event, select

from bot.core.advance import advance_phase
from bot.core.deadlines import run_due
from bot.core.rules import state_of
from bot.db.models import AiTurn
from bot.db.session import Database
from bot.features.ai_seats.ai_seats import seat_to_ai
from bot.features.ai_seats.turns import plan_missing
from bot.features.lobby.games import start_game
from bot.features.moderation.moderation import pause_game, resume_game
from tests.service.helpers import apply_state, lobby, locked_game


async def _turns(db: Database, game_id: int) -> set[tuple[int, str, int]]:
    async with db.read() as s:
        rows = (await s.execute(select(AiTurn.round, AiTurn.phase, AiTurn.seat).where(AiTurn.game_id == game_id))).all()
    return {(r, p, seat) for r, p, seat in rows}


async def _game(db: Database, humans: int, ai: int, k: int = 0) -> int:
    game_id = await lobby(db, humans, ai_seats=ai, channel=2000 + k, first=1 + 10 * k, seed=f"turns-{k:04d}")
    await start_game(db, game_id)
    return game_id


@contextmanager
def counting(db: Database) -> Iterator[list[str]]:
    """The SQL statements run meanwhile."""
    seen: list[str] = []

    def note(conn: object, cursor: object, statement: str, *args: object) -> None:
        seen.append(statement)

    event.listen(db.engine.sync_engine, "before_cursor_execute", note)
    try:
        yield seen
    finally:
        event.remove(db.engine.sync_engine, "before_cursor_execute", note)


async def test_each_phase_plans_its_ai_turns_as_it_opens(db: Database) -> None:
    game_id = await _game(db, 4, 2)
    assert await _turns(db, game_id) == {(1, "day", 1), (1, "day", 2)}  # no tick needed
    await advance_phase(db, game_id)
    assert {t for t in await _turns(db, game_id) if t[1] == "dusk"} == {(1, "dusk", 1), (1, "dusk", 2)}


async def test_a_seat_handed_to_the_ai_gets_its_turn_at_once_or_at_the_resume(db: Database) -> None:
    game_id = await _game(db, 5, 1)
    await seat_to_ai(db, game_id, 2)
    assert await _turns(db, game_id) == {(1, "day", 1), (1, "day", 2)}
    await pause_game(db, game_id)
    await seat_to_ai(db, game_id, 3)
    assert (1, "day", 3) not in await _turns(db, game_id)  # paused: no clock to place it on
    await resume_game(db, game_id)
    assert (1, "day", 3) in await _turns(db, game_id)


async def test_an_idle_tick_reads_the_same_with_one_live_game_or_many(db: Database) -> None:
    await _game(db, 4, 2, k=0)
    await run_due(db)
    with counting(db) as one:
        report = await run_due(db)
    assert report.done.get("ai_played", []) == [] and report.advanced == []
    for k in range(1, 6):
        await _game(db, 4, 2, k=k)
    await run_due(db)
    with counting(db) as six:
        report = await run_due(db)
    assert report.done.get("ai_played", []) == [] and report.advanced == []
    assert six == one and one


async def test_the_turns_an_older_version_left_unplanned_are_planned_once(db: Database) -> None:
    game_id = await _game(db, 4, 2)
    other = await _game(db, 4, 2, k=1)
    async with db.transaction() as s:
        await s.execute(delete(AiTurn).where(AiTurn.game_id.in_([game_id, other])))
    async with db.transaction() as s:  # the other game's AI seat 2 has died meanwhile
        game = await locked_game(s, other)
        state = state_of(game)
        state.player(2).alive = False
        apply_state(game, state)
    assert await plan_missing(db) == 3
    assert await _turns(db, game_id) == {(1, "day", 1), (1, "day", 2)}
    assert await _turns(db, other) == {(1, "day", 1)}
    assert await plan_missing(db) == 0


async def test_a_phase_closed_before_the_ais_moment_has_its_ai_turns_played_first(db: Database) -> None:
    """A moderator's advance cuts the phase short: each AI seat's turn, its moment not yet
    come, is played in the advance's own unit of work (sent, not stale), and what it sent
    is what the night resolved."""
    from bot.db.models import GameStep, Submission

    game_id = await _game(db, 4, 2, k=7)
    await advance_phase(db, game_id)  # Day 1 closed at once: nobody's moment had come
    async with db.read() as s:
        day = (await s.execute(select(AiTurn.seat, AiTurn.outcome, AiTurn.played_at).where(AiTurn.game_id == game_id, AiTurn.phase == "day"))).all()
        sent = set((await s.execute(select(Submission.seat).where(Submission.game_id == game_id, Submission.user_id == 0, Submission.phase == "day"))).scalars())
        step = await s.scalar(select(GameStep).where(GameStep.game_id == game_id, GameStep.kind == "advance").order_by(GameStep.seq.desc()).limit(1))
    assert {seat for seat, *_ in day} == {1, 2}
    assert all(outcome == "sent" and played is not None for _, outcome, played in day), day
    assert sent == {1, 2}
    assert step is not None and {"1", "2"} <= set(step.inputs["submissions"])
