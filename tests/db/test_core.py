"""Core statements on a unit of work's connection (``bot.db.core``): the same rows as
through the ORM, in the unit's transaction, after the unit's pending changes."""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import select

from bot.db import core
from bot.db import repositories as repo
from bot.db.models import Game, GamePlayer, User
from bot.db.session import Database

NOW = datetime(2026, 1, 1, tzinfo=UTC)


async def _game_with_players(db: Database, names: list[str]) -> int:
    async with db.transaction() as s:
        game = Game(
            guild_id=1, channel_id=10, active_channel_id=10, moderator_id=1, settings={}, language="en-US",
            secret_seed="s", seed_sha256="h", status="lobby", round=0, version=0, notice_seq=0, created_at=NOW,
        )
        s.add(game)
        for i, name in enumerate(names, start=1):
            s.add(User(id=100 + i, display_name=name, created_at=NOW, updated_at=NOW))
        await s.flush()
        for i, name in enumerate(names, start=1):
            s.add(GamePlayer(game_id=game.id, user_id=100 + i, active_user_id=100 + i, display_name=name, status="lobby", joined_at=NOW))
        return game.id


async def test_rows_are_the_entities_columns(db: Database) -> None:
    game_id = await _game_with_players(db, ["ann", "bob"])
    async with db.read() as s:
        rows = await repo.game_players(s, game_id, rows=True)
        entities = await repo.game_players(s, game_id)
    columns = [c.key for c in GamePlayer.__table__.columns]
    assert [tuple(getattr(r, c) for c in columns) for r in rows] == [tuple(getattr(e, c) for c in columns) for e in entities]
    assert rows[0].joined_at == NOW and rows[0].joined_at.tzinfo is not None  # the column types' processing too


async def test_a_read_sees_the_units_unflushed_changes(db: Database) -> None:
    game_id = await _game_with_players(db, ["ann", "bob"])
    async with db.transaction() as s:
        ann = (await repo.game_players(s, game_id))[0]
        ann.display_name = "Anne"  # pending in the session, not flushed yet
        s.add(GamePlayer(game_id=game_id, user_id=None, display_name="cat", status="lobby", joined_at=NOW))
        rows = await repo.game_players(s, game_id, rows=True)
        assert [r.display_name for r in rows] == ["Anne", "bob", "cat"]


async def test_a_write_is_part_of_the_units_transaction(db: Database) -> None:
    game_id = await _game_with_players(db, ["ann"])
    stmt = GamePlayer.__table__.update().where(GamePlayer.__table__.c.game_id == game_id).values(display_name="gone")
    try:
        async with db.transaction() as s:
            assert (await core.execute(s, stmt)).rowcount == 1
            raise RuntimeError("the unit fails")
    except RuntimeError:
        pass
    async with db.read() as s:
        assert (await s.execute(select(GamePlayer.display_name))).scalars().all() == ["ann"]
    async with db.transaction() as s:
        await core.execute(s, stmt)
    async with db.read() as s:
        assert (await s.execute(select(GamePlayer.display_name))).scalars().all() == ["gone"]
