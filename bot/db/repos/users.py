"""What the bot keeps of a user beside their name and language (``bot.db.repositories``):
their own time zone (``users.timezone``: ``bot.core.time_zones``) and their
DM channel with the bot, remembered once opened (``dm_channels``: ``bot.core.dm_channels``)."""

from __future__ import annotations

from collections.abc import Collection
from datetime import datetime

from sqlalchemy import delete, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncSession

from bot.db.models import DmChannel, User


async def set_time_zone(session: AsyncSession, user_id: int, zone: str | None) -> None:
    """The user's own time zone (None: none); the user is recorded already."""
    await session.execute(update(User).where(User.id == user_id).values(timezone=zone))


async def time_zone(session: AsyncSession, user_id: int) -> str | None:
    found: str | None = (await session.execute(select(User.timezone).where(User.id == user_id))).scalar_one_or_none()
    return found


async def time_zones(session: AsyncSession, user_ids: list[int]) -> dict[int, str]:
    """The users' own time zones, for those who set one."""
    rows = await session.execute(select(User.id, User.timezone).where(User.id.in_(user_ids), User.timezone.is_not(None)))
    return {int(uid): str(zone) for uid, zone in rows.all()}


async def dm_channel(session: AsyncSession, user_id: int) -> int | None:
    """The user's DM channel with the bot, if it has been remembered."""
    found = await session.scalar(select(DmChannel.channel_id).where(DmChannel.user_id == user_id))
    return None if found is None else int(found)


async def dm_channels(session: AsyncSession, user_ids: Collection[int]) -> dict[int, int]:
    """The remembered DM channels of those of ``user_ids`` who have one."""
    if not user_ids:
        return {}
    rows = await session.execute(select(DmChannel.user_id, DmChannel.channel_id).where(DmChannel.user_id.in_(list(user_ids))))
    return {int(u): int(c) for u, c in rows.all()}


async def remember_dm_channel(session: AsyncSession, user_id: int, channel_id: int, now: datetime) -> None:
    """Remember the user's DM channel: an upsert on the user, which two processes
    recording at once cannot collide in."""
    insert = postgresql.insert if session.get_bind().dialect.name == "postgresql" else sqlite.insert
    stmt = insert(DmChannel).values(user_id=user_id, channel_id=channel_id, created_at=now)
    await session.execute(stmt.on_conflict_do_update(index_elements=[DmChannel.user_id], set_={"channel_id": stmt.excluded.channel_id}))


async def forget_dm_channel(session: AsyncSession, user_id: int) -> None:
    await session.execute(delete(DmChannel).where(DmChannel.user_id == user_id))
