"""Down and up again loses nothing: from the head, one revision at a time down to the
lowest the games allow and back up to the head, on both databases, every table keeps its
rows, every game its settings (the ones a downgrade takes out, which the earlier release
cannot read, come back: bot.db.parked_settings) and its state, a season its rows
(bot.db.parked_rows), and every finished game still verifies at the end.

Two sets of games, each a finished game, a live one and a lobby written by today's code:
dealt under today's rules version, which no release before its schema knows (the
downgrade stops there: below, it is refused), and dealt under version 1, which every
release knows, down to the oldest release's schema."""

from __future__ import annotations

import json
from typing import Any

import pytest
from alembic.script import ScriptDirectory
from sqlalchemy import inspect, text

import engine
from bot.core.time_zones import set_time_zone
from bot.core.types import UserRef
from bot.db.migrate import (
    DowngradeRefused,
    alembic_config,
    current,
    downgrade,
    head_revision,
    upgrade,
)
from bot.db.session import Database, make_engine
from bot.features.replay.export import export_game
from bot.features.replay.verify import verify_log
from bot.features.seasons.seasons import end_season, start_season
from tests.conftest import FakeClock
from tests.service.helpers import GUILD, dealing_under, lobby, play_to_end, started

# The oldest release the project supports going back to: ea0630b, schema 0002.
OLDEST = "0002"


async def snapshot(url: str) -> dict[str, Any]:
    """Every table's row count, and every game's settings and state."""
    eng = make_engine(url)
    try:
        async with eng.connect() as conn:
            tables = await conn.run_sync(lambda c: inspect(c).get_table_names())
            out: dict[str, Any] = {
                t: int((await conn.execute(text(f"SELECT count(*) FROM {t}"))).scalar_one()) for t in tables if t != "alembic_version"
            }
            load = lambda v: json.loads(v) if isinstance(v, str) else v  # noqa: E731 - SQLite hands JSON back as text
            for game_id, settings, state in (await conn.execute(text("SELECT id, settings, state FROM games ORDER BY id"))).all():
                out[f"game {game_id}"] = (load(settings), load(state))
            if "seasons" in tables:  # a season's rows whole, not only their count
                query = "SELECT id, number, name, started_at, ended_at, open_guild_id, summary FROM seasons ORDER BY id"
                out["seasons rows"] = [(*r[:-1], load(r[-1])) for r in (await conn.execute(text(query))).all()]
                query = "SELECT season_id, user_id, games, wins, mu, sigma FROM season_standings ORDER BY season_id, user_id"
                out["season standings rows"] = [tuple(r) for r in (await conn.execute(text(query))).all()]
                query = "SELECT id, guesses, guesses_right FROM seat_records ORDER BY id"
                out["guesses"] = [tuple(r) for r in (await conn.execute(text(query))).all()]
            columns = {c["name"] for c in await conn.run_sync(lambda c: inspect(c).get_columns("users"))}
            if "timezone" in columns:
                out["time zones"] = [tuple(r) for r in (await conn.execute(text("SELECT id, timezone FROM users ORDER BY id"))).all()]
            return out
    finally:
        await eng.dispose()


async def with_games(url: str, version: int) -> dict[str, int]:
    """A finished game, a live one and a lobby, dealt under ``version``, with settings
    that the downgrades through 0005 and 0019-0021 take out (killing_blow, min_reliability,
    uneven_tables, gallery: the seven-player tables are uneven)."""
    await upgrade(url)
    db = Database(url, clock=FakeClock())
    try:
        with dealing_under(version):
            done = await started(db, 7, min_reliability=30, gallery="open")
            await start_season(db, GUILD, UserRef(77, "mod"), "Spring")
            await play_to_end(db, done)  # counted in the season (0023 parks it on the way down)
            await end_season(db, GUILD, UserRef(77, "mod"), 2003)
            live = await started(
                db, 7, channel=2001, first=20, gallery="late", killing_blow="killer_takes", deadline_hours=(18, 2), deadline_zone="Asia/Shanghai"
            )
        await set_time_zone(db, UserRef(120, "x"), "Europe/Berlin")  # (0024 parks it on the way down)
        waiting = await lobby(db, 3, channel=2002, first=40, min_reliability=50, gallery="late", uneven_tables="compensate")
        return {"over": done, "running": live, "lobby": waiting}
    finally:
        await db.dispose()


def revisions_down_to(lowest: str) -> list[str]:
    """The revisions below the head, newest first, down to ``lowest``."""
    script = ScriptDirectory.from_config(alembic_config())
    out = [r.revision for r in script.iterate_revisions("head", lowest)]
    return out[1:]


async def round_trip(url: str, lowest: str, games: dict[str, int]) -> None:
    before = await snapshot(url)
    assert all(before[t] for t in ("games", "game_players", "game_steps", "submissions", "outbox", "seat_records", "game_records")), before
    for revision in revisions_down_to(lowest):
        await downgrade(url, revision)
        assert await current(url) == revision
    for revision in reversed([head_revision(), *revisions_down_to(lowest)][:-1]):
        await upgrade(url, revision)
        assert await current(url) == revision
    assert await snapshot(url) == before
    db = Database(url, clock=FakeClock())
    try:
        report = verify_log(await export_game(db, games["over"]))
        assert report.ok, report
        await play_to_end(db, games["running"])
        report = verify_log(await export_game(db, games["running"]))
        assert report.ok, report
    finally:
        await db.dispose()


async def test_today_s_games_go_down_to_the_first_schema_that_knows_their_rules_and_back(empty_url: str) -> None:
    games = await with_games(empty_url, engine.rules.CURRENT)
    lowest = engine.rules.versions()[engine.rules.CURRENT].schema
    await round_trip(empty_url, lowest, games)
    assert lowest == "0026"
    before = await snapshot(empty_url)
    with pytest.raises(DowngradeRefused, match=rf"cannot go below 0026: games #{games['over']}, #{games['running']} were dealt under rules version 7"):
        await downgrade(empty_url, "0025")
    assert await current(empty_url) == head_revision() and await snapshot(empty_url) == before


async def test_games_of_the_first_rules_go_down_to_the_oldest_release_and_back(empty_url: str) -> None:
    games = await with_games(empty_url, 1)
    await round_trip(empty_url, OLDEST, games)
