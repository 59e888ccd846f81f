"""Seeing what one should not: a forgotten player's name and id read back, and a hidden
player's stats read by someone else.

The victim chose a name that Discord text would escape (``Zed_*the*_Bold``), so that an
escaped copy cannot slip past a search for the raw one, and another seat holds a
different player of a name that contains the victim's: forgetting is by seat, not by a
search and replace. Each attack goes through one reader of a finished game, after the
victim asked to be forgotten: ``/game history``, ``/mod log`` (the log while and after
the game), ``wolfhowl export`` and its replay page, the records (``/stats view`` by id
and by name, the leaderboards) and every stored row, the messages not yet delivered
among them. Every service test runs on SQLite and PostgreSQL."""

from __future__ import annotations

import json

import pytest
from sqlalchemy import select

from bot.db.models import Base, User
from bot.db.session import Database
from bot.discord.embeds.history import game_line
from bot.render import words
from bot.render.replay import replay_html
from bot.service import (
    GameSettings,
    UserRef,
    create_game,
    export_finished,
    export_game,
    join_game,
    start_game,
)
from bot.service.export import log_bytes
from bot.service.history import game_history
from bot.service.leaderboard import leaderboard
from bot.service.policy import Standing
from bot.service.privacy import forget, set_hidden
from bot.service.stats import player_stats
from bot.service.stats_errors import NoRecordsError, ProfileHiddenError
from bot.service.verify import verify_log
from tests.service.helpers import CHANNEL, GUILD, MODERATOR, play_to_end, sees

VICTIM = UserRef(912_345_678_901_234_567, "Zed_*the*_Bold")
NAMESAKE = UserRef(923_456_789_012_345_678, "Zed_*the*_Bold the Younger")
OTHERS = [UserRef(934_000_000_000_000_000 + i, f"guest{i}") for i in range(4)]
ATTACKER = OTHERS[0]
TRACES = (VICTIM.name, words.player_name(VICTIM.name), str(VICTIM.id))


async def finished_game(db: Database, seed: str, channel: int = CHANNEL) -> int:
    info = await create_game(db, guild_id=GUILD, channel_id=channel, moderator=MODERATOR, settings=GameSettings.build(), seed=seed)
    for u in [NAMESAKE, *OTHERS[:2], VICTIM, *OTHERS[2:]]:
        await join_game(db, info.id, u, await sees(db, info.id, u))
    await start_game(db, info.id)
    await play_to_end(db, info.id)
    return info.id


def traces(text: str) -> list[str]:
    """What of the victim ``text`` gives away. (The namesake's name holds the victim's:
    it is taken out first, and must be there.)"""
    assert NAMESAKE.name in text or words.player_name(NAMESAKE.name) in text
    rest = text.replace(NAMESAKE.name, "").replace(words.player_name(NAMESAKE.name), "")
    return [t for t in TRACES if t in rest]


@pytest.fixture
async def forgotten(db: Database) -> list[int]:
    """Two finished games of the victim's, who then asked to be forgotten."""
    games = [await finished_game(db, "seeing-0"), await finished_game(db, "seeing-1", CHANNEL + 1)]
    assert await forget(db, VICTIM.id) == 2
    return games


async def test_the_history_does_not_name_a_forgotten_player(db: Database, forgotten: list[int]) -> None:
    page = await game_history(db, Standing.member_of(1, GUILD), GUILD)
    assert sorted(g.id for g in page.games) == sorted(forgotten)
    for g in page.games:
        assert traces(json.dumps(g.players, ensure_ascii=False)) == []
        for locale, former in (("en-US", "a former player"), ("zh-CN", "一位前玩家")):
            line = game_line(g, locale)
            assert traces(line) == [] and former in line


async def test_the_log_and_its_export_do_not_name_or_number_a_forgotten_player(db: Database, forgotten: list[int]) -> None:
    for game_id in forgotten:
        for log in (await export_game(db, game_id), await export_finished(db, game_id)):
            assert traces(log_bytes(log).decode()) == []
            assert verify_log(log).ok, verify_log(log).summary()


async def test_the_replay_page_does_not_name_a_forgotten_player(db: Database, forgotten: list[int]) -> None:
    for game_id in forgotten:
        log = await export_finished(db, game_id)
        for locale, former in (("en-US", "a former player"), ("zh-CN", "一位前玩家")):
            page = replay_html(log, locale)
            assert traces(page) == [] and former in page


async def test_the_records_do_not_give_a_forgotten_player_back(db: Database, forgotten: list[int]) -> None:
    for scope in (GUILD, None):
        with pytest.raises(NoRecordsError):
            await player_stats(db, ATTACKER.id, VICTIM.id, scope, name=VICTIM.name)
        with pytest.raises(NoRecordsError):
            await player_stats(db, VICTIM.id, VICTIM.id, scope)
    for sort in ("rating", "wins", "win_rate", "games"):
        board = await leaderboard(db, GUILD, sort, viewer_id=VICTIM.id)
        assert VICTIM.id not in [r.user_id for r in board.rows] and board.own is None
        assert traces(repr(board) + NAMESAKE.name) == []


async def test_no_stored_row_of_a_game_keeps_a_forgotten_player(db: Database, forgotten: list[int]) -> None:
    """Every table but ``users`` (a user's name as last seen, no game's record): the
    games, their logs, members, submissions, records and the messages they wrote,
    delivered or not."""
    rows = []
    async with db.read() as s:
        for table in Base.metadata.sorted_tables:
            if table.name != User.__tablename__:
                rows += [json.dumps(list(r), default=str, ensure_ascii=False) for r in (await s.execute(select(table))).all()]
    assert traces("\n".join(rows)) == []


async def test_a_hidden_player_is_seen_by_nobody_else(db: Database) -> None:
    await finished_game(db, "seeing-hidden")
    assert await set_hidden(db, VICTIM.id, True)
    for scope in (GUILD, None):
        with pytest.raises(ProfileHiddenError):
            await player_stats(db, ATTACKER.id, VICTIM.id, scope, name=VICTIM.name)
        assert (await player_stats(db, VICTIM.id, VICTIM.id, scope)).games == 1  # its owner still sees it
    for sort in ("rating", "wins", "win_rate", "games"):
        board = await leaderboard(db, GUILD, sort, viewer_id=ATTACKER.id)
        assert VICTIM.id not in [r.user_id for r in board.rows] and board.total == (0 if sort == "win_rate" else 5)  # a rate from 5 games
