"""The standby lists (``standbys``) and the seats offered from them (``seat_offers``):
who waits for a seat of a game and in which order, the offers open, those whose time is
up, and the next expiry, which the scheduler sleeps on (``bot.features.standbys``)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import bindparam, select
from sqlalchemy.ext.asyncio import AsyncSession

from bot.db.models import SeatOffer, Standby

# Asked at every scheduler tick, so built once.
_DUE_OFFERS = select(SeatOffer.id, SeatOffer.game_id).where(SeatOffer.status == "open", SeatOffer.expires_at <= bindparam("now"))


async def standby_of(session: AsyncSession, game_id: int, user_id: int) -> Standby | None:
    """The user's row on the game's standby list (in any status), if any."""
    stmt = select(Standby).where(Standby.game_id == game_id, Standby.user_id == user_id)
    return (await session.execute(stmt)).scalar_one_or_none()


async def standbys_in(session: AsyncSession, game_id: int, statuses: tuple[str, ...]) -> list[Standby]:
    """The game's standbys in one of ``statuses``, in the order they joined."""
    stmt = select(Standby).where(Standby.game_id == game_id, Standby.status.in_(statuses)).order_by(Standby.joined_at, Standby.id)
    return list((await session.execute(stmt)).scalars())


async def open_offers(session: AsyncSession, game_id: int, *, seat: int | None = None, user_id: int | None = None) -> list[SeatOffer]:
    """The game's open offers (of one ``seat``, to one ``user_id``), oldest first."""
    stmt = select(SeatOffer).where(SeatOffer.game_id == game_id, SeatOffer.status == "open")
    if seat is not None:
        stmt = stmt.where(SeatOffer.seat == seat)
    if user_id is not None:
        stmt = stmt.where(SeatOffer.user_id == user_id)
    return list((await session.execute(stmt.order_by(SeatOffer.id))).scalars())


async def due_offers(session: AsyncSession, now: datetime) -> list[tuple[int, int]]:
    """(offer id, game id) of every open offer whose time is up at ``now``."""
    return [(offer_id, game_id) for offer_id, game_id in (await session.execute(_DUE_OFFERS, {"now": now})).all()]


def next_expiry() -> Any:
    """When the next open offer expires, as a scalar subquery for the scheduler's sleep
    (``bot.core.deadlines.wakeup_statement``)."""
    return select(SeatOffer.expires_at).where(SeatOffer.status == "open").order_by(SeatOffer.expires_at).limit(1).scalar_subquery()
