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

from bot.core.types import GameSettings, UserRef
from bot.db.session import Database
from bot.features.lobby.games import create_game, join_game, start_game
from bot.features.replay.export import export_game
from bot.features.replay.look import replay_html
from bot.i18n import t, terms
from bot.render import words
from tests.browser import browser_or_skip, load_page
from tests.conftest import FakeClock, wipe
from tests.service.helpers import CHANNEL, GUILD, MODERATOR, play_to_end, sees

# Chinese names too: the page must carry any name a player may choose, escaped.
NAMES = ["Ann<script>x()</script>", "Bo & Co", "张三", "李四", "O'Neil", "**bold**", "Zoë", "王五"]


async def finished_log(url: str, language: str) -> dict[str, Any]:
    db = Database(url, clock=FakeClock())
    await wipe(db)
    try:
        info = await create_game(db, guild_id=GUILD, channel_id=CHANNEL, moderator=MODERATOR, settings=GameSettings.build(language=language), seed="replay-page-seed")
        game_id = info.id
        for i, name in enumerate(NAMES):
            await join_game(db, game_id, UserRef(100 + i, name), await sees(db, game_id, UserRef(100 + i, name)))
        await start_game(db, game_id)
        await play_to_end(db, game_id)
        log = await export_game(db, game_id)
        log["_turns_sent"] = await turns_sent(db, game_id)
        return log
    finally:
        await db.dispose()


async def turns_sent(db: Database, game_id: int) -> dict[int, list[dict[str, Any]]]:
    """Each seat's ``YourTurn`` events as its night reports carried them (the outbox's
    rows, written at each night's close), in the order sent."""
    from sqlalchemy import select

    from bot.db.models import OutboxMessage

    out: dict[int, list[dict[str, Any]]] = {}
    async with db.read() as s:
        rows = (await s.execute(select(OutboxMessage).where(OutboxMessage.game_id == game_id).order_by(OutboxMessage.id))).scalars()
        for row in rows:
            body = row.payload
            if body.get("type") == "events" and body.get("seat") is not None:
                out.setdefault(int(body["seat"]), []).extend(e["data"] for e in body["events"] if e["kind"] == "YourTurn")
    return out


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
    assert "@import" not in html and "url(" not in html
    # One script, the seat filter, allowed by its hash and by nothing wider.
    from bot.features.replay.look import FILTER_SCRIPT, SCRIPT_HASH

    assert html.lower().count("<script") == 1 and f"<script>{FILTER_SCRIPT}</script>" in html
    assert f"script-src '{SCRIPT_HASH}'" in html and "unsafe-eval" not in html
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
    from bot.features.replay.look import inline

    line = f"{words.player_name('**b** <i>_x_')} **×1** `/vote`"
    assert inline(line) == "**b** &lt;i&gt;_x_ <strong>×1</strong> <code>/vote</code>"


def test_every_roll_reason_is_worded_in_both_languages():
    """Every reason a roll can have, gathered from AI games replayed through the engine,
    reads in words: no id of the code left in Chinese (the names here are P1, P2...)."""
    import engine
    from bot.ai.runner import play_game
    from bot.features.replay.look import roll_reason

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


FOLLOW = """(function () {
  var pick = document.getElementById("follow");
  pick.value = "%d";
  pick.dispatchEvent(new Event("change"));
  var rows = Array.from(document.querySelectorAll("#story [data-seats]"));
  var shown = rows.filter(function (r) { return r.offsetParent !== null; });
  return {
    rows: rows.length,
    shown: shown.length,
    strangers: shown.filter(function (r) { return r.getAttribute("data-seats").split(" ").indexOf("%d") < 0; }).length,
    hidden_mine: rows.filter(function (r) { return r.offsetParent === null && r.getAttribute("data-seats").split(" ").indexOf("%d") >= 0 && !r.closest("[hidden]"); }).length,
    unseated_shown: Array.from(document.querySelectorAll("#story li:not([data-seats])")).filter(function (r) { return r.offsetParent !== null; }).length
  };
})()"""


@pytest.mark.parametrize("width", [390, 1280])
def test_the_whole_game_reads_at_phone_and_desktop_width_and_follows_one_seat(log: dict[str, Any], tmp_path: Path, width: int):
    """At 390 px and 1280 px the page never scrolls sideways (wide tables scroll in their
    own box), every round is there with each Day's numbers and each Night's turns, and
    choosing a seat hides every row that does not involve it."""
    browser = browser_or_skip()
    loc = log["game"]["language"]
    page = tmp_path / f"replay-{loc}-{width}.html"
    page.write_text(replay_html(log), encoding="utf-8")
    seat = 3
    report = load_page(browser, page, width=width, height=900, scripts=("[window.innerWidth, document.documentElement.clientWidth]", FOLLOW % (seat, seat, seat)))
    assert report.errors == []
    window, viewport = report.values[0]  # the viewport: the window less its vertical scroll bar
    assert window == width and width - 20 <= viewport <= width
    assert report.scroll_width == viewport, f"the page is {report.scroll_width} px wide in a {viewport} px viewport"
    final = log["steps"][-1]["state"]
    for r in range(1, final["round"] + 1):
        assert t("replay.round", loc, round=r) in report.content
        assert t("replay.step.advance_day", loc, round=r) in report.content
    # Each Day's grail: the numbers, the mean and the winner, not "nothing public".
    days = [e for s in log["steps"] for e in s["events"] if e["kind"] == "GrailAllocated"]
    assert days and all(t("replay.act.GrailAllocated", loc, numbers="", mean="", winner="")[:4] in report.content for _ in days)
    assert report.content.count(t("replay.act.GrailAllocated", loc, numbers="", mean="", winner="")[:4]) >= len(days)
    # Every action of the Nights is a row, those without a roll (the "ActionTaken" with
    # no AttackRolled after it) included.
    actions = [e for s in log["steps"] for e in s["events"] if e["kind"] == "ActionTaken"]
    assert actions
    counts = report.values[1]
    assert counts["rows"] > len(actions)
    assert 0 < counts["shown"] < counts["rows"]
    assert counts["strangers"] == 0, "a row of another seat is still shown"
    assert counts["hidden_mine"] == 0, "a row of the followed seat was hidden"
    assert counts["unseated_shown"] == 0
    if shots := os.environ.get("WOLFHOWL_SCREENSHOTS"):
        Path(shots).mkdir(parents=True, exist_ok=True)
        (Path(shots) / f"replay-{loc}-{width}-seat{seat}.png").write_bytes(report.screenshot)


def test_a_save_names_its_caster_and_an_action_with_no_roll_is_told():
    """A Night's turn in words: the actor and the skill, then what came of it; a spell's
    Reflex save names the caster, the target and the roll; Lay on Hands, with no roll,
    is a row of its own; every row says whose it is."""
    from bot.features.replay.look import inline
    from bot.features.replay.look_story import Story
    from engine.events import audit

    names = {1: "Ann", 2: "Bo", 3: "Cy"}
    story = Story("en-US", names, names, inline)
    events = [
        audit("InitiativeRolled", order=[2, 1], modifiers=[0, 0]),
        audit("ActionTaken", seat=2, skill="chaos_bolt", targets=[3], amount=None),
        audit("SpellCast", caster=2, target=3, why="chaos_bolt", points=1, dodged=False, damage=4),
        audit("DamageDealt", target=3, source=2, amount=4, cause="chaos_bolt", hp=2),
        audit("ActionTaken", seat=1, skill="lay_on_hands", targets=[1], amount=3),
        audit("HealApplied", target=1, amount=3, cause="lay_on_hands"),
        audit("ScoreChanged", faction="lawful", points=2, reason="allocation", seat=1),
    ]
    rolls = [{"who": 3, "why": "chaos_bolt-reflex:3", "die": 100, "result": 71, "need": 40}]
    lines = story.step(events, rolls)
    html = "".join(line.render() for line in lines)
    assert [line.css for line in lines] == ["initiative", "action", "action", "score"]
    bolt, hands = lines[1], lines[2]
    assert "#2 Bo: <strong>Chaos Bolt</strong> → #3 Cy" in bolt.html
    cast = bolt.subs[0].html
    assert cast.startswith("#2 Bo casts Chaos Bolt on #3 Cy") and "#3 Cy's Reflex save (d100 71, needs ≤ 40)" in cast and "not saved" in cast
    assert "#1 Ann: <strong>Lay on Hands</strong> → #1 Ann (3 points)" in hands.html
    assert "#1 Ann is healed 3 HP (Lay on Hands)" in hands.subs[0].html
    assert 'data-seats="2 3"' in html and 'data-seats="1"' in html
    assert "Lawful</span> +2 (the grail, #1 Ann)" in lines[3].html


def test_each_seats_private_news_tells_its_turns_as_its_night_reports_did(log: dict[str, Any]):
    """Behind each seat's <details>, its own turns ("▶️ Your turn: …") where its night
    reports had them: the same orders, in the same order, read back from the log."""
    import html as htmlmod

    from bot.features.replay.look import Replay

    loc = log["game"]["language"]
    page = Replay(log).private()
    sections = re.findall(r"<details><summary>(.*?)</summary>(.*?)</details>", page, re.S)
    assert len(sections) == len(NAMES)
    sent = log["_turns_sent"]
    assert sum(map(len, sent.values())) > 10  # the game had nights with orders
    first, then = t("event.YourTurn", loc, order="\x00").split("\x00")[0], t("event.YourTurnThen", loc, order="\x00").split("\x00")[0]
    for n, (head, body) in enumerate(sections, start=1):
        assert htmlmod.unescape(head).startswith(f"#{n} ")
        lines = [htmlmod.unescape(re.sub("<[^>]+>", "", li)) for li in re.findall(r"<li>(.*?)</li>", body, re.S)]
        turns = [line for line in lines if line.startswith((first, then))]
        assert len(turns) == len(sent.get(n, [])), (n, turns)
        assert [line.startswith(first) for line in turns] == [d["first"] for d in sent.get(n, [])]
