"""A practice game in the service: one person and AI seats, in a DM, started at once; the
AI's turns due as the phase opens, the phase closed as soon as everyone has sent; played
to its end with no records; one at a time; stopped by its person only; nobody else's."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import select

from bot.core import errors as E
from bot.core.advance import advance_phase
from bot.core.policy import Action, Standing, require
from bot.db.models import AiTurn, Game, GameRecord, PlayerStanding, SeatRecord
from bot.db.session import Database
from bot.features.ai_seats.play import play_due
from bot.features.lobby.games import get_game
from bot.features.play.commands import SendSubmission, handle
from bot.features.practice.practice import (
    PRACTICE_GRACE,
    NoPracticeError,
    PracticePlayersError,
    PracticeRunningError,
    start_practice,
    stop_practice,
)
from tests.service.helpers import choice, count, current_state, started, user

DM = 7001


async def test_a_practice_game_starts_at_once_and_closes_each_phase_when_all_have_sent(db: Database) -> None:
    pat = user(1)
    info = await start_practice(db, pat, DM, players=7, language="zh-CN")
    assert (info.guild_id, info.channel_id, info.moderator_id, info.status, info.phase) == (None, DM, pat.id, "running", "day")
    assert [p.user_id for p in info.players] == [pat.id] + [0] * 6  # 0: an AI seat, as GameInfo shows it
    assert info.settings.language == "zh-CN" and info.settings.early_advance and info.settings.dusk_grace_seconds == PRACTICE_GRACE
    assert info.deadline is not None and (info.deadline - db.now()).total_seconds() >= 86400
    async with db.read() as s:
        due = [t.due_at for t in (await s.scalars(select(AiTurn).where(AiTurn.game_id == info.id))).all()]
    assert len(due) == 6 and all(d <= db.now() for d in due)  # the AI has decided as the phase opens
    steps = 0
    while (info := await get_game(db, info.id)).status == "running":
        state = await current_state(db, info.id)
        sub = choice(state, 1)
        if sub is not None:
            await handle(db, SendSubmission(sub), pat.id, game_id=info.id)
        await play_due(db)
        grace = PRACTICE_GRACE if info.phase == "dusk" else 0  # a piece may still follow the orders
        assert (await get_game(db, info.id)).deadline == db.now() + timedelta(seconds=grace), (info.round, info.phase)  # closed early
        await advance_phase(db, info.id)
        steps += 1
        assert steps < 200
    assert info.status == "over"
    assert await count(db, GameRecord) == await count(db, SeatRecord) == await count(db, PlayerStanding) == 0


async def test_only_its_person_sees_and_runs_a_practice_game(db: Database) -> None:
    info = await start_practice(db, user(1), DM)
    require(Action.MODERATE, Standing.stranger(user(1).id), info)  # their DM's game: theirs to run
    with pytest.raises(E.ServiceError):
        require(Action.SEE_TABLE, Standing.member_of(user(2).id, 1000, (DM,), moderator=True), info)
    with pytest.raises(NoPracticeError):
        await stop_practice(db, user(2).id)


async def test_one_at_a_time_bad_tables_and_stop(db: Database) -> None:
    for players in (5, 16, True):
        with pytest.raises(PracticePlayersError):
            await start_practice(db, user(1), DM, players=players)  # type: ignore[arg-type]
    info = await start_practice(db, user(1), DM)
    with pytest.raises(PracticeRunningError):
        await start_practice(db, user(1), DM)
    stopped = await stop_practice(db, user(1).id)
    assert stopped.id == info.id and stopped.status == "cancelled"
    with pytest.raises(NoPracticeError):
        await stop_practice(db, user(1).id)
    assert await count(db, GameRecord) == 0
    again = await start_practice(db, user(1), DM)  # the DM's channel is free again
    assert again.id != info.id


async def test_a_player_of_a_servers_game_cannot_practise_nor_stop_that_game(db: Database) -> None:
    game_id = await started(db, 6)
    with pytest.raises(E.AlreadyInGameError) as refused:
        await start_practice(db, user(1), DM)
    assert not isinstance(refused.value, PracticeRunningError)
    with pytest.raises(NoPracticeError):
        await stop_practice(db, user(1).id)
    async with db.read() as s:
        assert (await s.get(Game, game_id)).status == "running"  # type: ignore[union-attr]
