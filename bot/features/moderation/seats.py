"""A seat of a running game changing hands, the pieces every road to it shares
(``/mod replace`` and ``/mod kick`` in ``moderation``, a standby's offer in ``standbys``,
an AI taking a seat in ``ai_seats``): the seat argument checked, the seat checked on
the game's table, the holder moved out."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from bot.core.errors import BadArgumentError, GameFinishedError, SeatGoneError, SeatNotFoundError
from bot.core.table import Table
from bot.db.models import GamePlayer


def check_seat_argument(seat: object) -> None:
    """A seat named by a moderator is a whole number (not a bool)."""
    if not isinstance(seat, int) or isinstance(seat, bool):
        raise BadArgumentError(field="seat", reason="a seat number")


async def held_seat(t: Table, seat: int) -> dict[int, Any]:
    """Check that the game of ``t`` has been dealt and is not finished (running or
    paused) and that its ``seat`` is living and held; its seat holders."""
    game = t.game
    if game.status not in ("running", "paused"):
        raise GameFinishedError(game_id=game.id)
    state = t.state
    holders = await t.holders()
    if not 1 <= seat <= len(state.players):
        raise SeatNotFoundError(seat=seat)
    if not state.player(seat).alive or seat not in holders:
        raise SeatGoneError(seat=seat)
    return holders


def vacate(holder: GamePlayer, status: str, now: datetime) -> None:
    """``holder`` leaves their seat (``status``: replaced, removed): they keep it as their
    former seat, which they may come back to but no other."""
    holder.former_seat = holder.seat
    holder.seat = None
    holder.status = status
    holder.active_user_id = None
    holder.left_at = now
