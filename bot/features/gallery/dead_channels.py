"""The channel for the dead of each game channel, recorded by id when the bot creates it
(see ``bot.discord.guild.quiet_dead``: the only room the bot trusts as that channel). One per
game channel, kept across its games, as the room itself is; made again when deleted."""

from __future__ import annotations

from bot.core.errors import BadArgumentError
from bot.core.types import is_id
from bot.db.repos import gallery as gallery_repo
from bot.db.session import Database


async def dead_channel_of(db: Database, game_channel_id: int) -> int | None:
    """The id of the room the bot made for the dead of ``game_channel_id``, if it made one."""
    async with db.read() as s:
        return await gallery_repo.dead_channel_of(s, game_channel_id)


async def game_channel_of_dead(db: Database, dead_channel_id: int) -> int | None:
    """The game channel whose dead ``dead_channel_id`` is the room of, if it is one."""
    async with db.read() as s:
        return await gallery_repo.game_channel_of_dead(s, dead_channel_id)


async def record_dead_channel(db: Database, guild_id: int, game_channel_id: int, dead_channel_id: int) -> None:
    """Record the room the bot has just created for the dead of ``game_channel_id`` (in
    place of any before it)."""
    if not all(map(is_id, (guild_id, game_channel_id, dead_channel_id))):
        raise BadArgumentError(field="channel_id", reason="not a Discord id")
    async with db.transaction() as s:
        await gallery_repo.record_dead_channel(s, guild_id, game_channel_id, dead_channel_id, db.now())
