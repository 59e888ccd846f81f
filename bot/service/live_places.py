"""Where the live games are: their server and channel, without their state. What the bot
checks against Discord at start-up (a channel deleted, a server that removed the bot
while it was down) and when it leaves a server; one indexed read of three columns, so
a start with thousands of live games reads none of their states."""

from __future__ import annotations

from typing import NamedTuple

from sqlalchemy import select

from bot.db.models import Game
from bot.db.session import Database


class GamePlace(NamedTuple):
    """A live game's id, server and channel."""

    id: int
    guild_id: int
    channel_id: int


async def live_game_places(db: Database, guild_id: int | None = None) -> list[GamePlace]:
    """Every live game's place (lobby, running, paused), oldest first; those of one
    server when ``guild_id`` is given."""
    stmt = select(Game.id, Game.guild_id, Game.channel_id).where(Game.active_channel_id.is_not(None))
    if guild_id is not None:
        stmt = stmt.where(Game.guild_id == guild_id)
    async with db.read() as s:
        return [GamePlace(int(i), int(g), int(c)) for i, g, c in (await s.execute(stmt.order_by(Game.id))).all()]
