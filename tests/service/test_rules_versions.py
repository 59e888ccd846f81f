"""Rules versions through the service: logs exported by earlier releases verify with
today's code under the version each was dealt under; a new game records the newest and
its log, replay page and header name it; a live game dealt before versions were recorded
goes on by the version of its day to its end, and its log verifies."""

from __future__ import annotations

import copy
import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select

import engine
from bot.core.advance import advance_phase
from bot.db.models import Game, GameStep
from bot.db.session import Database
from bot.features.replay.export import export_game
from bot.features.replay.look import replay_html
from bot.features.replay.verify import verify_log
from tests.conftest import FakeClock
from tests.service.helpers import current_state, play_to_end, send_all, started

OLD_LOGS = Path(__file__).parent.parent / "fixtures" / "old_logs"
# file -> the rules version its game was dealt under (README.md there)
DEALT_UNDER = {"2026-11-30-ea0630b.json": 1, "2026-12-01-45c1376.json": 2, "2026-12-01-79f02fd.json": 3}


def old_log(name: str) -> dict[str, Any]:
    return json.loads((OLD_LOGS / name).read_text(encoding="utf-8"))


def test_every_old_log_is_listed_with_its_commit() -> None:
    readme = (OLD_LOGS / "README.md").read_text(encoding="utf-8")
    assert sorted(p.name for p in OLD_LOGS.glob("*.json")) == sorted(DEALT_UNDER)
    for name in DEALT_UNDER:
        commit = name.removesuffix(".json").rsplit("-", 1)[1]
        assert f"`{name}` | `{commit}`" in readme


@pytest.mark.parametrize("name", sorted(DEALT_UNDER))
def test_a_log_exported_by_an_earlier_release_verifies(name: str) -> None:
    log = old_log(name)
    assert "rules_version" not in log["steps"][0]["inputs"]["settings"]  # dealt before versions were recorded
    report = verify_log(log)
    assert report.ok, report.mismatch
    assert (report.rules_version, report.rules_recorded) == (DEALT_UNDER[name], False)
    assert report.steps == len(log["steps"]) and report.rolls > 50
    assert report.summary().startswith(f"OK: rules version {DEALT_UNDER[name]} (not recorded in the log: the version in force when it was dealt); seed matches")


@pytest.mark.parametrize("name", ["2026-11-30-ea0630b.json", "2026-12-01-45c1376.json"])
def test_an_old_log_does_not_verify_under_the_newest_rules(name: str) -> None:
    """What versions fix: named as dealt under the newest, the same log fails on the
    Barbarian's HP at the start."""
    log = old_log(name)
    log["steps"][0]["inputs"]["settings"]["rules_version"] = engine.rules.CURRENT
    report = verify_log(log)
    assert not report.ok and report.rules_recorded
    assert "step 1 (start" in (report.mismatch or "") and '"max_hp": 12' in (report.mismatch or "")


def test_a_recorded_version_is_the_only_one_tried() -> None:
    log = old_log("2026-11-30-ea0630b.json")
    for step in log["steps"]:  # as if recorded from the start
        step["state"]["settings"]["rules_version"] = 1
        if step["kind"] == "start":
            step["inputs"]["settings"]["rules_version"] = 1
    report = verify_log(log)
    assert report.ok and (report.rules_version, report.rules_recorded) == (1, True)
    as_two = copy.deepcopy(log)
    as_two["steps"][0]["inputs"]["settings"]["rules_version"] = 2
    report = verify_log(as_two)
    assert not report.ok and report.rules_version == 2
    log["game"]["rules_version"] = 2
    report = verify_log(log)
    assert not report.ok and "header: rules version is 2, the game was dealt under 1" in (report.mismatch or "")


def test_a_log_dealt_after_its_release_was_superseded_replays_by_the_older_version() -> None:
    """A release not yet upgraded deals by its own rules after a newer version was
    published: the log's date says 3, the newest that replays it is 2."""
    log = old_log("2026-12-01-45c1376.json")
    log["game"]["started_at"] = "2026-12-02T09:00:00+00:00"
    report = verify_log(log)
    assert report.ok and report.rules_version == 2


async def test_a_new_game_records_the_newest_version_and_its_log_names_it(db: Database) -> None:
    game_id = await started(db, 6, seed="rules-new-game")
    await play_to_end(db, game_id)
    log = await export_game(db, game_id)
    assert log["game"]["rules_version"] == engine.rules.CURRENT
    assert log["steps"][0]["inputs"]["settings"]["rules_version"] == engine.rules.CURRENT
    assert all(st["state"]["settings"]["rules_version"] == engine.rules.CURRENT for st in log["steps"])
    report = verify_log(log)
    assert report.ok and report.rules_recorded and report.rules_version == engine.rules.CURRENT
    page = replay_html(log, "en-US")
    assert f"Played under rules version {engine.rules.CURRENT}" in page
    assert f"规则版本{engine.rules.CURRENT}" in replay_html(log, "zh-CN")
    del log["game"]["rules_version"]  # a log exported before versions were recorded
    assert "rules version" not in replay_html(log, "en-US").casefold().replace("rules versions", "")


def _without_version(d: dict[str, Any]) -> dict[str, Any]:
    return d | {"settings": {k: v for k, v in d["settings"].items() if k != "rules_version"}}


async def _as_dealt_by_an_earlier_release(db: Database, game_id: int, version: int) -> None:
    """Make a game just started look as a release of rules ``version`` left it, before
    versions were recorded: dealt by its numbers, its state and start naming no version."""
    async with db.transaction() as s:
        game = await s.get(Game, game_id)
        assert game is not None and game.state is not None and game.secret_seed is not None
        start = (await s.execute(select(GameStep).where(GameStep.game_id == game_id, GameStep.kind == "start"))).scalar_one()
        settings = engine.Settings.from_dict(start.inputs["settings"] | {"rules_version": version})
        dealt = _without_version(engine.new_game(list(start.inputs["names"]), game.secret_seed, settings).to_dict())
        game.state = start.state = dealt
        start.inputs = start.inputs | {"settings": _without_version(start.inputs)["settings"]}


async def test_a_live_game_dealt_before_versions_were_recorded_keeps_the_version_of_its_day(db: Database, clock: FakeClock) -> None:
    """Dealt on 2026-12-01 at 10:00 (version 2) and stored without a version, the game
    plays its remaining rounds by version 2 (a Barbarian's 12 HP, a Bard's d2) after the
    upgrade, its state says so from its next step on, and its log verifies."""
    clock.now = datetime(2026, 12, 1, 10, 0, tzinfo=UTC)
    seed = next(
        seed for seed in (f"rules-live-{i}" for i in range(200))
        if {"bard", "barbarian"} <= {p.class_id for p in engine.new_game([str(n) for n in range(6)], seed).players}
    )
    game_id = await started(db, 6, seed=seed)
    await _as_dealt_by_an_earlier_release(db, game_id, 2)
    await send_all(db, game_id)
    await advance_phase(db, game_id)
    state = await current_state(db, game_id)
    assert state.settings.rules_version == 2
    await play_to_end(db, game_id)
    log = await export_game(db, game_id)
    assert log["game"]["rules_version"] == 2
    barbarian = next(p for p in log["steps"][-1]["state"]["players"] if p["class_id"] == "barbarian")
    assert barbarian["max_hp"] == 12
    bard = next(p["seat"] for p in log["steps"][-1]["state"]["players"] if p["class_id"] == "bard")
    assert {r["die"] for st in log["steps"] for r in st["rolls"] if r["who"] == bard and r["why"].startswith("damage:")} == {2}
    report = verify_log(log)
    assert report.ok, report.mismatch
    assert (report.rules_version, report.rules_recorded) == (2, False)
