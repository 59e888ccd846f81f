"""Where the live games are: their server and channel, without their state. What the bot
checks against Discord at start-up (a channel deleted, a server that removed the bot
while it was down) and when it leaves a server; one indexed read of three columns, so
a start with thousands of live games reads none of their states."""

from __future__ import annotations

from typing import NamedTuple

from bot.db.repos import games as games_repo
from bot.db.session import Database


class GamePlace(NamedTuple):
    """A live game's id, server and channel."""

    id: int
    guild_id: int | None  # None: a practice game (its channel is a DM)
    channel_id: int


async def live_game_places(db: Database, guild_id: int | None = None, *, guild_ids: list[int] | None = None) -> list[GamePlace]:
    """Every live game's place (lobby, running, paused), oldest first; those of one
    server when ``guild_id`` is given, of these servers when ``guild_ids`` is."""
    async with db.read() as s:
        rows = await games_repo.live_game_places(s, guild_id, guild_ids)
    return [GamePlace(int(i), None if g is None else int(g), int(c)) for i, g, c in rows]
