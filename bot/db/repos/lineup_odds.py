"""The line-ups' simulated odds, stored once per line-up, size and rules (``lineup_odds``,
keyed by ``bot.core.lineup_odds.odds_for``)."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from bot.db.models import LineupOdds


async def stored_keys(session: AsyncSession, keys: list[str]) -> set[str]:
    """Which of ``keys`` have their odds stored."""
    return set((await session.execute(select(LineupOdds.key).where(LineupOdds.key.in_(keys)))).scalars())
