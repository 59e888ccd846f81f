"""Seeing what one should not: a forgotten player's name and id read back, and a hidden
player's stats read by someone else.

The victim chose a name that Discord text would escape (``Zed_*the*_Bold``), so that an
escaped copy cannot slip past a search for the raw one, and another seat holds a
different player of a name that contains the victim's: forgetting is by seat, not by a
search and replace. Each attack goes through one reader of a finished game, after the
victim asked to be forgotten: ``/game history``, ``/mod log`` (the log while and after
the game), ``wolfhowl export`` and its replay page, the records (``/stats view`` by id
and by name, the leaderboards) and every stored row, the messages not yet delivered
among them. Every service test runs on SQLite and PostgreSQL.

The last test makes the same attacks as real interactions over the local Discord: the
victim confirms ``/stats forget`` with its button, then ``/game history``, the Replay
button and ``/mod log`` are used as Discord would deliver them."""

from __future__ import annotations

import json
from typing import Any

import pytest
from sqlalchemy import select

from bot.core.policy import Standing
from bot.core.types import GameSettings, UserRef
from bot.db.models import Base, User
from bot.db.session import Database
from bot.features.history.history import game_history
from bot.features.history.look import game_line
from bot.features.lobby.games import create_game, join_game, start_game
from bot.features.replay.export import export_finished, export_game, log_bytes
from bot.features.replay.look import replay_html
from bot.features.replay.verify import verify_log
from bot.features.stats.errors import NoRecordsError, ProfileHiddenError
from bot.features.stats.leaderboard import leaderboard
from bot.features.stats.privacy import FORGOTTEN_NAME, forget, set_hidden
from bot.features.stats.stats import player_stats
from bot.i18n import t
from bot.render import words
from tests.bot.conftest import Table, reply_text, started_game
from tests.bot.conftest import table as table
from tests.bot.test_replay_offer import files
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


# -- over the local Discord ----------------------------------------------------------------
def _answer(result: Any) -> str:
    """What an interaction's answer shows and the files it attaches, as one text."""
    attached = [a.data.decode() for a in files(result)]
    return "\n".join([reply_text(result), *attached])


async def test_after_stats_forget_discord_shows_a_former_player(table: Table) -> None:
    """The same attacks as real interactions, as Discord delivers them: the victim plays
    a game to its end on the local Discord and confirms ``/stats forget`` with its
    button; then ``/game history`` (in English and Chinese), the scoreboard's Replay
    button (its page, in the game's language) and the moderator's ``/mod log`` show "a
    former player" at the victim's seat
    (the log: a seat with no name) and never the victim's name, raw or escaped, nor id."""
    victim = table.emu.create_user(VICTIM.name, locale="en-US")
    namesake = table.emu.create_user(NAMESAKE.name, locale="en-US")
    lin = table.emu.create_user("lin", locale="zh-CN")
    for u in (victim, namesake, lin):
        table.emu.add_member(table.guild, u)
    table.players[0], table.players[1] = namesake, victim
    game_id = await started_game(table)
    await play_to_end(table.db, game_id)
    await table.delivered()
    marks = (victim.username, words.player_name(victim.username), str(victim.id))

    def seen(text: str) -> list[str]:
        assert namesake.username in text or words.player_name(namesake.username) in text
        rest = text.replace(namesake.username, "").replace(words.player_name(namesake.username), "")
        return [m for m in marks if m in rest]

    before = await table.run(table.players[2], "game history")
    assert seen(reply_text(before)) != []  # (the attacks below can see the name when it is there)
    asked = await table.run(victim, "stats forget")
    pressed = await (await table.emu.click(victim, asked.message, f"wh:forget:{victim.id}")).wait(10)
    assert t("stats.forgotten", "en-US", count=1) in reply_text(pressed), reply_text(pressed)
    await table.delivered()

    for reader_, former in ((table.players[2], "a former player"), (lin, "一位前玩家")):
        history = reply_text(await table.run(reader_, "game history"))
        assert f"#{game_id}" in history or f"第{game_id}局" in history
        assert seen(history) == [] and former in history, history
    board = next(m for m in table.emu.channel_messages(table.channel, include_ephemeral=False) if f"wh:replay:{game_id}" in m.custom_ids())
    for reader_ in (table.players[2], lin):
        replay = await (await table.emu.click(reader_, board, f"wh:replay:{game_id}")).wait(20)
        assert [f.filename for f in files(replay)] == [f"wolfhowl-game-{game_id}.html"]
        page = _answer(replay)
        assert seen(page) == [] and "a former player" in page  # (the page speaks the game's language)
    log = await table.run(table.mod, "mod log")
    assert [f.filename for f in files(log)] == [f"wolfhowl-game-{game_id}.json"]
    assert seen(_answer(log)) == []
    exported = json.loads(files(log)[0].data)
    seat = next(p for p in exported["players"] if p["seat"] == 2)  # the victim joined second
    assert seat["name"] == FORGOTTEN_NAME and seat["user_id"] is None, seat
