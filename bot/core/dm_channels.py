"""Each user's DM channel with the bot, remembered the first time it is opened (Discord
keeps it for good): a DM to a known user is then one request, the message, instead of
fetching the user and opening the channel again each time. Forgotten when Discord says
the channel is unknown, so the next DM opens it again."""

from __future__ import annotations

from bot.core.errors import BadArgumentError
from bot.core.types import is_id
from bot.db.repos import users as users_repo
from bot.db.session import Database


async def dm_channel_of(db: Database, user_id: int) -> int | None:
    """The id of ``user_id``'s DM channel with the bot, if it has been opened before."""
    async with db.read() as s:
        return await users_repo.dm_channel(s, user_id)


async def remember_dm_channel(db: Database, user_id: int, channel_id: int) -> None:
    """Record ``user_id``'s DM channel (opened just now); a second process recording the
    same user at once changes nothing."""
    if not is_id(user_id) or not is_id(channel_id):
        raise BadArgumentError(field="channel_id", reason="not a Discord id")
    async with db.transaction() as s:
        await users_repo.remember_dm_channel(s, user_id, channel_id, db.now())


async def forget_dm_channel(db: Database, user_id: int) -> None:
    """Discord no longer knows the remembered channel: open a new one next time."""
    async with db.transaction() as s:
        await users_repo.forget_dm_channel(s, user_id)
