"""A seat of a running game changing hands, the pieces every road to it shares
(``/mod replace`` and ``/mod kick`` in ``moderation``, a standby's offer in ``standbys``,
an AI taking a seat in ``ai_seats``): the seat argument checked, the game and the seat
locked, the holder moved out, the step's result."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy.ext.asyncio import AsyncSession

import engine
from bot.core.common import locked_game, state_of
from bot.core.errors import BadArgumentError, GameFinishedError, SeatGoneError, SeatNotFoundError
from bot.core.types import StepResult
from bot.db import repositories as repo
from bot.db.models import Game, GamePlayer


def check_seat_argument(seat: object) -> None:
    """A seat named by a moderator is a whole number (not a bool)."""
    if not isinstance(seat, int) or isinstance(seat, bool):
        raise BadArgumentError(field="seat", reason="a seat number")


async def locked_seat(
    s: AsyncSession, game_id: int, seat: int
) -> tuple[Game, engine.GameState, dict[int, GamePlayer]]:
    """Lock a game that has been dealt and not finished (running or paused) whose
    ``seat`` is living and held; with its state and its seat holders."""
    game = await locked_game(s, game_id)
    if game.status not in ("running", "paused"):
        raise GameFinishedError(game_id=game.id)
    state = state_of(game)
    holders = await repo.seat_holders(s, game.id)
    if not 1 <= seat <= len(state.players):
        raise SeatNotFoundError(seat=seat)
    if not state.player(seat).alive or seat not in holders:
        raise SeatGoneError(seat=seat)
    return game, state, holders


def vacate(holder: GamePlayer, status: str, now: datetime) -> None:
    """``holder`` leaves their seat (``status``: replaced, removed): they keep it as their
    former seat, which they may come back to but no other."""
    holder.former_seat = holder.seat
    holder.seat = None
    holder.status = status
    holder.active_user_id = None
    holder.left_at = now


def step_result(
    game: Game,
    seq: int,
    kind: str,
    messages: int,
    round_no: int | None = None,
    phase: str | None = None,
    events: list[engine.Event] | None = None,
) -> StepResult:
    """What a moderator's step returns: the game after it and its public events."""
    return StepResult(
        game_id=game.id,
        seq=seq,
        kind=kind,
        closed_round=game.round if round_no is None else round_no,
        closed_phase=phase or str(game.phase),
        round=game.round,
        phase=str(game.phase),
        status=game.status,
        deadline=game.phase_deadline,
        messages=messages,
        events=[e.to_dict() for e in events or [] if e.audience is engine.Audience.PUBLIC],
    )
