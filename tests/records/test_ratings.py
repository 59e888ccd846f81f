"""Ratings: OpenSkill Plackett–Luce over the factions, moved at each game's end; the
rebuild from the records (and the backfill of games that ended before records were
kept) lands on exactly the numbers written live, and running either again changes
nothing."""

from __future__ import annotations

import asyncio
from argparse import Namespace

import pytest
from sqlalchemy import delete, select

from bot.cli import db as db_cli
from bot.db.models import GameRecord, PlayerStanding, SeatRecord
from bot.db.session import Database
from bot.features.moderation.moderation import end_game
from bot.features.records.backfill import backfill
from bot.features.records.ratings import model, rebuild, shown, stored_matches_replay
from tests.conftest import FakeClock
from tests.records.helpers import snapshot
from tests.service.helpers import GUILD, play_to_end, started


async def _cli(args: Namespace) -> int:
    """``wolfhowl db ...`` as run from a shell (its own event loop)."""
    return await asyncio.to_thread(db_cli.run, args)


async def _play_games(db: Database, clock: FakeClock, n: int = 3) -> None:
    for i in range(n):
        game_id = await started(db, 6 + i, seed=f"ratings-{i}", channel=3000 + i)
        if i == 1:
            await end_game(db, game_id)  # a moderator's end is rated as well
        else:
            await play_to_end(db, game_id)
        clock.advance(3600)


async def test_ratings_move_by_faction_results(db: Database, clock: FakeClock) -> None:
    game_id = await started(db, 6, seed="ratings-one")
    await play_to_end(db, game_id)
    async with db.read() as s:
        game = (await s.execute(select(GameRecord))).scalar_one()
        seats = (await s.execute(select(SeatRecord))).scalars().all()
        standings = {r.user_id: r for r in (await s.execute(select(PlayerStanding))).scalars()}
    fresh = model().rating()
    top = max(game.scores.values())
    for seat in seats:
        st = standings[seat.user_id]
        assert (st.games, st.wins, st.guild_id) == (1, int(seat.result != "loss"), GUILD)
        assert st.rating == pytest.approx(shown(st.mu, st.sigma))
        assert st.sigma < fresh.sigma  # one game taught the model something about everyone
        if game.scores[seat.faction] == top:
            assert st.mu > fresh.mu
        elif game.scores[seat.faction] == min(game.scores.values()):
            assert st.mu < fresh.mu


async def test_rebuild_gives_the_same_numbers(db: Database, clock: FakeClock, capsys: pytest.CaptureFixture[str]) -> None:
    await _play_games(db, clock)
    live = await snapshot(db)
    assert len(live["standings"]) >= 6
    assert await stored_matches_replay(db) == []
    assert await rebuild(db) == len(live["standings"])
    assert await snapshot(db) == live
    # Through the command, twice: the same numbers each time.
    for _ in range(2):
        assert await _cli(Namespace(action="ratings", revision=None, url=db.engine.url.render_as_string(hide_password=False), rebuild=True)) == 0
        assert await snapshot(db) == live
    assert await _cli(Namespace(action="ratings", revision=None, url=db.engine.url.render_as_string(hide_password=False), rebuild=False)) == 0
    assert "matches" in capsys.readouterr().out
    # A standing changed by hand is found, and the rebuild puts it back.
    async with db.transaction() as s:
        row = (await s.execute(select(PlayerStanding).limit(1))).scalar_one()
        row.mu += 1
    assert len(await stored_matches_replay(db)) == 1
    await rebuild(db)
    assert await snapshot(db) == live


async def test_backfill_writes_what_the_end_wrote_and_twice_changes_nothing(
    db: Database, clock: FakeClock, capsys: pytest.CaptureFixture[str]
) -> None:
    await _play_games(db, clock)
    live = await snapshot(db)
    # The database as it was before records were kept.
    async with db.transaction() as s:
        await s.execute(delete(SeatRecord))
        await s.execute(delete(GameRecord))
        await s.execute(delete(PlayerStanding))
    assert (await snapshot(db))["seats"] == []
    assert await backfill(db) == 3
    assert await snapshot(db) == live
    assert await backfill(db) == 0
    assert await snapshot(db) == live
    url = db.engine.url.render_as_string(hide_password=False)
    assert await _cli(Namespace(action="backfill", revision=None, url=url, rebuild=False)) == 0
    assert "every finished game has its records" in capsys.readouterr().out
    assert await snapshot(db) == live


async def test_backfill_of_an_older_game_replays_the_ratings_in_order(db: Database, clock: FakeClock) -> None:
    """A game that ended before others already rated: the backfill's standings are a
    replay in the order the games ended, the same as if it had been recorded live."""
    await _play_games(db, clock)
    live = await snapshot(db)
    first = min(g[0] for g in live["games"])
    async with db.transaction() as s:
        await s.execute(delete(SeatRecord).where(SeatRecord.game_id == first))
        await s.execute(delete(GameRecord).where(GameRecord.game_id == first))
    assert await backfill(db) == 1
    assert await snapshot(db) == live
