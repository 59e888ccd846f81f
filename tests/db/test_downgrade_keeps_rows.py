"""A downgrade keeps the games or refuses before touching them, on both databases: the
steps that rebuild a table on SQLite keep its child rows (a step that drops them fails
this test), and a step that cannot hold today's data (AI seats before 0011) refuses up
front, naming the games, with nothing changed."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import text

from bot.db.migrate import DowngradeRefused, current, downgrade, head_revision, upgrade
from bot.db.session import Database
from tests.conftest import FakeClock
from tests.db.test_migrations import empty_pg_url  # noqa: F401 - the fixture
from tests.service.helpers import dealing_under, lobby, play_to_end, started

CHILDREN = ("game_players", "game_steps", "submissions", "outbox")


@pytest.fixture(params=["sqlite", "postgresql"])
def scratch_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return f"sqlite+aiosqlite:///{tmp_path / 'games.sqlite3'}"
    url: str = request.getfixturevalue("empty_pg_url")
    return url


async def counts(url: str) -> dict[str, int]:
    db = Database(url)
    try:
        async with db.read() as s:
            return {t: int((await s.execute(text(f"SELECT count(*) FROM {t}"))).scalar_one()) for t in CHILDREN}
    finally:
        await db.dispose()


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
        return [done, live, waiting]
    finally:
        await db.dispose()


async def test_a_downgrade_through_every_table_rebuild_keeps_the_games(scratch_url: str) -> None:
    await with_games(scratch_url)
    before = await counts(scratch_url)
    assert all(before.values()), before
    await downgrade(scratch_url, "0010")  # 0011 rebuilds game_records and game_players
    assert await counts(scratch_url) == before
    await downgrade(scratch_url, "0002")  # 0009 rebuilds games, the parent of them all
    assert await counts(scratch_url) == before
    await upgrade(scratch_url)  # and back up, with every row
    assert await counts(scratch_url) == before


async def test_a_downgrade_below_ai_seats_refuses_and_changes_nothing(scratch_url: str) -> None:
    _, live, _ = await with_games(scratch_url, ai_seats=2)
    before = await counts(scratch_url)
    with pytest.raises(DowngradeRefused, match=rf"games #{live} had AI seats.*nothing was changed"):
        await downgrade(scratch_url, "0002")
    assert await current(scratch_url) == head_revision()
    assert await counts(scratch_url) == before
