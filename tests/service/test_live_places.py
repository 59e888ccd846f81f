"""Where the live games are (bot.core.live_places): their places without their state,
and which servers a moderator's DM command asks Discord about."""

from __future__ import annotations

from bot.core.live_places import live_game_places
from bot.db.repos.games import servers_with_others_live_games
from bot.db.session import Database
from bot.features.lobby.games import create_game, join_game
from tests.service.helpers import MODERATOR, sees, user


async def _game_in(db: Database, guild: int, *, moderator=MODERATOR) -> int:
    return (await create_game(db, guild_id=guild, channel_id=guild * 10, moderator=moderator)).id


async def test_the_places_of_one_server_or_several(db: Database) -> None:
    a, b, c = [await _game_in(db, g) for g in (1, 2, 3)]
    assert [p.id for p in await live_game_places(db)] == [a, b, c]
    assert [(p.id, p.guild_id, p.channel_id) for p in await live_game_places(db, 2)] == [(b, 2, 20)]
    assert [p.id for p in await live_game_places(db, guild_ids=[1, 3])] == [a, c]


async def test_servers_asked_are_the_callers_first_then_the_newest_and_bounded(db: Database) -> None:
    caller = user(1)
    for guild in (1, 2, 3, 4, 5):
        await _game_in(db, guild)
    await join_game(db, 1, caller, await sees(db, 1, caller))  # the oldest game: the caller plays there
    await _game_in(db, 6, moderator=caller)  # the caller's own game: not asked about
    assert await asked(db, caller.id, 3) == [1, 5, 4]
    assert await asked(db, caller.id, 10) == [1, 5, 4, 3, 2]
    assert await asked(db, user(2).id, 2) == [6, 5]  # no history: the newest


async def asked(db, user_id: int, limit: int) -> list[int]:
    """The servers a moderator's DM command asks Discord about (``bot.core.table``)."""
    async with db.read() as s:
        return await servers_with_others_live_games(s, user_id, limit)
