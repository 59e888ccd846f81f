"""The standby list as stored: who waits for a seat of a game, in the order they joined
(read by the game's views and by ``standbys``, which changes it)."""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncSession

from bot.db.models import Standby
from bot.db.repos import standbys as standbys_repo


async def standby_list(s: AsyncSession, game_id: int) -> list[str]:
    """The names on the standby list in order (those waiting and any being asked)."""
    return [st.display_name for st in await waiting(s, game_id, ("waiting", "asked"))]


async def waiting(s: AsyncSession, game_id: int, statuses: tuple[str, ...]) -> list[Standby]:
    """The game's standbys in one of ``statuses``, in the order they joined."""
    return await standbys_repo.standbys_in(s, game_id, statuses)
