"""A moderator's early end: scored like a natural end, written as an ``end`` step with
the scoreboard and the seed, replayed by verify; refused in the lobby and after the end.
And every events post names the step that produced it."""

from __future__ import annotations

import asyncio
import json
from argparse import Namespace
from pathlib import Path

import pytest

from bot.cli import verify
from bot.core import errors as E
from bot.core.advance import advance_phase
from bot.core.table import Place
from bot.core.views import game_info
from bot.db.models import GameStep, OutboxMessage
from bot.db.session import Database
from bot.features.lobby.games import create_game, get_game, join_game
from bot.features.moderation.moderation import cancel_game, end_game, pause_game, remove_player
from bot.features.play.commands import SendGrail, handle
from bot.features.replay.export import export_game
from bot.features.replay.verify import verify_log
from tests.service.helpers import (
    CHANNEL,
    GUILD,
    MODERATOR,
    count,
    lobby,
    play_to_end,
    sees,
    send_all,
    started,
    take_due,
    user,
)


async def test_an_early_end_is_scored_logged_announced_and_verified(db: Database, tmp_path: Path) -> None:
    game_id = await started(db, 7, seed="end-seed-01")
    for _ in range(3):  # into round 2's Day
        await send_all(db, game_id)
        await advance_phase(db, game_id)
    await handle(db, SendGrail(50), user(1).id)  # sent in the open phase: not resolved
    await take_due(db, limit=1000)
    result = await end_game(db, game_id)
    assert (result.kind, result.status, result.over) == ("end", "over", True)
    assert (result.closed_round, result.closed_phase) == (2, "day")
    ended = [e for e in result.events if e["kind"] == "GameEnded"]
    assert len(ended) == 1 and ended[0]["data"]["reason"] == "stopped"
    info = await get_game(db, game_id)
    assert info.status == "over" and info.winners and info.deadline is None
    assert list(info.winners) == ended[0]["data"]["winners"]
    # The scoreboard post (step "end") and the seed, as a natural end sends them.
    mail = await take_due(db, limit=1000)
    # ...and each player's own ending, by DM.
    assert [(m.recipient_kind, m.payload["type"]) for m in mail] == [("channel", "events"), *[("user", "ending")] * 7, ("channel", "seed_revealed")]
    assert sorted(m.recipient_id for m in mail if m.recipient_kind == "user") == [user(i).id for i in range(1, 8)]
    assert mail[0].payload["step"] == "end" and mail[0].payload["events"][-1]["kind"] == "GameEnded"
    assert all(e["audience"] == "public" for e in mail[0].payload["events"])
    assert mail[-1].payload["seed"] == "end-seed-01"
    # Everyone is free: the players may join another game, the channel may host one.
    with pytest.raises(E.NoActiveGameError):
        await game_info(db, Place.of(user(1).id))
    again = await create_game(db, guild_id=GUILD, channel_id=CHANNEL, moderator=MODERATOR)
    await join_game(db, again.id, user(1), await sees(db, again.id, user(1)))
    # The log replays, the end step included; a tampered end is caught.
    log = await export_game(db, game_id)
    assert log["game"]["end_reason"] == "stopped" and log["steps"][-1]["kind"] == "end"
    report = verify_log(log)
    assert report.ok and report.steps == 5, report.mismatch
    path = tmp_path / "log.json"
    path.write_text(json.dumps(log))
    assert verify.run(Namespace(log=path)) == 0
    log["steps"][-1]["events"][-1]["data"]["winners"] = ["nobody"]
    bad = verify_log(log)
    assert not bad.ok and "end" in (bad.mismatch or "")
    # Over: a second end is refused, writing nothing.
    steps = await count(db, GameStep)
    with pytest.raises(E.GameFinishedError):
        await end_game(db, game_id)
    assert await count(db, GameStep) == steps


async def test_a_paused_game_can_be_ended_a_lobby_cannot(db: Database) -> None:
    game_id = await started(db, 6)
    await pause_game(db, game_id)
    result = await end_game(db, game_id)
    info = await get_game(db, game_id)
    assert result.status == info.status == "over" and info.paused_remaining is None
    lobby_id = await lobby(db, 6, channel=CHANNEL + 1, first=20)
    messages = await count(db, OutboxMessage)
    with pytest.raises(E.GameNotRunningError) as err:
        await end_game(db, lobby_id)
    assert type(err.value) is E.GameNotRunningError
    info = await get_game(db, lobby_id)
    assert (info.status, info.version) == ("lobby", 0) and await count(db, OutboxMessage) == messages
    await cancel_game(db, lobby_id)  # what /mod end does in a lobby
    with pytest.raises(E.GameFinishedError):
        await end_game(db, lobby_id)
    with pytest.raises(E.GameNotFoundError):
        await end_game(db, 999)


async def test_an_end_racing_an_advance_makes_one_consistent_log(db: Database) -> None:
    for trial in range(3):
        game_id = await started(db, 6, channel=CHANNEL + trial, first=10 * trial + 1, seed=f"end-race-{trial}")
        results = await asyncio.gather(
            advance_phase(db, game_id, expected_round=1, expected_phase="day"),
            end_game(db, game_id),
            return_exceptions=True,
        )
        kinds = sorted(type(r).__name__ for r in results)
        assert kinds in (["StepResult", "StepResult"], ["GameFinishedError", "StepResult"]), results
        info = await get_game(db, game_id)
        assert info.status == "over"
        log = await export_game(db, game_id)
        assert log["steps"][-1]["kind"] == "end" or isinstance(results[0], Exception)
        assert verify_log(log).ok


async def test_every_events_post_names_its_step(db: Database) -> None:
    game_id = await started(db, 7, seed="step-seed-01")
    await remove_player(db, game_id, 7)
    await play_to_end(db, game_id)
    steps = {m.payload.get("step") for m in await take_due(db, limit=1000) if m.payload["type"] == "events"}
    assert steps == {"remove", "advance"}
    other = await started(db, 6, channel=CHANNEL + 9, first=30, seed="step-seed-02")
    await take_due(db, limit=1000)
    await end_game(db, other)
    assert {m.payload.get("step") for m in await take_due(db, limit=1000) if m.payload["type"] == "events"} == {"end"}
