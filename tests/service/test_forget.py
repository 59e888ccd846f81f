"""``/stats forget`` through the service: the name leaves every game the player finished
(the history, the exported log, the replay page, the records, every stored row of the
game), each seat keeps its number, class and story as "a former player", the log still
verifies, and a player still in a game that has not ended is refused."""

from __future__ import annotations

import json

import pytest
from sqlalchemy import select, update

from bot.core.policy import Standing
from bot.db.models import Base, GamePlayer, SeatRecord, User
from bot.db.session import Database
from bot.features.history.history import game_history
from bot.features.history.look import game_line
from bot.features.moderation.moderation import replace_player
from bot.features.replay.export import export_finished, log_bytes
from bot.features.replay.look import replay_html
from bot.features.replay.verify import verify_log
from bot.features.stats.errors import ForgetWhilePlayingError
from bot.features.stats.privacy import FORGOTTEN_NAME, NAME_KEYS, forget, forget_leftovers
from bot.render.refusals import service_refusal
from tests.conftest import FakeClock
from tests.service.helpers import GUILD, current_state, play_to_end, sees, started, user


async def stored_text(db: Database) -> str:
    """Every row of every table the games keep, as text (the ``users`` row, a user's
    name as last seen, is no game's record and is left out)."""
    out = []
    async with db.read() as s:
        for table in Base.metadata.sorted_tables:
            if table.name != User.__tablename__:
                out += [json.dumps(list(row), default=str, ensure_ascii=False) for row in (await s.execute(select(table))).all()]
    return "\n".join(out)


def unnamed(value: object) -> object:
    """Stored JSON without the names a seat is given."""
    if isinstance(value, list):
        return [unnamed(v) for v in value]
    if isinstance(value, dict):
        return {k: unnamed(v) for k, v in value.items() if k not in NAME_KEYS}
    return value


def seat_of(log: dict[str, object], name: str) -> int:
    return next(int(p["seat"]) for p in log["players"] if p["name"] == name)  # type: ignore[attr-defined, index]


async def test_forgetting_takes_the_name_out_of_every_finished_game(db: Database, clock: FakeClock) -> None:
    games = []
    for i in range(2):
        games.append(await started(db, 6, seed=f"forget-{i}", channel=4000 + i))
        await play_to_end(db, games[-1])
        clock.advance(3600)
    bob = user(2)
    seats = {g: seat_of(await export_finished(db, g), bob.name) for g in games}
    before = {g: await export_finished(db, g) for g in games}
    assert bob.name in await stored_text(db)

    assert await forget(db, bob.id) == 2

    assert bob.name not in await stored_text(db)  # no table of any game keeps it
    page = await game_history(db, Standing.member_of(1, GUILD), GUILD)
    for g in page.games:
        assert bob.name not in g.players and g.players[seats[g.id] - 1] == FORGOTTEN_NAME
        assert user(1).name in g.players  # the others keep theirs
        line = game_line(g, "en-US")
        assert bob.name not in line and "a former player" in line
        assert "一位前玩家" in game_line(g, "zh-CN")
    for g in games:
        log = await export_finished(db, g)
        text = log_bytes(log).decode()
        assert bob.name not in text and f'"user_id": {bob.id}' not in text
        assert verify_log(log).ok, verify_log(log).summary()
        # The story is whole: the same steps, events and rolls, only the name changed.
        assert len(log["steps"]) == len(before[g]["steps"])
        assert [unnamed(st["events"]) for st in log["steps"]] == [unnamed(st["events"]) for st in before[g]["steps"]]
        assert [st["rolls"] for st in log["steps"]] == [st["rolls"] for st in before[g]["steps"]]
        final = log["steps"][-1]["state"]["players"][seats[g] - 1]
        assert final["name"] == FORGOTTEN_NAME and final["class_id"] == before[g]["steps"][-1]["state"]["players"][seats[g] - 1]["class_id"]
        html = replay_html(log, "en-US")
        assert bob.name not in html and "a former player" in html and user(1).name in html
        assert bob.name not in replay_html(log, "zh-CN") and "一位前玩家" in replay_html(log, "zh-CN")
    async with db.read() as s:
        records = (await s.execute(select(SeatRecord))).scalars().all()
        members = (await s.execute(select(GamePlayer).where(GamePlayer.display_name == FORGOTTEN_NAME))).scalars().all()
    assert [(r.user_id, r.name) for r in records if r.seat == seats[r.game_id] and r.game_id in games] == [(None, None)] * 2
    assert sorted((m.game_id, m.former_seat if m.seat is None else m.seat, m.user_id) for m in members) == sorted((g, seats[g], None) for g in games)
    assert await forget(db, bob.id) == 0


async def test_a_replaced_holder_is_forgotten_without_the_seats_next_holder(db: Database) -> None:
    game = await started(db, 6, seed="forget-replaced")
    state = await current_state(db, game)
    seat = next(p.seat for p in state.players if p.name == user(3).name)
    newcomer = user(40)
    await replace_player(db, game, seat, newcomer, await sees(db, game, newcomer))
    await play_to_end(db, game)

    await forget(db, user(3).id)
    log = await export_finished(db, game)
    text = log_bytes(log).decode()
    assert user(3).name not in text and newcomer.name in text and user(3).name not in await stored_text(db)
    assert verify_log(log).ok, verify_log(log).summary()
    assert log["steps"][0]["inputs"]["names"][seat - 1] == FORGOTTEN_NAME
    assert log["steps"][-1]["state"]["players"][seat - 1]["name"] == newcomer.name
    html = replay_html(log, "en-US")
    assert user(3).name not in html and "a former player" in html and newcomer.name in html

    await forget(db, newcomer.id)  # and then the one who took the seat over
    log = await export_finished(db, game)
    assert newcomer.name not in log_bytes(log).decode() and newcomer.name not in await stored_text(db)
    assert log["steps"][-1]["state"]["players"][seat - 1]["name"] == FORGOTTEN_NAME
    assert verify_log(log).ok, verify_log(log).summary()


async def test_a_player_in_a_game_that_has_not_ended_is_refused(db: Database) -> None:
    done = await started(db, 6, seed="forget-done")
    await play_to_end(db, done)
    live = await started(db, 6, seed="forget-live", channel=4100)
    before = await stored_text(db)
    with pytest.raises(ForgetWhilePlayingError) as refused:
        await forget(db, user(2).id)
    assert refused.value.params == {"game": live}
    assert "game #" in service_refusal(refused.value, "en-US") and f"第{live}局" in service_refusal(refused.value, "zh-CN")
    assert await stored_text(db) == before  # nothing forgotten, not even the finished game
    await play_to_end(db, live)
    assert await forget(db, user(2).id) == 2
    assert user(2).name not in await stored_text(db)


async def test_a_player_forgotten_before_the_games_were_is_taken_out_of_those_games_alone(db: Database, clock: FakeClock) -> None:
    """Someone who ran /stats forget before forgetting reached the games: their records
    were blanked, their games still named them. The upgrade finishes the job for those
    games, and leaves the games they played since as they are."""
    bob = user(2)
    old = await started(db, 6, seed="forget-old", channel=4100)
    await play_to_end(db, old)
    async with db.transaction() as s:  # the forgetting of before: the records alone
        await s.execute(update(SeatRecord).where(SeatRecord.user_id == bob.id).values(user_id=None, name=None))
    clock.advance(3600)
    since = await started(db, 6, seed="forget-new", channel=4101)
    await play_to_end(db, since)
    assert bob.name in log_bytes(await export_finished(db, old)).decode()

    assert await forget_leftovers(db) == 1
    old_log = await export_finished(db, old)
    assert bob.name not in log_bytes(old_log).decode() and verify_log(old_log).ok
    assert bob.name in log_bytes(await export_finished(db, since)).decode()  # played after: kept
    assert await forget_leftovers(db) == 0  # done once
