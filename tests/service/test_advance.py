"""Advancing: one transaction writes the new state, the log step and every message;
public posts carry only public events; each player gets only their own."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import select

import engine
from bot.core import errors as E
from bot.core.advance import advance_phase
from bot.db import repositories as repo
from bot.db.models import GameStep
from bot.db.session import Database
from bot.features.lobby.games import get_game
from bot.features.play.commands import SendGrail, handle
from bot.features.replay.export import export_game
from tests.service.helpers import current_state, send_all, started, take_due, user


async def test_day_advance_writes_state_step_and_messages(db: Database, clock) -> None:
    game_id = await started(db, 6)
    await take_due(db, limit=100)  # the start's messages, out of the way
    for seat in range(1, 7):
        await handle(db, SendGrail(seat * 10), user(seat).id)
    clock.advance(5)
    result = await advance_phase(db, game_id, expected_round=1, expected_phase="day")
    assert (result.closed_round, result.closed_phase, result.round, result.phase) == (1, "day", 1, "dusk")
    assert result.seq == 2 and result.status == "running"
    info = await get_game(db, game_id)
    assert info.phase == "dusk" and info.version == 2
    assert info.deadline == clock.now + timedelta(seconds=info.settings.dusk_seconds)
    async with db.read() as s:
        step = (await s.execute(select(GameStep).where(GameStep.seq == 2))).scalar_one()
    assert step.kind == "advance" and step.inputs["submissions"]["3"] == [{"kind": "grail", "number": 30}]
    assert any(e["kind"] == "GrailAllocated" for e in step.events)
    msgs = await take_due(db, limit=100)
    # The Dusk's post, then its prompts, one to each living player.
    posts = [m for m in msgs if m.payload["type"] != "prompt"]
    assert posts[-1].payload["type"] == "phase_started" and posts[-1].payload["phase"] == "dusk"
    assert [m.payload["type"] for m in msgs[len(posts) :]] == ["prompt"] * 6
    # The mean is 35: seats 3 and 4 tie; the grail winner alone is told, by DM.
    won = [m for m in posts if m.recipient_kind == "user"]
    assert len(won) == 1 and won[0].payload["events"][0]["kind"] == "GrailWon"
    winner = next(p for p in info.players if p.user_id == won[0].recipient_id)
    assert winner.seat in (3, 4)
    for m in msgs:
        if m.recipient_kind == "channel":
            assert "number" not in str(m.payload) and "mean" not in str(m.payload)


async def test_messages_respect_audiences_through_a_game(db: Database) -> None:
    game_id = await started(db, 9, seed="audience-seed")
    for _ in range(6):
        await send_all(db, game_id)
        result = await advance_phase(db, game_id)
        if result.over:
            break
    info = await get_game(db, game_id)
    seat_of_user = {p.user_id: p.seat for p in info.players}
    for m in await take_due(db, limit=1000):
        for e in m.payload.get("events", []):
            assert e["audience"] != "audit"
            if m.recipient_kind == "channel":
                assert e["audience"] == "public" and e["kind"] in engine.events.PUBLIC_KINDS
            else:
                assert e["audience"] == "private" and e["seat"] == seat_of_user[m.recipient_id]


async def test_second_advance_of_the_same_phase_is_refused(db: Database) -> None:
    game_id = await started(db, 6)
    await advance_phase(db, game_id, expected_round=1, expected_phase="day")
    with pytest.raises(E.AlreadyAdvancedError) as err:
        await advance_phase(db, game_id, expected_round=1, expected_phase="day")
    assert err.value.params == {"round": 1, "phase": "phase.dusk"}
    assert (await get_game(db, game_id)).version == 2
    with pytest.raises(E.BadArgumentError):
        await advance_phase(db, game_id, expected_phase="night")


async def test_the_end_frees_everyone_and_reveals_the_seed(db: Database) -> None:
    from tests.service.helpers import play_to_end

    game_id = await started(db, 6, seed="ending-seed-1")
    await play_to_end(db, game_id)
    info = await get_game(db, game_id)
    assert info.status == "over" and info.deadline is None
    async with db.read() as s:
        assert await repo.live_membership(s, user(1).id) is None
        assert await repo.live_game_in_channel(s, info.channel_id) is None
    msgs = [m for m in await take_due(db, limit=1000) if m.payload["type"] != "prompt"]  # (each after its own phase's post)
    assert msgs[-1].payload == {"game_id": game_id, "type": "seed_revealed", "seed": "ending-seed-1", "seed_sha256": info.seed_sha256}
    with pytest.raises(E.GameFinishedError):
        await advance_phase(db, game_id)
    state = await current_state(db, game_id)
    assert state.over and (await export_game(db, game_id))["complete"]


async def test_export_before_the_end_shows_only_public_things(db: Database) -> None:
    game_id = await started(db, 6, seed="secret-seed-xyz")
    await send_all(db, game_id)
    await advance_phase(db, game_id)
    log = await export_game(db, game_id)
    text = str(log)
    assert log["game"]["seed"] is None and "secret-seed-xyz" not in text
    assert "class_id" not in text and "GrailAllocated" not in text
    with pytest.raises(E.GameNotFoundError):
        await export_game(db, 12345)
