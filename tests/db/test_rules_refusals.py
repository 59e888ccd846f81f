"""A downgrade is refused below the first schema whose every release knows a stored game's
rules version (engine/data/rules.toml's ``schema``; bot.db.rules_versions): each version
names a migration that exists and carries a ``downgrade_refusal``, which names the dealt
games of that version or a later one, and only those (a lobby is not dealt yet)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from alembic.script import ScriptDirectory
from sqlalchemy import text

import engine
from bot.db.migrate import (
    DowngradeRefused,
    alembic_config,
    current,
    downgrade,
    head_revision,
    upgrade,
)
from bot.db.session import make_engine

# From main's history: the first revision added after each version's commit (0016 came
# with the rules versions themselves, which every later release keeps).
PUBLISHED = {1: "0001", 2: "0003", 3: "0014", 4: "0016", 5: "0019", 6: "0025", 7: "0026"}
GAME = "guild_id, channel_id, moderator_id, settings, language, secret_seed, seed_sha256, status, round, version, notice_seq, created_at, state"


def _migration(revision: str) -> object:
    script = ScriptDirectory.from_config(alembic_config())
    rev = script.get_revision(revision)
    assert rev is not None, f"rules.toml names schema {revision}, which is no migration"
    return rev.module


def test_every_rules_version_names_a_migration_that_refuses_to_go_below_it() -> None:
    versions = engine.rules.versions()
    assert {n: versions[n].schema for n in PUBLISHED} == PUBLISHED
    for v in versions.values():
        module = _migration(v.schema)
        if v.schema != "0001":  # below the first there is nothing to go back to
            assert callable(getattr(module, "downgrade_refusal", None)), f"migration {v.schema} (rules version {v.number}) has no downgrade_refusal"


async def test_each_refusal_names_the_dealt_games_its_schema_holds(tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'games.sqlite3'}"
    await upgrade(url)
    versions = engine.rules.versions()
    eng = make_engine(url)
    try:
        async with eng.begin() as conn:
            for number in sorted(versions):  # game #n: over, dealt under version n
                state = json.dumps({"settings": {"rules_version": number}})
                await conn.execute(
                    text(f"INSERT INTO games ({GAME}) VALUES (1, :c, 3, '{{}}', 'en-US', 'x', 'y', 'over', 1, 1, 0, '2026-12-05 00:00:00', :s)"),
                    {"c": number, "s": state},
                )
            await conn.execute(text(f"INSERT INTO games ({GAME}) VALUES (1, 99, 3, '{{}}', 'en-US', 'x', 'y', 'lobby', 0, 1, 0, '2026-12-05 00:00:00', NULL)"))
        async with eng.connect() as conn:
            for v in versions.values():
                if v.schema == "0001":
                    continue
                module = _migration(v.schema)
                refusal = await conn.run_sync(module.downgrade_refusal)  # type: ignore[attr-defined]
                held = [n for n in sorted(versions) if versions[n].schema >= v.schema]
                assert refusal is not None and refusal.startswith(f"cannot go below {v.schema}: games {', '.join(f'#{n}' for n in held)} were dealt")
    finally:
        await eng.dispose()
    with pytest.raises(DowngradeRefused, match=r"nothing was changed"):
        await downgrade(url, "0002")
    assert await current(url) == head_revision()
