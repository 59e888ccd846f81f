"""/game history's reading: a server's games that are over, newest first, a page at a
time; never a live game, never another server's; on its index."""

from __future__ import annotations

import pytest
from sqlalchemy import text

from bot.core.access_errors import NotServerMemberError
from bot.core.errors import BadArgumentError
from bot.core.policy import Standing
from bot.core.types import GameSettings, UserRef
from bot.db.repos.games import finished_games_statement
from bot.db.session import Database
from bot.features.history.history import game_history
from bot.features.lobby.games import create_game, join_game, start_game
from tests.conftest import FakeClock
from tests.service.helpers import GUILD, MODERATOR, current_state, play_to_end, sees, started

OTHER_GUILD = 1001


async def test_the_servers_finished_games_newest_first_and_paged(db: Database, clock: FakeClock):
    first = await started(db, 6, channel=2001)
    await play_to_end(db, first)
    clock.advance(3600)
    second = await started(db, 6, channel=2002, first=20, seed="test-seed-0002")
    await play_to_end(db, second)
    live = await started(db, 6, channel=2003, first=40)
    elsewhere = await create_game(db, guild_id=OTHER_GUILD, channel_id=2004, moderator=MODERATOR, settings=GameSettings.build())
    for i in range(6):
        await join_game(db, elsewhere.id, UserRef(300 + i, f"Far{i}"), await sees(db, elsewhere.id, UserRef(300 + i, f"Far{i}")))
    await start_game(db, elsewhere.id)
    await play_to_end(db, elsewhere.id)

    page = await game_history(db, Standing.member_of(1, GUILD), GUILD)
    assert [g.id for g in page.games] == [second, first] and (page.page, page.pages, page.total) == (1, 1, 2)
    newest = page.games[0]
    final = await current_state(db, second)
    assert newest.players == tuple(p.name for p in final.players) and newest.players[0] == "Player20"
    assert newest.winners == tuple(final.winners) and newest.rounds == final.round
    assert newest.ended_at is not None and newest.end_reason == final.end_reason
    assert live not in [g.id for g in page.games]  # a live game is never listed

    one = await game_history(db, Standing.member_of(1, GUILD), GUILD, page=2, per_page=1)
    assert [g.id for g in one.games] == [first] and (one.page, one.pages, one.total) == (2, 2, 2)
    with pytest.raises(BadArgumentError):
        await game_history(db, Standing.member_of(1, GUILD), GUILD, page=3, per_page=1)
    with pytest.raises(BadArgumentError):
        await game_history(db, Standing.member_of(1, GUILD), GUILD, page=0)
    assert [g.id for g in (await game_history(db, Standing.member_of(1, OTHER_GUILD), OTHER_GUILD)).games] == [elsewhere.id]
    empty = await game_history(db, Standing.member_of(1, 4242), 4242)
    assert empty.games == () and (empty.page, empty.pages, empty.total) == (1, 1, 0)
    # A server's games are for its members (the access policy's see_board): a stranger,
    # or a member of another server, is refused, whatever server they name.
    for standing in (Standing.stranger(1, GUILD), Standing.member_of(1, OTHER_GUILD)):
        with pytest.raises(NotServerMemberError):
            await game_history(db, standing, GUILD)


async def test_the_history_is_read_on_its_index(db: Database):
    query = finished_games_statement(GUILD).limit(10)
    async with db.read() as s:
        compiled = query.compile(s.bind, compile_kwargs={"literal_binds": True})
        if db.dialect == "postgresql":
            await s.execute(text("SET LOCAL enable_seqscan = off"))
            plan = " ".join(r[0] for r in (await s.execute(text(f"EXPLAIN {compiled}"))).all())
        else:
            plan = " ".join(str(r[-1]) for r in (await s.execute(text(f"EXPLAIN QUERY PLAN {compiled}"))).all())
    assert "ix_games_history" in plan, plan
