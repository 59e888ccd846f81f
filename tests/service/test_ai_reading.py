"""An AI seat reads at each turn only the messages newer than those it read at its last
(``ai_play.seat_knowledge``): over whole seeded games, through a seat handed to the AI,
an AI seat taken by a newcomer and handed back, and a restart, every turn's Knowledge is
the one a full reading of everything the seat was told builds (``knowledge_from``)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from sqlalchemy import select

from bot.ai.knowledge import Knowledge
from bot.core.deadlines import run_due
from bot.core.rules import state_of
from bot.db.models import AiTurn
from bot.db.session import Database
from bot.features.ai_seats import play as ai_play
from bot.features.ai_seats.ai_seats import seat_to_ai
from bot.features.ai_seats.play import knowledge_from, readings_of, seat_holders, seat_reading
from bot.features.lobby.games import get_game, start_game
from bot.features.moderation.moderation import replace_player
from bot.features.play.commands import SendSubmission, handle
from bot.features.practice.practice import start_practice
from tests.conftest import FakeClock
from tests.service.helpers import choice, current_state, lobby, locked_game, sees, user


def values(k: Knowledge) -> dict[str, Any]:
    """Everything a Knowledge holds (its list of the living others is a cache)."""
    return {name: getattr(k, name) for name in Knowledge.__slots__ if name != "_others"}


class Compared:
    """Each AI turn's Knowledge compared with a full reading's; how many turns read on
    from a kept reading and how many read everything."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.kept = self.whole = 0
        original = ai_play.seat_knowledge

        async def both(s: Any, game: Any, seat: int, state: Any) -> Knowledge:
            had = readings_of(s).get(game.id, seat, (game.secret_seed, await seat_holders(s, game.id, seat)))
            k = await original(s, game, seat, state)
            full = knowledge_from(await seat_reading(s, game, seat), game.round, str(game.phase))
            assert values(k) == values(full), (game.id, game.round, game.phase, seat)
            if had is None:
                self.whole += 1
            else:
                self.kept += 1
            return k

        monkeypatch.setattr(ai_play, "seat_knowledge", both)


async def play(db: Database, clock: FakeClock, game_id: int, at: Callable[[int, str], Awaitable[Database | None]] | None = None) -> Database:
    """Humans send at once, the clock moves on to what is due next and the scheduler's
    tick plays the AI and closes the phases, to the game's end. ``at(round, phase)``,
    as each phase opens, may hand seats over, or restart (return the new handle)."""
    last = None
    for _ in range(800):
        info = await get_game(db, game_id)
        if info.status != "running":
            return db
        if (info.round, info.phase) != last:
            last = (info.round, info.phase)
            if at is not None:
                db = await at(info.round, str(info.phase)) or db
                info = await get_game(db, game_id)
            state = await current_state(db, game_id)
            for p in info.players:
                if p.seat is not None and p.user_id and (sub := choice(state, p.seat)) is not None:
                    await handle(db, SendSubmission(sub), p.user_id, game_id=game_id)
        await run_due(db)
        info = await get_game(db, game_id)
        wake = min(t for t in (info.deadline, await ai_play.next_due(db)) if t is not None) if info.deadline else None
        if wake is not None and wake > clock():
            clock.advance((wake - clock()).total_seconds())
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("seed", ["reading-01", "reading-02"])
async def test_a_practice_game_reads_on_from_its_last_turn_as_a_full_reading_would(db: Database, clock: FakeClock, monkeypatch, seed) -> None:
    from bot.sandbox.play_table import seeded_games

    compared = Compared(monkeypatch)
    with seeded_games(seed):
        info = await start_practice(db, user(1), 7001, players=8)
    await play(db, clock, info.id)
    assert compared.whole == 7  # each AI seat read everything once, at its first turn
    assert compared.kept > 7 * 4


@pytest.mark.parametrize("seed", ["reading-hand-1", "reading-hand-2"])
async def test_hand_overs_and_a_restart_read_everything_again_then_on(db: Database, db_url: str, clock: FakeClock, monkeypatch, seed) -> None:
    compared = Compared(monkeypatch)
    game_id = await lobby(db, 4, ai_seats=3, seed=seed)
    await start_game(db, game_id)
    handles: list[Database] = []
    seen: dict[str, int] = {}

    async def at(round_no: int, phase: str) -> Database | None:
        info = await get_game(db if not handles else handles[-1], game_id)
        here = handles[-1] if handles else db
        living = [p for p in info.players if p.seat is not None and (await current_state(here, game_id)).player(p.seat).alive]
        if (round_no, phase) == (1, "dusk"):  # a person's seat goes to the AI: it reads their DMs
            human = next(p for p in living if p.user_id)
            await seat_to_ai(here, game_id, human.seat)
            seen["handed"] = compared.whole
        elif (round_no, phase) == (2, "day"):  # an AI seat goes to a newcomer...
            ai = next(p for p in living if not p.user_id)
            await replace_player(here, game_id, ai.seat, user(50), await sees(here, game_id, user(50)))
            seen["seat"] = ai.seat
        elif (round_no, phase) == (2, "dusk") and "seat" in seen:  # ...and back to the AI
            if (await current_state(here, game_id)).player(seen["seat"]).alive:
                await seat_to_ai(here, game_id, seen["seat"])
        elif (round_no, phase) == (3, "day"):  # a restart: the new process has kept nothing
            seen["restart"] = compared.whole
            handles.append(Database(db_url, clock=clock))
            return handles[-1]
        return None

    try:
        end = await play(db, clock, game_id, at)
        async with end.read() as s:
            played = (await s.scalars(select(AiTurn).where(AiTurn.game_id == game_id, AiTurn.outcome == "sent"))).all()
    finally:
        for h in handles:
            await h.dispose()
    assert handles, "the game ended before the restart"
    assert compared.kept > 0 and compared.whole > seen["restart"] > seen["handed"] >= 3
    assert compared.kept + compared.whole == len(played)


async def test_a_reading_in_a_unit_of_work_rolled_back_is_not_kept(db: Database) -> None:
    game_id = await lobby(db, 4, ai_seats=2, seed="reading-rollback")
    await start_game(db, game_id)

    async def kept() -> int:
        async with db.read() as s:
            return len(readings_of(s).seats)

    with pytest.raises(RuntimeError):
        async with db.transaction() as s:
            game = await locked_game(s, game_id)
            await ai_play.seat_knowledge(s, game, 1, state_of(game))
            raise RuntimeError("rolled back")
    assert await kept() == 0
    async with db.transaction() as s:
        game = await locked_game(s, game_id)
        await ai_play.seat_knowledge(s, game, 1, state_of(game))
    assert await kept() == 1
