"""The replay page of a whole game, in each language, opened in a real headless
Chromium: it loads with no error and no request beyond its own file, and shows the
rounds, the names, the classes and the winners. (``tests/browser.py`` drives the
browser; ``python3 dev.py test`` installs one where it can.)"""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path
from typing import Any

import pytest

from bot.db.session import Database
from bot.i18n import t, terms
from bot.render import words
from bot.render.replay import replay_html
from bot.service import GameSettings, UserRef, create_game, export_game, join_game, start_game
from tests.browser import browser_or_skip, load_page
from tests.conftest import FakeClock, wipe
from tests.service.helpers import CHANNEL, GUILD, MODERATOR, play_to_end

# Chinese names too: the page must carry any name a player may choose, escaped.
NAMES = ["Ann<script>x()</script>", "Bo & Co", "张三", "李四", "O'Neil", "**bold**", "Zoë", "王五"]


async def finished_log(url: str, language: str) -> dict[str, Any]:
    db = Database(url, clock=FakeClock())
    await wipe(db)
    try:
        info = await create_game(db, guild_id=GUILD, channel_id=CHANNEL, moderator=MODERATOR, settings=GameSettings.build(language=language), seed="replay-page-seed")
        game_id = info.id
        for i, name in enumerate(NAMES):
            await join_game(db, game_id, UserRef(100 + i, name))
        await start_game(db, game_id)
        await play_to_end(db, game_id)
        return await export_game(db, game_id)
    finally:
        await db.dispose()


@pytest.fixture(scope="module", params=["en-US", "zh-CN"])
def log(request: pytest.FixtureRequest, sqlite_url: str) -> dict[str, Any]:
    import asyncio

    return asyncio.run(finished_log(sqlite_url, request.param))


def expected(log: dict[str, Any]) -> dict[str, Any]:
    loc = log["game"]["language"]
    final = log["steps"][-1]["state"]
    return {
        "rounds": [t("replay.round", loc, round=r) for r in range(1, final["round"] + 1)],
        "names": [p["name"] for p in final["players"]],
        "classes": sorted({terms.class_name(p["class_id"], loc) for p in final["players"]}),
        "winners": words.listing((terms.faction(w, loc) for w in final["winners"]), loc),
    }


def test_the_page_loads_in_a_browser_with_no_error_and_shows_the_game(log: dict[str, Any], tmp_path: Path):
    browser = browser_or_skip()
    loc = log["game"]["language"]
    page = tmp_path / f"replay-{loc}.html"
    page.write_text(replay_html(log), encoding="utf-8")
    report = load_page(browser, page, height=2400)
    assert report.errors == []
    assert report.requests == [page.resolve().as_uri()]  # nothing fetched but the file itself
    want = expected(log)
    assert report.title == t("replay.title", loc, game=log["game"]["id"])
    for text in [*want["rounds"], *want["names"], *want["classes"], want["winners"]]:
        assert text in report.text, text
    assert t("replay.seed", loc) in report.text and log["game"]["seed"] in report.text
    # Behind each seat's <details>: the private news, worded as the DMs were.
    assert t("event.GrailWon", loc) in report.content
    if shots := os.environ.get("WOLFHOWL_SCREENSHOTS"):
        Path(shots).mkdir(parents=True, exist_ok=True)
        (Path(shots) / f"replay-{loc}.png").write_bytes(report.screenshot)
    assert report.screenshot.startswith(b"\x89PNG")


def test_the_file_needs_nothing_from_anywhere(log: dict[str, Any]):
    html = replay_html(log)
    assert not re.search(r"""(?:src|href|action|xlink:href)\s*=\s*["']?\s*(?:https?:)?//""", html, re.I)
    assert "http://" not in html and "https://" not in html
    assert "<script" not in html.lower() and "@import" not in html and "url(" not in html
    # A player's name is text, never markup.
    assert "Ann&lt;script&gt;x()&lt;/script&gt;" in html and "Bo &amp; Co" in html


def test_a_page_that_throws_fails_the_check(tmp_path: Path):
    """The check above could fail: a script error or a request out is reported."""
    browser = browser_or_skip()
    page = tmp_path / "bad.html"
    page.write_text("<p>x</p><script>throw new Error('boom')</script><img src='http://127.0.0.1:9/x.png'>", encoding="utf-8")
    report = load_page(browser, page)
    assert any("boom" in e for e in report.errors)
    assert "http://127.0.0.1:9/x.png" in report.requests


def test_the_browser_is_found_or_the_reason_given(monkeypatch: pytest.MonkeyPatch):
    """In CI a missing browser fails the test run; elsewhere it skips, saying why."""
    from tests import browser

    monkeypatch.setattr(shutil, "which", lambda name: None)
    monkeypatch.delenv("WOLFHOWL_BROWSER", raising=False)
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match="CI needs a headless browser"):
        browser.browser_or_skip()
    monkeypatch.setenv("CI", "")
    with pytest.raises(pytest.skip.Exception, match="no Chromium found"):
        browser.browser_or_skip()


def test_event_markdown_becomes_html_and_a_name_stays_as_typed():
    from bot.render.replay import inline

    line = f"{words.player_name('**b** <i>_x_')} **×1** `/vote`"
    assert inline(line) == "**b** &lt;i&gt;_x_ <strong>×1</strong> <code>/vote</code>"


def test_every_roll_reason_is_worded_in_both_languages():
    """Every reason a roll can have, gathered from AI games replayed through the engine,
    reads in words: no id of the code left in Chinese (the names here are P1, P2...)."""
    import engine
    from bot.render.replay import roll_reason
    from bot.sim.runner import play_game

    whys: set[str] = set()
    for i in range(40):
        seed = f"replay-reasons-{i}"
        record: list = []
        play_game(seed, players=15 - i % 10, record=record)
        state = engine.new_game([f"P{n}" for n in range(1, 16 - i % 10)], seed)
        for subs in record:
            outcome = engine.advance(state, subs, seed)
            state = outcome.state
            whys |= {r.why for r in outcome.rolls}
    assert {"initiative", "vote-tie"} <= whys and any(w.startswith("attack:") for w in whys)
    names = {n: f"P{n}" for n in range(1, 16)}
    for why in sorted(whys):
        zh = roll_reason(why, names, "zh-CN")
        assert not re.search(r"[A-Za-z]", re.sub(r"#\d+ P\d+", "", zh)), (why, zh)
        en = roll_reason(why, names, "en-US")
        assert not re.search(r"[a-z][-_][a-z]", en), (why, en)
