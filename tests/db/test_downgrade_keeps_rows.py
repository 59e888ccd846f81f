"""A downgrade keeps the games or refuses before touching them, on both databases: the
steps that rebuild a table on SQLite keep its child rows (a step that drops them fails
this test: every table the target schema has keeps its count), a step that cannot hold
today's data (AI seats before 0011) refuses up front, naming the games, with nothing
changed, and on SQLite a step that would leave rows without their parent is rolled back
whole (ForeignKeysBroken)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import inspect, text

from bot.db import parked_rows, parked_settings
from bot.db.migrate import (
    DowngradeRefused,
    ForeignKeysBroken,
    current,
    downgrade,
    head_revision,
    upgrade,
)
from bot.db.session import Database, make_engine
from bot.features.gallery.gallery import watch_game
from bot.features.gallery.predictions import predict
from bot.features.standbys.standbys import join_standby
from tests.conftest import FakeClock
from tests.service.helpers import dealing_under, lobby, play_to_end, sees, started, user

# The tables with_games fills (besides those it leaves empty), by the revision that made them.
FILLED = {
    "0001": ("games", "game_players", "game_steps", "submissions", "outbox", "users"),
    "0003": ("game_records", "seat_records", "player_standings"),
    "0010": ("standbys",),
    "0021": ("spectators",),
    "0022": ("predictions",),
}


async def counts(url: str) -> dict[str, int]:
    """Every table's rows (but alembic's own, and the settings a downgrade parks)."""
    eng = make_engine(url)
    try:
        async with eng.connect() as conn:
            tables = await conn.run_sync(lambda c: inspect(c).get_table_names())
            skip = {"alembic_version", parked_settings.TABLE, parked_rows.TABLE}
            return {t: int((await conn.execute(text(f"SELECT count(*) FROM {t}"))).scalar_one()) for t in tables if t not in skip}
    finally:
        await eng.dispose()


def kept(before: dict[str, int], after: dict[str, int]) -> dict[str, Any]:
    """The tables whose count changed, of those the schema now has (one the head does not
    have, such as the heartbeats before 0014, was empty)."""
    return {t: (before.get(t, 0), n) for t, n in after.items() if before.get(t, 0) != n}


async def with_games(url: str, *, ai_seats: int = 0, version: int = 1) -> list[int]:
    """A finished game, a live one (with ``ai_seats`` of its six) and a lobby, written
    by today's code, dealt under rules ``version`` (by default the first, which every
    release knows: no downgrade is refused for it)."""
    await upgrade(url)
    db = Database(url, clock=FakeClock())
    try:
        with dealing_under(version):
            done = await started(db, 6)
            await play_to_end(db, done)
            live = await started(db, 6 - ai_seats, channel=2001, first=20, ai_seats=ai_seats)
        waiting = await lobby(db, 3, channel=2002, first=40)
        await join_standby(db, live, user(60), await sees(db, live, user(60)))
        await watch_game(db, live, user(61), await sees(db, live, user(61)))
        await predict(db, live, user(61).id, "lawful")
        return [done, live, waiting]
    finally:
        await db.dispose()


async def test_a_downgrade_through_every_table_rebuild_keeps_the_games(empty_url: str) -> None:
    await with_games(empty_url)
    before = await counts(empty_url)
    assert all(before[t] for tables in FILLED.values() for t in tables), before
    await downgrade(empty_url, "0010")  # 0011 rebuilds game_records and game_players
    assert kept(before, await counts(empty_url)) == {}
    await downgrade(empty_url, "0002")  # 0009 rebuilds games, the parent of them all
    assert kept(before, await counts(empty_url)) == {}
    await upgrade(empty_url)  # and back up, with every row of the tables 0002 had
    dropped = {t: 0 for revision, tables in FILLED.items() if revision > "0002" for t in tables}
    assert await counts(empty_url) == before | dropped


async def test_a_downgrade_to_the_ai_seats_keeps_their_turns(empty_url: str) -> None:
    await with_games(empty_url, ai_seats=2)
    before = await counts(empty_url)
    assert before["ai_turns"] and before["game_players"], before
    await downgrade(empty_url, "0011")
    assert kept(before, await counts(empty_url)) == {}
    await upgrade(empty_url)
    assert kept(before, await counts(empty_url)) == {"spectators": (1, 0), "predictions": (1, 0)}


async def test_a_downgrade_that_would_orphan_rows_is_rolled_back_whole(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """On SQLite the foreign keys are off for a downgrade (so that a table rebuild keeps its
    children) and checked before the commit: a step that leaves rows without their parent
    (here 0021's, made to delete a game as well) raises ForeignKeysBroken, and none of the
    steps is kept, the ones before it included."""
    url = f"sqlite+aiosqlite:///{tmp_path / 'games.sqlite3'}"
    done, _, _ = await with_games(url)
    before = await counts(url)
    park = parked_settings.park

    def park_and_orphan(conn: Any, key: str) -> None:
        park(conn, key)
        conn.execute(text("DELETE FROM games WHERE id = :g"), {"g": done})

    monkeypatch.setattr(parked_settings, "park", park_and_orphan)
    with pytest.raises(ForeignKeysBroken, match=r"row\(s\) of .*game_players.* would lose their parent row; nothing was changed"):
        await downgrade(url, "0020")  # 0022 drops the predictions, then 0021 runs
    assert await current(url) == head_revision()
    assert await counts(url) == before


async def test_a_downgrade_below_ai_seats_refuses_and_changes_nothing(empty_url: str) -> None:
    _, live, _ = await with_games(empty_url, ai_seats=2)
    before = await counts(empty_url)
    with pytest.raises(DowngradeRefused, match=rf"games #{live} had AI seats.*nothing was changed"):
        await downgrade(empty_url, "0002")
    assert await current(empty_url) == head_revision()
    assert await counts(empty_url) == before
