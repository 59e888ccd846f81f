"""A whole game, start to end, on SQLite and on PostgreSQL: the real bot on the local
Discord, seven scripted players (one with closed DMs), a moderator who closes each phase
once everyone has acted. What the table saw is checked afterwards."""

from __future__ import annotations

import hashlib
import re
from collections import Counter

import pytest

from bot.features.replay.verify import verify_log
from bot.sandbox import play_reader as reader
from tests.e2e.conftest import Played, play_tables, run

SEED = "whole-1"


@pytest.fixture(scope="module")
def sqlite_game() -> Played:
    return run(play_tables(1, players=7, seed=SEED))[0]


@pytest.fixture(scope="module")
def pg_game(e2e_pg_url: str) -> Played:
    return run(play_tables(1, players=7, seed=SEED, database_url=e2e_pg_url))[0]


@pytest.fixture(params=["sqlite", "postgresql"])
def game(request: pytest.FixtureRequest) -> Played:
    return request.getfixturevalue("pg_game" if request.param == "postgresql" else "sqlite_game")


def test_the_game_is_played_to_its_end(game: Played):
    assert game.report.over, game.public_texts()[-3:]
    assert game.report.winners
    texts = game.public_texts()
    over = [i for i, m in enumerate(game.public) if reader.is_game_over(m)]
    assert len(over) == 1
    # After the scoreboard only the seed is revealed; it matches the SHA-256 published at the start.
    seed_line = next(
        reader.match("post.seed", t) for t in texts[over[0] + 1 :] if reader.match("post.seed", t)
    )
    assert seed_line is not None
    start = next(
        t for t in texts if reader.match("reply.post.started_title", t.splitlines()[0]) is not None
    )
    seed = seed_line["seed"].strip("`")
    assert hashlib.sha256(seed.encode()).hexdigest() in start


def test_every_interaction_was_answered_and_none_refused(game: Played):
    assert game.stats.failed == 0
    assert game.stats.refusals == []
    assert game.server_errors == []
    assert game.stats.interactions > 50


def test_the_phases_follow_each_other_in_order(game: Played):
    posts = [reader.phase_post(m) for m in game.public]
    opened = [p for p in posts if p is not None]
    order = {"day": 0, "dusk": 1, "morning": 2}
    keys = [(r, order[ph]) for ph, r in opened]
    assert keys == sorted(keys) and len(keys) == len(set(keys))
    assert keys[0] == (1, 0)


def test_nothing_was_sent_twice(game: Played):
    nonces = Counter(s["nonce"] for s in game.sends if s["status"] == 200 and s["nonce"])
    assert nonces and max(nonces.values()) == 1
    # Every message the bot posted on its own carried a nonce (delivery through the outbox).
    assert all(s["nonce"] for s in game.sends if s["status"] == 200)


def test_each_player_got_their_sheet_privately_in_their_language(game: Played):
    for seat in game.seats:
        where = seat.inbox_replies if seat.user.dms_closed else seat.dms
        sheets = [reader.read_sheet(m) for m in where]
        sheets = [s for s in sheets if s]
        assert sheets, f"{seat.name} never saw a character sheet"
        assert sheets[0]["class_id"] == seat.class_id
        if not seat.user.dms_closed:
            # The intro, then (in a player's first game with the bot) a one-line tip.
            intro, *tip = (seat.dms[0].content or "").split("\n")
            assert reader.pattern("reply.post.sheet_intro", seat.user.locale).fullmatch(intro), (
                intro
            )
            assert [reader.pattern("prompt.tip_sheet", seat.user.locale).fullmatch(x) is not None for x in tip] == [True]


def test_a_player_with_closed_dms_gets_pinged_without_content_and_reads_the_inbox(game: Played):
    closed = [s for s in game.seats if s.user.dms_closed]
    assert len(closed) == 1
    who = closed[0]
    assert who.dms == []
    pings = [m for m in game.public if f"<@{who.user.id}>" in (m.content or "")]
    assert pings, "no inbox ping in the channel"
    for m in pings:
        assert reader.match("reply.post.inbox_ping", m.content or "") is not None
        assert not m.embeds and m.content.count("\n") == 0
    # The inbox showed the sheet and the news the player would otherwise have had by DM.
    shown = [reader.message_text(m) for m in who.inbox_replies]
    assert any(reader.read_sheet(m) for m in who.inbox_replies)
    news = {reader.text_of(key, who.user.locale).split("{")[0] for key in reader.NEWS_TITLES}
    assert any(title in t for title in news for t in shown)
    # ...and the player played on (commands sent in every phase it was alive).
    assert sum(1 for line in who.journal if not line.startswith("  ")) >= 5


def test_people_used_commands_autocomplete_buttons_menus_and_forms(game: Played):
    journal = [line for s in game.seats for line in s.journal]
    kinds = Counter(line.split()[0] for line in journal if not line.startswith("  "))
    assert kinds["click"] and kinds["select"] and kinds["form"], kinds
    commands = {line.split()[0] for line in journal if line.startswith("/")}
    # Chinese speakers typed the localized command names.
    assert any(re.match(r"/[\u4e00-\u9fff]", c) for c in commands), commands
    assert game.stats.by_kind.get("autocomplete", 0) > 0


def test_no_secret_in_the_public_channel(game: Played):
    from tests.e2e.test_leaks import leaks

    assert leaks(game) == []


def test_the_log_from_game_log_replays_exactly(game: Played):
    log = game.extra["log"]
    assert log is not None, "/mod log gave no file"
    report = verify_log(log)
    assert report.ok, report.mismatch
    assert report.steps == game.report.phases + 1  # the start, then one step per phase


def test_a_seat_reads_its_dms_in_order_and_ends_with_its_ending_and_the_replay(game: Played):
    """One seat's DMs through the whole game, printed as read: the sheet first, news
    round by round, and last the player's own ending with its Replay button."""
    open_dms = [s for s in game.seats if not s.user.dms_closed]
    seat = next((s for s in open_dms if s.user.locale == "zh-CN"), open_dms[0])
    for m in seat.dms:
        print(reader.message_text(m), "\n--")
    assert reader.read_sheet(seat.dms[0]) is not None
    last = seat.dms[-1]
    title = str(last.embeds[0].get("title") or "")
    assert any(reader.match(k, title) for k in ("ending.title_win", "ending.title_shared", "ending.title_loss")), title
    won = reader.match("ending.title_loss", title) is None
    assert won == (_faction_of(seat, game) in game.report.winners)
    assert last.custom_ids() == [f"wh:replay:{game.game_id}"]
    # Exactly one ending, and nothing after it.
    endings = [m for m in seat.dms if any(reader.match(k, str(e.get("title") or "")) for e in m.embeds for k in ("ending.title_win", "ending.title_shared", "ending.title_loss"))]
    assert endings == [last]


def _faction_of(seat, game: Played) -> str:
    """The seat's faction as its sheet said it."""
    sheet = reader.read_sheet(seat.dms[0])
    assert sheet is not None
    return str(sheet["faction"])
