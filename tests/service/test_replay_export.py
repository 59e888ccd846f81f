"""A finished game's full log for its replay and ``wolfhowl export``: refused while the
game is live and for a lobby cancelled before it started; after the end, the CLI writes
exactly what ``/mod log`` gives (``wolfhowl verify`` accepts it) or the replay page."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

import engine
from bot.cli import main as wolfhowl
from bot.core.errors import GameNeverPlayedError, GameNotOverError
from bot.db.session import Database
from bot.features.moderation.moderation import cancel_game
from bot.features.replay.export import export_finished, export_game, log_bytes
from tests.conftest import FakeClock, wipe
from tests.service.helpers import lobby, play_to_end, started


async def test_a_live_game_and_an_unplayed_lobby_have_no_replay(db: Database):
    game_id = await started(db, 6)
    with pytest.raises(GameNotOverError):
        await export_finished(db, game_id)
    await play_to_end(db, game_id)
    log = await export_finished(db, game_id)
    assert log == await export_game(db, game_id) and log["game"]["seed"]
    unplayed = await lobby(db, 6, channel=2001, first=10)
    await cancel_game(db, unplayed, "cancelled")
    with pytest.raises(GameNeverPlayedError):
        await export_finished(db, unplayed)


@pytest.fixture
def games(sqlite_url: str) -> tuple[str, int, int]:
    """The scratch database with a finished game and a live one."""

    async def build() -> tuple[int, int]:
        db = Database(sqlite_url, clock=FakeClock())
        await wipe(db)
        try:
            over = await started(db, 6)
            await play_to_end(db, over)
            live = await started(db, 6, channel=2001, first=10)
            return over, live
        finally:
            await db.dispose()

    over, live = asyncio.run(build())
    return sqlite_url, over, live


def test_export_json_is_the_game_log_and_verifies(games: tuple[str, int, int], tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    url, over, _ = games
    out = tmp_path / "game.json"
    assert wolfhowl(["export", str(over), "--format", "json", "--out", str(out), "--url", url]) == 0
    assert f"game #{over} written to {out}" in capsys.readouterr().out

    async def logged() -> bytes:
        db = Database(url)
        try:
            return log_bytes(await export_game(db, over))
        finally:
            await db.dispose()

    assert out.read_bytes() == asyncio.run(logged())
    assert wolfhowl(["verify", str(out)]) == 0
    assert capsys.readouterr().out.startswith(f"OK: rules version {engine.rules.CURRENT}; seed matches its SHA-256")


def test_export_html_is_the_replay_in_the_chosen_language(games: tuple[str, int, int], tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    url, over, _ = games
    monkeypatch.chdir(tmp_path)
    assert wolfhowl(["export", str(over), "--url", url]) == 0  # html by default, named for the game
    page = (tmp_path / f"wolfhowl-game-{over}.html").read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>") and f"Wolf Howl Tavern — game #{over}" in page
    assert wolfhowl(["export", str(over), "--lang", "zh-CN", "--out", "zh.html", "--url", url]) == 0
    assert f"狼嚎酒馆 — 第{over}局" in (tmp_path / "zh.html").read_text(encoding="utf-8")


def test_export_refuses_a_live_game_a_missing_one_and_a_missing_database(games: tuple[str, int, int], tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    url, _, live = games
    for fmt in ("html", "json"):
        assert wolfhowl(["export", str(live), "--format", fmt, "--out", str(tmp_path / "x"), "--url", url]) == 1
        assert f"Game #{live} is not over yet" in capsys.readouterr().err
    assert not (tmp_path / "x").exists()
    assert wolfhowl(["export", "999", "--url", url]) == 1
    assert "No such game" in capsys.readouterr().err
    missing = tmp_path / "none.sqlite3"
    assert wolfhowl(["export", "1", "--url", f"sqlite+aiosqlite:///{missing}"]) == 1
    assert "no database at" in capsys.readouterr().err and not missing.exists()


def test_export_reads_the_configured_database(games: tuple[str, int, int], tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    url, over, _ = games
    monkeypatch.setenv("WOLFHOWL_DATABASE_URL", url)
    monkeypatch.chdir(tmp_path)
    assert wolfhowl(["export", str(over), "--format", "json"]) == 0
    assert json.loads((tmp_path / f"wolfhowl-game-{over}.json").read_text(encoding="utf-8"))["game"]["id"] == over
