"""A player's say over their stats: hide them from others (and the leaderboards), show
them again, or have their records forgotten.

Forgetting keeps every game whole: each seat the user held stays in its game's record,
with the user's id and name gone; their standings go, and the standings of the servers
they played in are replayed from the records as they now are, so that
``wolfhowl db ratings --rebuild`` still lands on the numbers shown."""

from __future__ import annotations

from sqlalchemy import delete, select, update

from bot.db.models import PlayerProfile, PlayerStanding, SeatRecord
from bot.db.session import Database
from bot.service.common import check_id
from bot.service.ratings import rebuild_standings


async def set_hidden(db: Database, user_id: int, hidden: bool) -> bool:
    """Hide (or show again) the user's stats; False when it was so already."""
    check_id(user_id, "user")
    async with db.transaction() as s:
        profile = await s.get(PlayerProfile, user_id)
        if profile is not None and profile.hidden == hidden:
            return False
        if profile is None:
            if not hidden:
                return False
            s.add(PlayerProfile(user_id=user_id, hidden=True, updated_at=db.now()))
        else:
            profile.hidden, profile.updated_at = hidden, db.now()
        return True


async def forget(db: Database, user_id: int) -> int:
    """Take the user out of every record (the seats stay, anonymous); returns how many
    seat records they had. Their profile and standings are deleted."""
    check_id(user_id, "user")
    async with db.transaction() as s:
        guilds = sorted(
            set((await s.execute(select(SeatRecord.guild_id).where(SeatRecord.user_id == user_id).distinct())).scalars())
        )
        changed = await s.execute(
            update(SeatRecord).where(SeatRecord.user_id == user_id).values(user_id=None, name=None)
        )
        await s.execute(delete(PlayerStanding).where(PlayerStanding.user_id == user_id))
        await s.execute(delete(PlayerProfile).where(PlayerProfile.user_id == user_id))
        if guilds:
            await rebuild_standings(s, guilds)
        return int(getattr(changed, "rowcount", 0) or 0)
