"""Where the live games are: their server and channel, without their state. What the bot
checks against Discord at start-up (a channel deleted, a server that removed the bot
while it was down) and when it leaves a server; one indexed read of three columns, so
a start with thousands of live games reads none of their states. And which servers a
moderator's DM command should ask Discord about (:func:`servers_to_ask`): a bounded
few, those where the caller has a game first, never every server with a live game."""

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


async def servers_to_ask(db: Database, user_id: int, limit: int) -> list[int]:
    """The servers (at most ``limit``) whose live games ``user_id`` might moderate from a
    DM without having created them, where Discord must be asked whether they hold
    Manage Server or the moderator role there: the servers of live games someone else
    created, those where the caller has played or moderated a game (now or ever) first,
    then the others by their newest live game. A DM carries no server and the bot has no
    members intent, so each server asked is a request: a bot in thousands of servers asks
    about the few the caller is likely in, not all of them."""
    async with db.read() as s:
        return await games_repo.servers_with_others_live_games(s, user_id, limit)
