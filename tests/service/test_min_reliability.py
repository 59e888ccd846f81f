"""A lobby's minimum reliability (``min_reliability``): a join of the lobby or of the
standby list below it is refused, saying the player's figure, the games it is over and
the minimum; a new player (fewer than three games in the server) is let in, as is
everyone when the minimum is off; records of another server do not count; the AI's
seats fill the table as before; a game already running takes the minimum for its
standby list."""

from __future__ import annotations

import pytest

from bot.core.types import GameSettings, UserRef
from bot.db.session import Database
from bot.features.lobby.games import create_game, get_game, join_game, start_game
from bot.features.moderation.moderation import update_settings
from bot.features.records.reliability import ReliabilityTooLowError
from bot.features.standbys.standbys import join_standby
from bot.render.refusals import service_refusal
from tests.records.test_reliability import seed_records
from tests.service.helpers import CHANNEL, GUILD, MODERATOR, sees, user

ME, OTHER = 7, 8  # the seeded players (tests.records.test_reliability.seed_records)


def _who(user_id: int, name: str) -> UserRef:
    return UserRef(user_id, name)


async def _records(db: Database) -> None:
    """ME: 4 games here at 5 of 10 phases sent (50%); OTHER: 4 games here at 9 of 10
    (90%); ME again in another server at 100%."""
    rows = []
    for g in range(1, 5):
        rows.append((g, GUILD, ME, False, (10, 5, 0)))
        rows.append((g, GUILD, OTHER, False, (10, 9, 0)))
    rows += [(g, GUILD + 1, ME, False, (10, 10, 0)) for g in range(10, 15)]
    await seed_records(db, rows)


async def _lobby(db: Database, **settings: object) -> int:
    info = await create_game(db, guild_id=GUILD, channel_id=CHANNEL, moderator=MODERATOR, settings=GameSettings.build(**settings), seed="min-reliability")
    return info.id


async def test_a_join_below_the_minimum_is_refused_with_the_figure_and_the_way_up(db: Database) -> None:
    await _records(db)
    game_id = await _lobby(db, min_reliability=80, fill_to=8)
    ai_before = sum(1 for p in (await get_game(db, game_id)).players if not p.user_id)  # filling to 8
    low, high, newcomer = _who(ME, "Low"), _who(OTHER, "High"), user(1)
    with pytest.raises(ReliabilityTooLowError) as refused:
        await join_game(db, game_id, low, await sees(db, game_id, low))
    assert refused.value.params == {"percent": 50, "games": 4, "min": 80}
    text = service_refusal(refused.value, "en-US")
    assert "at least 80%" in text and "is 50%" in text and "last 4 games" in text and "without missing a phase" in text
    zh = service_refusal(refused.value, "zh-CN")
    assert "至少80%" in zh and "50%" in zh and "最近4局" in zh and "不错过任何阶段" in zh
    with pytest.raises(ReliabilityTooLowError):
        await join_standby(db, game_id, low, await sees(db, game_id, low))
    assert [p.user_id for p in (await get_game(db, game_id)).players].count(0) == ai_before == 7  # untouched
    # 90% and a newcomer with no record are let in; the AI gives way to each as before.
    await join_game(db, game_id, high, await sees(db, game_id, high))
    await join_game(db, game_id, newcomer, await sees(db, game_id, newcomer))
    info = await get_game(db, game_id)
    humans = sorted(p.user_id for p in info.players if p.user_id)
    assert humans == sorted([OTHER, newcomer.id]) and len(info.players) == 8
    assert sum(1 for p in info.players if not p.user_id) == 8 - 2
    # The minimum off: everyone.
    await update_settings(db, game_id, min_reliability=0)
    await join_game(db, game_id, low, await sees(db, game_id, low))


async def test_the_minimum_reads_this_servers_games_and_holds_for_a_running_games_standbys(db: Database) -> None:
    await _records(db)
    game_id = await _lobby(db, min_reliability=60)
    for i in range(1, 7):
        await join_game(db, game_id, user(i), await sees(db, game_id, user(i)))
    await start_game(db, game_id)
    low = _who(ME, "Low")
    # 100% in another server, 50% here: here is what counts.
    with pytest.raises(ReliabilityTooLowError) as refused:
        await join_standby(db, game_id, low, await sees(db, game_id, low))
    assert refused.value.params["percent"] == 50
    # The moderator lowers it: the standby list takes them.
    await update_settings(db, game_id, min_reliability=50)
    assert await join_standby(db, game_id, low, await sees(db, game_id, low)) == 1
