"""The standby list as stored: who waits for a seat of a game, in the order they joined
(read by the game's views and by ``standbys``, which changes it)."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from bot.db.models import Standby


async def standby_list(s: AsyncSession, game_id: int) -> list[str]:
    """The names on the standby list in order (those waiting and any being asked)."""
    return [st.display_name for st in await waiting(s, game_id, ("waiting", "asked"))]


async def waiting(s: AsyncSession, game_id: int, statuses: tuple[str, ...]) -> list[Standby]:
    stmt = select(Standby).where(Standby.game_id == game_id, Standby.status.in_(statuses)).order_by(Standby.joined_at, Standby.id)
    return list((await s.execute(stmt)).scalars())
