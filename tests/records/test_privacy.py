"""Privacy through the service: a hidden record is refused to others (not to its owner)
and leaves the leaderboard; forgetting takes the user out of every record while the
games keep their seats, and the ratings stay a replay of the records."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from bot.db.models import PlayerStanding, SeatRecord
from bot.db.session import Database
from bot.features.records.ratings import stored_matches_replay
from bot.features.stats.errors import NoRecordsError, PageOutOfRangeError, ProfileHiddenError
from bot.features.stats.leaderboard import leaderboard
from bot.features.stats.privacy import forget, set_hidden
from bot.features.stats.stats import player_stats
from tests.conftest import FakeClock
from tests.service.helpers import GUILD, play_to_end, started, user


async def test_hide_show_and_forget(db: Database, clock: FakeClock) -> None:
    for i in range(2):
        await play_to_end(db, await started(db, 6, seed=f"privacy-{i}", channel=4000 + i))
        clock.advance(3600)
    a, b = user(1).id, user(2).id
    await player_stats(db, b, a, GUILD)
    assert await set_hidden(db, a, True) and not await set_hidden(db, a, True)
    with pytest.raises(ProfileHiddenError):
        await player_stats(db, b, a, GUILD, name="Player1")
    assert (await player_stats(db, a, a, GUILD)).games == 2
    board = await leaderboard(db, GUILD, "games", viewer_id=a)
    assert a not in [r.user_id for r in board.rows] and board.own is None and board.total == 5
    with pytest.raises(PageOutOfRangeError):
        await leaderboard(db, GUILD, "games", page=2)
    assert await set_hidden(db, a, False)
    assert (await leaderboard(db, GUILD, "games")).total == 6

    assert await forget(db, a) == 2
    assert await forget(db, a) == 0
    with pytest.raises(NoRecordsError):
        await player_stats(db, a, a, GUILD)
    async with db.read() as s:
        seats = (await s.execute(select(SeatRecord))).scalars().all()
        rated = {r.user_id for r in (await s.execute(select(PlayerStanding))).scalars()}
    assert len(seats) == 12 and sum(r.user_id is None and r.name is None for r in seats) == 2
    assert a not in rated and len(rated) == 5
    assert await stored_matches_replay(db) == []
