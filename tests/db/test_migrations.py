"""Schema and migrations on both databases: an empty database upgrades to head and
downgrades back, one revision at a time too; the models and the migrations agree
(autogenerate finds nothing); shards migrating at once on PostgreSQL take turns."""

from __future__ import annotations

import asyncio
import uuid
from argparse import Namespace
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import inspect, text
from sqlalchemy.engine import Inspector

from bot.cli import db as db_cli
from bot.core.types import UserRef
from bot.db.migrate import current, downgrade, head_revision, upgrade
from bot.db.models import Base
from bot.db.session import Database, make_engine
from bot.features.practice.practice import start_practice
from tests.conftest import FakeClock
from tests.service.helpers import dealing_under

TABLES = {"users", "games", "game_players", "submissions", "game_steps", "outbox", "processes"}


async def _inspect(url: str, read: Callable[[Inspector], Any]) -> Any:
    """What ``read`` finds in the schema at ``url``."""
    engine = make_engine(url)
    try:
        async with engine.connect() as conn:
            return await conn.run_sync(lambda c: read(inspect(c)))
    finally:
        await engine.dispose()


async def _tables(url: str) -> set[str]:
    return set(await _inspect(url, lambda i: i.get_table_names()))


async def _columns(url: str, table: str) -> set[str]:
    return {c["name"] for c in await _inspect(url, lambda i: i.get_columns(table))}


async def _indexes(url: str, table: str) -> set[str]:
    return {x["name"] for x in await _inspect(url, lambda i: i.get_indexes(table))}


async def test_upgrade_to_head_and_back(empty_url: str) -> None:
    assert await current(empty_url) is None
    await upgrade(empty_url)
    assert await current(empty_url) == head_revision()
    assert await _tables(empty_url) >= TABLES
    await upgrade(empty_url)  # a second upgrade is a no-op
    await downgrade(empty_url, "base")
    assert await current(empty_url) is None
    assert not (TABLES & await _tables(empty_url))
    await upgrade(empty_url)
    assert await _tables(empty_url) >= TABLES


async def test_0003_adds_and_drops_the_records(empty_url: str) -> None:
    records = {"game_records", "seat_records", "player_standings", "player_profiles"}
    await upgrade(empty_url, "0002")
    assert not (records & await _tables(empty_url))
    await upgrade(empty_url, "0003")
    assert records <= await _tables(empty_url)
    assert {"user_id", "ai", "fate", "faction_score"} <= await _columns(empty_url, "seat_records")
    await downgrade(empty_url, "0002")
    assert not (records & await _tables(empty_url))


async def test_0002_adds_and_drops_the_discord_message_id(empty_url: str) -> None:
    await upgrade(empty_url, "0001")
    assert "discord_message_id" not in await _columns(empty_url, "outbox")
    await upgrade(empty_url, "0002")
    assert await current(empty_url) == "0002"
    assert {"discord_message_id", "read_at"} <= await _columns(empty_url, "outbox")
    await downgrade(empty_url, "-1")
    assert await current(empty_url) == "0001"
    columns = await _columns(empty_url, "outbox")
    assert "discord_message_id" not in columns and "read_at" in columns


async def test_0005_gives_the_games_already_there_the_rulings_they_were_set_up_under(empty_url: str) -> None:
    """A game created before house rules existed keeps today's rulings (the killer takes
    a carried grail, departures at dawn, the vote's damage named); a new game takes the
    rules' defaults. Going back removes the keys the earlier code does not know."""
    import json

    import sqlalchemy as sa

    from bot.core.types import GameSettings

    await upgrade(empty_url, "0004")
    engine = make_engine(empty_url)
    old = {"max_players": 8, "vote_tie_rule": "all"}
    columns = "guild_id, channel_id, moderator_id, settings, language, secret_seed, seed_sha256, status, round, version, notice_seq, created_at"
    try:
        async with engine.begin() as conn:
            await conn.execute(
                sa.text(f"INSERT INTO games ({columns}) VALUES (1, 2, 3, :s, 'en-US', 'x', 'y', 'running', 1, 1, 0, '2026-01-01 00:00:00')"),
                {"s": json.dumps(old)},
            )
        await upgrade(empty_url)

        async def settings() -> dict:
            async with engine.connect() as conn:
                raw = (await conn.execute(sa.text("SELECT settings FROM games"))).scalar_one()
            return json.loads(raw) if isinstance(raw, str) else raw

        kept = GameSettings.model_validate(await settings())
        assert (kept.killing_blow, kept.departures, kept.vote_damage) == ("killer_takes", "dawn", "public")
        assert kept.max_players == 8 and kept.vote_tie_rule == "all"
        assert GameSettings().killing_blow == "steal"
        await downgrade(empty_url, "0004")
        assert await settings() == old
    finally:
        await engine.dispose()


async def test_0006_adds_and_drops_the_games_effects_mark(empty_url: str) -> None:
    await upgrade(empty_url, "0006")
    assert "effects_due" in await _columns(empty_url, "games")
    await downgrade(empty_url, "0005")
    assert "effects_due" not in await _columns(empty_url, "games")


async def test_0007_adds_and_drops_the_processes_and_the_lease_holder(empty_url: str) -> None:
    await upgrade(empty_url, "0007")
    assert "processes" in await _tables(empty_url) and "leased_by" in await _columns(empty_url, "outbox")
    await downgrade(empty_url, "0006")
    assert "processes" not in await _tables(empty_url) and "leased_by" not in await _columns(empty_url, "outbox")


async def test_0008_adds_and_drops_the_heartbeats(empty_url: str) -> None:
    await upgrade(empty_url, "0007")
    assert "heartbeats" not in await _tables(empty_url)
    await upgrade(empty_url, "0008")
    assert await _columns(empty_url, "heartbeats") == {"host", "connected_since", "beat_at"}
    await downgrade(empty_url, "0007")
    assert "heartbeats" not in await _tables(empty_url)


async def test_0009_adds_and_drops_the_lobby_start_time(empty_url: str) -> None:
    await upgrade(empty_url, "0009")
    assert {"start_at", "start_reminder_at"} <= await _columns(empty_url, "games")
    await downgrade(empty_url, "0008")
    assert not {"start_at", "start_reminder_at"} & await _columns(empty_url, "games")


async def test_0010_adds_and_drops_the_absence_tables(empty_url: str) -> None:
    await upgrade(empty_url, "0009")
    await upgrade(empty_url, "0010")
    assert {"misses_in_row", "misses_total"} <= await _columns(empty_url, "game_players")
    assert {"standbys", "seat_offers"} <= await _tables(empty_url)
    await downgrade(empty_url, "0009")
    assert "misses_in_row" not in await _columns(empty_url, "game_players")
    assert not {"standbys", "seat_offers"} & await _tables(empty_url)


async def test_0011_adds_the_ai_seats_and_drops_them(empty_url: str) -> None:
    await upgrade(empty_url, "0011")
    assert "ai_turns" in await _tables(empty_url)
    assert "ai_seats" in await _columns(empty_url, "game_records")
    cols = {x["name"]: x for x in await _inspect(empty_url, lambda i: i.get_columns("game_players"))}
    assert cols["user_id"]["nullable"]  # an AI seat has no Discord user
    await downgrade(empty_url, "0010")
    assert "ai_turns" not in await _tables(empty_url)
    assert "ai_seats" not in await _columns(empty_url, "game_records")


async def test_0013_adds_the_scheduler_indexes_and_dm_channels_and_drops_them(empty_url: str) -> None:
    await upgrade(empty_url, "0013")
    assert {"ix_games_status_deadline", "ix_games_status_reminder"} <= await _indexes(empty_url, "games")
    assert await _columns(empty_url, "dm_channels") == {"user_id", "channel_id", "created_at"}
    await downgrade(empty_url, "0012")
    assert "ix_games_status_deadline" not in await _indexes(empty_url, "games")
    assert "dm_channels" not in await _tables(empty_url)


async def test_0014_moves_the_heartbeats_into_the_processes_and_back(empty_url: str) -> None:
    """Each host's heartbeat goes into its live process of that name, or, naming none (a
    configured process name, a process gone), into a stopped row that keeps its last
    connected beat for `wolfhowl health`; going back, each host and shards gets its
    latest connected beat again."""
    from datetime import datetime

    import sqlalchemy as sa

    await upgrade(empty_url, "0013")
    engine = make_engine(empty_url)
    t0, t1, t2 = "2026-12-01 10:00:00", "2026-12-01 11:00:00", "2026-12-01 11:00:30"
    at = datetime.fromisoformat
    try:
        async with engine.begin() as conn:
            for name, stopped in (("bot-a:0-1/4", None), ("bot-a:0-1/4", t0), ("custom-b", None)):
                await conn.execute(
                    sa.text("INSERT INTO processes (name, pid, started_at, heartbeat_at, stopped_at) VALUES (:n, 7, :t, :t, :s)"),
                    {"n": name, "t": at(t0), "s": stopped and at(stopped)},
                )
            for host, since, beat in (("bot-a:0-1/4", t1, t2), ("bot-b", t0, t1)):
                await conn.execute(sa.text("INSERT INTO heartbeats (host, connected_since, beat_at) VALUES (:h, :c, :b)"), {"h": host, "c": at(since), "b": at(beat)})
        await upgrade(empty_url, "0014")
        assert "heartbeats" not in await _tables(empty_url)
        assert {"host", "shards", "connected_since", "connected_at"} <= await _columns(empty_url, "processes")

        async def rows(sql: str) -> list[tuple[Any, ...]]:
            async with engine.connect() as conn:
                return [tuple(str(v)[:19] if v is not None else None for v in r) for r in (await conn.execute(sa.text(sql))).all()]

        moved = "SELECT name, host, shards, connected_since, connected_at, stopped_at FROM processes ORDER BY id"
        assert await rows(moved) == [
            ("bot-a:0-1/4", "bot-a", "0-1/4", t1, t2, None),  # the live process of that name
            ("bot-a:0-1/4", "", "", None, None, t0),  # an earlier run, stopped: not the heartbeat's
            ("custom-b", "", "", None, None, None),  # a configured name: its host unknown
            ("bot-b", "bot-b", "", t0, t1, t1),  # a heartbeat naming no live process
        ]
        await downgrade(empty_url, "0013")
        assert not {"host", "connected_at"} & await _columns(empty_url, "processes")
        assert await rows("SELECT host, connected_since, beat_at FROM heartbeats ORDER BY host") == [
            ("bot-a:0-1/4", t1, t2), ("bot-b", t0, t1)
        ]
    finally:
        await engine.dispose()


async def test_0015_adds_the_index_of_a_moderators_games_and_drops_it(empty_url: str) -> None:
    await upgrade(empty_url, "0015")
    assert "ix_games_moderator" in await _indexes(empty_url, "games")
    await downgrade(empty_url, "0014")
    assert "ix_games_moderator" not in await _indexes(empty_url, "games")


async def test_concurrent_upgrades_do_not_collide(empty_pg_url: str) -> None:
    # PostgreSQL only: its advisory lock is what makes shards take turns (SQLite
    # serialises on its file lock, there is nothing to test there).
    await asyncio.gather(*(upgrade(empty_pg_url) for _ in range(3)))
    assert await current(empty_pg_url) == head_revision()


async def test_models_match_migrations(db_url: str) -> None:
    engine = make_engine(db_url)
    try:
        async with engine.connect() as conn:
            diff = await conn.run_sync(
                lambda c: compare_metadata(MigrationContext.configure(c, opts={"compare_type": True}), Base.metadata)
            )
    finally:
        await engine.dispose()
    assert diff == []


def test_cli_upgrade_current_downgrade(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / f"{uuid.uuid4().hex}.sqlite3"
    url = f"sqlite:///{path}"
    for action in ("current", "downgrade"):  # looking at a file that is not there creates none
        assert db_cli.run(Namespace(action=action, revision="base", url=url)) == 1
        assert "no database file at" in capsys.readouterr().err
        assert not path.exists()
    path.touch()  # an empty file is a database with no tables yet
    assert db_cli.run(Namespace(action="current", revision=None, url=url)) == 0
    assert "not migrated" in capsys.readouterr().out
    assert db_cli.run(Namespace(action="upgrade", revision=None, url=url)) == 0
    assert db_cli.run(Namespace(action="current", revision=None, url=url)) == 0
    head = head_revision()
    assert f"{head} (up to date)" in capsys.readouterr().out
    assert db_cli.run(Namespace(action="downgrade", revision=None, url=url)) == 2
    capsys.readouterr()
    # A relative target is answered with the revisions it came from and reached.
    assert db_cli.run(Namespace(action="downgrade", revision="-1", url=url)) == 0
    out = capsys.readouterr().out
    assert f": downgraded from {head} to " in out and out.startswith("SQLite file ")
    assert db_cli.run(Namespace(action="downgrade", revision="base", url=url)) == 0
    assert capsys.readouterr().out.endswith(" to base (empty)\n")
    assert db_cli.run(Namespace(action="upgrade", revision="+1", url=url)) == 0
    assert capsys.readouterr().out.endswith(": upgraded from empty to 0001\n")
    assert db_cli.run(Namespace(action="upgrade", revision=None, url="mysql://x/y")) == 1


def test_the_installed_package_carries_the_migrations():
    """`wolfhowl db upgrade` must work from a wheel, not only from a checkout: the scripts
    are found under bot/db/migrations (a link to migrations/ here) and the wheel's
    package data names every one of them."""
    import tomllib

    from bot.db.migrate import migrations_dir

    root = Path(__file__).resolve().parents[2]
    found = migrations_dir()
    assert found.resolve() == (root / "migrations").resolve()
    scripts = sorted(p.relative_to(found).as_posix() for p in found.rglob("*") if p.is_file() and "__pycache__" not in p.parts)
    assert "env.py" in scripts and any(s.startswith("versions/0001") for s in scripts)
    patterns = tomllib.loads((root / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]["bot"]
    for script in scripts:
        assert any(Path("db/migrations", script).match(p) for p in patterns), script


async def test_0004_indexes_a_servers_finished_games(empty_url: str) -> None:
    """/game history reads a server's finished games newest first by this index."""
    await upgrade(empty_url, "0003")


    assert "ix_games_history" not in await _indexes(empty_url, "games")
    await upgrade(empty_url, "0004")
    assert "ix_games_history" in await _indexes(empty_url, "games")
    await downgrade(empty_url, "0003")
    assert "ix_games_history" not in await _indexes(empty_url, "games")


async def test_0016_adds_the_dead_channels_and_drops_them(empty_url: str) -> None:
    await upgrade(empty_url, "0016")
    assert await _columns(empty_url, "dead_channels") == {"game_channel_id", "dead_channel_id", "guild_id", "created_at"}
    await downgrade(empty_url, "0015")
    assert "dead_channels" not in await _tables(empty_url)


async def test_0017_adds_the_prompt_choice_and_the_follows_key_and_drops_them(empty_url: str) -> None:
    await upgrade(empty_url, "0017")
    assert "prompts" in await _columns(empty_url, "users") and "follows" in await _columns(empty_url, "outbox")
    await downgrade(empty_url, "0016")
    assert "prompts" not in await _columns(empty_url, "users") and "follows" not in await _columns(empty_url, "outbox")


async def test_0018_lets_a_game_have_no_server_and_the_downgrade_keeps_it_readable(empty_url: str) -> None:
    # The practice game is written by today's code at the head (dealt under rules version
    # 1, which every release knows, so that no later downgrade refuses it), then taken down.
    await upgrade(empty_url)
    db = Database(empty_url, clock=FakeClock())
    try:
        with dealing_under(1):
            practice = await start_practice(db, UserRef(5, "pat", "en-US"), 9001, players=6)
        assert practice.guild_id is None
    finally:
        await db.dispose()
    await downgrade(empty_url, "0018")
    nullable = await _inspect(empty_url, lambda i: {c["name"]: c["nullable"] for c in i.get_columns("games")})
    assert nullable["guild_id"] is True
    await downgrade(empty_url, "0017")
    nullable = await _inspect(empty_url, lambda i: {c["name"]: c["nullable"] for c in i.get_columns("games")})
    assert nullable["guild_id"] is False
    engine = make_engine(empty_url)
    try:
        async with engine.connect() as conn:
            rows = (await conn.execute(text("SELECT id, guild_id, status FROM games"))).all()
    finally:
        await engine.dispose()
    assert [tuple(r) for r in rows] == [(practice.id, 0, "running")]


async def test_0019_adds_the_reliability_figures_and_the_downgrade_keeps_the_records(empty_url: str) -> None:
    """The seat records gain the phases asked, sent and abandoned (NULL for those already
    there: the backfill fills them); going back drops them and takes the lobby's minimum
    out of the games' settings, which the earlier code would refuse, keeping every row."""
    import json

    from bot.core.types import GameSettings

    figures = {"phases_asked", "phases_sent", "phases_abandoned"}
    await upgrade(empty_url, "0018")
    assert not figures & await _columns(empty_url, "seat_records")
    engine = make_engine(empty_url)
    game = "guild_id, channel_id, moderator_id, settings, language, secret_seed, seed_sha256, status, round, version, notice_seq, created_at, ended_at"
    record = "game_id, guild_id, channel_id, language, players, rounds, winners, scores, end_reason, seed, started_at, ended_at"
    seat = "game_id, guild_id, user_id, name, ai, seat, class_id, faction, result, fate, kills, teamkills, steals, grails, rounds, faction_score, ended_at"
    when = "'2026-01-01 00:00:00'"
    try:
        async with engine.begin() as conn:
            await conn.execute(text(f"INSERT INTO games ({game}) VALUES (1, 2, 3, :s, 'en-US', 'x', 'y', 'over', 1, 1, 0, {when}, {when})"), {"s": json.dumps({"max_players": 8})})
            await conn.execute(text(f"INSERT INTO game_records ({record}) VALUES (1, 2, 2, 'en-US', 6, 1, '[]', '{{}}', 'score', 'x', {when}, {when})"))
            await conn.execute(text(f"INSERT INTO seat_records ({seat}) VALUES (1, 2, 7, 'a', false, 1, 'monk', 'lawful', 'win', 'survived', 0, 0, 0, 0, 1, 3, {when})"))
        await upgrade(empty_url, "0019")
        assert figures <= await _columns(empty_url, "seat_records")
        async with engine.begin() as conn:
            kept = (await conn.execute(text("SELECT phases_asked, phases_sent, phases_abandoned FROM seat_records"))).one()
            assert tuple(kept) == (None, None, None)  # not known until the backfill
            await conn.execute(text("UPDATE seat_records SET phases_asked = 9, phases_sent = 8, phases_abandoned = 0"))
            settings = GameSettings(max_players=8, min_reliability=80).model_dump(mode="json")
            await conn.execute(text("UPDATE games SET settings = :s"), {"s": json.dumps(settings)})
        await downgrade(empty_url, "0018")
        assert not figures & await _columns(empty_url, "seat_records")
        async with engine.connect() as conn:
            raw = (await conn.execute(text("SELECT settings FROM games"))).scalar_one()
            rows = (await conn.execute(text("SELECT game_id, user_id, fate FROM seat_records"))).all()
        stored = json.loads(raw) if isinstance(raw, str) else raw
        assert "min_reliability" not in stored and stored == {k: v for k, v in settings.items() if k != "min_reliability"}
        assert [tuple(r) for r in rows] == [(1, 7, "survived")]
    finally:
        await engine.dispose()


GAME_COLUMNS = "guild_id, channel_id, moderator_id, settings, language, secret_seed, seed_sha256, status, round, version, notice_seq, created_at"


async def _add_game(conn: Any, settings: dict[str, Any], status: str = "running") -> None:
    """Game 1, as the schema of 0001 on stores it, with ``settings``."""
    import json

    await conn.execute(
        text(f"INSERT INTO games ({GAME_COLUMNS}) VALUES (1, 2, 3, :s, 'en-US', 'x', 'y', :status, 1, 1, 0, '2026-01-01 00:00:00')"),
        {"s": json.dumps(settings), "status": status},
    )


async def _stored_settings(engine: Any) -> dict[str, Any]:
    import json

    async with engine.connect() as conn:
        raw = (await conn.execute(text("SELECT settings FROM games"))).scalar_one()
    return json.loads(raw) if isinstance(raw, str) else raw


async def test_0020_keeps_the_games_already_there_without_the_head_start(empty_url: str) -> None:
    """A lobby (or any game) stored before the house rule uneven_tables plays without it,
    as its lobby said; a new game takes the head start. Going back takes the key out."""
    from bot.core.types import GameSettings

    await upgrade(empty_url, "0019")
    engine = make_engine(empty_url)
    old = {"max_players": 7, "vote_damage": "private"}
    try:
        async with engine.begin() as conn:
            await _add_game(conn, old, status="lobby")
        await upgrade(empty_url, "0020")
        kept = GameSettings.model_validate(await _stored_settings(engine))
        assert kept.uneven_tables == "off" and kept.vote_damage == "private" and kept.max_players == 7
        assert GameSettings().uneven_tables == "compensate"
        await downgrade(empty_url, "0019")
        assert await _stored_settings(engine) == old
    finally:
        await engine.dispose()


async def test_0021_adds_the_spectators_and_the_downgrade_takes_the_gallery_setting_out(empty_url: str) -> None:
    await upgrade(empty_url, "0021")
    engine = make_engine(empty_url)
    try:
        async with engine.begin() as conn:
            await _add_game(conn, {"max_players": 8, "gallery": "late"})
            await conn.execute(text("INSERT INTO spectators (game_id, user_id, joined_at) VALUES (1, 5, '2026-01-01 00:00:00')"))
        await downgrade(empty_url, "0020")
        assert await _stored_settings(engine) == {"max_players": 8}
        assert "spectators" not in await _tables(empty_url)
    finally:
        await engine.dispose()


async def test_0022_adds_the_predictions_and_the_downgrade_keeps_everything_else(empty_url: str) -> None:
    await upgrade(empty_url, "0022")
    engine = make_engine(empty_url)
    try:
        async with engine.begin() as conn:
            await _add_game(conn, {"gallery": "late"})
            await conn.execute(text("INSERT INTO spectators (game_id, user_id, joined_at) VALUES (1, 5, '2026-01-01 00:00:00')"))
            await conn.execute(text("INSERT INTO predictions (game_id, round, user_id, faction, made_at) VALUES (1, 1, 5, 'lawful', '2026-01-01 00:00:00')"))
        await downgrade(empty_url, "0021")
        async with engine.connect() as conn:
            watching = (await conn.execute(text("SELECT game_id, user_id FROM spectators"))).all()
        assert await _stored_settings(engine) == {"gallery": "late"}
        assert [tuple(r) for r in watching] == [(1, 5)] and "predictions" not in await _tables(empty_url)
        await upgrade(empty_url, "0022")
        assert "predictions" in await _tables(empty_url)
    finally:
        await engine.dispose()


async def test_0023_adds_the_seasons_and_the_downgrade_keeps_the_records(empty_url: str) -> None:
    """The seasons' tables and a seat record's identification figures come and go; the
    records already there stay (no season counted them), on the way up and down."""
    await upgrade(empty_url, "0022")
    engine = make_engine(empty_url)
    try:
        async with engine.begin() as conn:
            await _add_game(conn, {}, status="over")
            await conn.execute(text(
                "INSERT INTO game_records (game_id, guild_id, channel_id, language, players, rounds, winners, scores, end_reason, seed, ai_seats, started_at, ended_at)"
                " VALUES (1, 2, 3, 'en-US', 6, 4, '[\"lawful\"]', '{}', 'score', 'x', 0, '2026-01-01 00:00:00', '2026-01-01 02:00:00')"
            ))
            await conn.execute(text(
                "INSERT INTO seat_records (id, game_id, guild_id, user_id, name, ai, seat, class_id, faction, result, fate, kills, teamkills, steals, grails, rounds, faction_score, ended_at)"
                " VALUES (1, 1, 2, 5, 'ann', false, 1, 'warrior', 'lawful', 'win', 'survived', 0, 0, 0, 0, 4, 12, '2026-01-01 02:00:00')"
            ))
        await upgrade(empty_url, "0023")
        assert {"seasons", "season_games", "season_standings"} <= await _tables(empty_url)
        async with engine.begin() as conn:
            assert (await conn.execute(text("SELECT guesses, guesses_right FROM seat_records"))).one() == (None, None)
            await conn.execute(text(
                "INSERT INTO seasons (id, guild_id, number, language, open_guild_id, started_at, started_by) VALUES (1, 2, 1, 'en-US', 2, '2026-01-02 00:00:00', 9)"
            ))
            await conn.execute(text("INSERT INTO season_games (game_id, season_id) VALUES (1, 1)"))
        await downgrade(empty_url, "0022")
        assert not {"seasons", "season_games", "season_standings"} & await _tables(empty_url)
        assert "guesses" not in await _columns(empty_url, "seat_records")
        async with engine.connect() as conn:
            assert (await conn.execute(text("SELECT count(*) FROM seat_records"))).scalar_one() == 1
            assert (await conn.execute(text("SELECT count(*) FROM game_records"))).scalar_one() == 1
    finally:
        await engine.dispose()


async def test_0024_adds_the_time_zones_and_the_downgrade_parks_them(empty_url: str) -> None:
    """A user's zone and a game's deadline hours go down parked (the earlier code would
    refuse the settings keys) and come back up as they were."""
    await upgrade(empty_url, "0024")
    engine = make_engine(empty_url)
    try:
        async with engine.begin() as conn:
            await _add_game(conn, {"deadline_hours": [18, 2], "deadline_zone": "Asia/Shanghai", "max_players": 9})
            await conn.execute(text("INSERT INTO users (id, display_name, created_at, updated_at, timezone) VALUES (5, 'ann', '2026-01-01 00:00:00', '2026-01-01 00:00:00', 'Europe/Berlin')"))
        await downgrade(empty_url, "0023")
        assert "timezone" not in await _columns(empty_url, "users")
        assert await _stored_settings(engine) == {"max_players": 9}
        await upgrade(empty_url, "0024")
        assert await _stored_settings(engine) == {"deadline_hours": [18, 2], "deadline_zone": "Asia/Shanghai", "max_players": 9}
        async with engine.connect() as conn:
            assert (await conn.execute(text("SELECT timezone FROM users WHERE id = 5"))).scalar_one() == "Europe/Berlin"
        assert "parked_rows" not in await _tables(empty_url) and "parked_settings" not in await _tables(empty_url)
    finally:
        await engine.dispose()
