"""Submissions: a grail number (Day), identifications and night orders (Dusk), a vote
(Morning). Each is checked by the engine against the current state and stored at once;
a resubmission of the same kind in the same phase replaces the earlier one.

A submission and a phase advance of the same game never interleave: both lock the game
row first. So a submission arriving as the phase closes is either stored before the
advance reads the phase's submissions (and counted), or sees the next phase and is
refused with PhaseClosedError — never carried over. A submission can also be withdrawn
(``withdraw_submission``); orders and identifications can be sent a piece at a time
(``bot.service.pieces``).
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

import engine
from bot.db import repositories as repo
from bot.db.models import Game, Submission
from bot.db.session import Database
from bot.service.common import (
    check_expected,
    check_id,
    locked_game,
    require_running,
    seat_of,
    seats_done,
    settings_of,
    state_of,
)
from bot.service.errors import (
    BadArgumentError,
    NoActiveGameError,
    PhaseClosedError,
    RuleRefusedError,
    ServiceError,
)
from bot.service.types import KIND_PHASE, PHASE_ORDER, Receipt
from engine.errors import WrongPhaseError

NOT_READ = object()  # store(): the caller has not read the stored submission

SUBMISSION_TYPES = (engine.GrailNumber, engine.Identification, engine.Orders, engine.Vote)


def closed_phase_before(round_no: int, phase: str) -> tuple[int, str]:
    """The phase that closed when (round_no, phase) opened."""
    i = PHASE_ORDER.index(phase)
    if i == 0:
        return round_no - 1, PHASE_ORDER[-1]
    return round_no, PHASE_ORDER[i - 1]


async def submit(
    db: Database,
    user_id: int,
    submission: engine.Submission,
    *,
    game_id: int | None = None,
    expected_round: int | None = None,
    expected_phase: str | None = None,
) -> Receipt:
    """Store ``submission`` from ``user_id`` for the current phase of their game (their
    one live game when ``game_id`` is None) and return a receipt.

    ``expected_round``/``expected_phase``: the phase the player was answering (e.g. from
    a button's custom id); if another phase is open now, PhaseClosedError.
    Raises RuleRefusedError (engine key and params) when the rules refuse it."""
    check_id(user_id, "user")
    if not isinstance(submission, SUBMISSION_TYPES):
        raise BadArgumentError(field="submission", reason="not a submission")
    check_expected(expected_round, expected_phase)
    now = db.now()
    async with db.transaction() as s:
        game, seat = await locked_seat(s, user_id, game_id, expected_round, expected_phase)
        state = state_of(game)
        normal = validated(state, game, seat, submission)
        return await store(s, game, seat, user_id, normal, now, state)


async def withdraw_submission(
    db: Database,
    user_id: int,
    kind: str,
    *,
    game_id: int | None = None,
    expected_round: int | None = None,
    expected_phase: str | None = None,
) -> bool:
    """Delete what ``user_id`` has sent of ``kind`` (grail, identify, orders, vote) in the
    open phase, so that it is not resolved and no longer counts as sent for the early
    advance (an early close already set stays: see ``close_early_if_all_sent``). True if
    something was withdrawn, False if nothing had been sent.

    ``expected_round``/``expected_phase`` pin the phase as for :func:`submit`
    (PhaseClosedError when another is open). Without a pin, outside the kind's phase:
    PhaseClosedError if that phase has just closed, else RuleRefusedError (wrong
    phase). Once the deadline has passed the phase still closes at the next tick, with
    whatever is left: like any late change, the withdrawal counts if it came first."""
    check_id(user_id, "user")
    if kind not in KIND_PHASE:
        raise BadArgumentError(field="kind", reason="grail, identify, orders or vote")
    check_expected(expected_round, expected_phase)
    async with db.transaction() as s:
        game, seat = await locked_seat(s, user_id, game_id, expected_round, expected_phase)
        assert game.phase is not None
        if KIND_PHASE[kind] != game.phase:
            wrong = WrongPhaseError(expected=f"phase.{KIND_PHASE[kind]}", phase=f"phase.{game.phase}")
            raise refusal(wrong, game, kind)
        return await repo.delete_submission(s, game.id, game.round, game.phase, seat, kind)


async def locked_seat(
    s: AsyncSession,
    user_id: int,
    game_id: int | None,
    expected_round: int | None,
    expected_phase: str | None,
) -> tuple[Game, int]:
    """Lock the caller's game (their one live game when ``game_id`` is None), check it is
    running, that they hold a seat and that the open phase is the one they expect; the
    game row and their seat."""
    if game_id is None:
        membership = await repo.live_membership(s, user_id)
        if membership is None:
            raise NoActiveGameError()
        game_id = membership.game_id
    game = await locked_game(s, game_id)
    require_running(game)
    holder = await seat_of(s, game, user_id)
    assert holder.seat is not None and game.phase is not None
    expected = (
        expected_round if expected_round is not None else game.round,
        expected_phase or game.phase,
    )
    if expected != (game.round, game.phase):
        raise PhaseClosedError(round=expected[0], phase=f"phase.{expected[1]}")
    return game, holder.seat


def refusal(exc: engine.RuleViolation, game: Game, kind: str) -> ServiceError:
    """The error for a submission of ``kind`` the engine refused: "phase closed" when it
    was meant for the phase that has just closed, else the engine's own reason."""
    assert game.phase is not None
    closed = closed_phase_before(game.round, game.phase)
    if exc.key == "error.wrong_phase" and closed[0] >= 1 and KIND_PHASE.get(kind) == closed[1]:
        return PhaseClosedError(round=closed[0], phase=f"phase.{closed[1]}")
    return RuleRefusedError(exc)


def validated(state: engine.GameState, game: Game, seat: int, submission: engine.Submission) -> engine.Submission:
    """The engine's normal form of ``submission`` from ``seat`` now, or the refusal."""
    try:
        return engine.validate(state, seat, submission)
    except engine.RuleViolation as exc:
        raise refusal(exc, game, submission.kind) from None


async def store(
    s: AsyncSession,
    game: Game,
    seat: int,
    user_id: int,
    normal: engine.Submission,
    now: datetime,
    state: engine.GameState | None = None,
    *,
    stored: Submission | object | None = NOT_READ,
) -> Receipt:
    """Store a validated submission (replacing this phase's one of the same kind) and
    move the deadline to now when everyone has sent and early advance is on. ``state``:
    the game's state when the caller has already decoded it; ``stored``: this phase's
    row of the same kind when the caller has already read it (None: there is none)."""
    assert game.phase is not None
    payload = normal.to_dict()
    if stored is NOT_READ:
        row = await repo.find_submission(s, game.id, game.round, game.phase, seat, normal.kind)
    else:
        assert stored is None or isinstance(stored, Submission)
        row = stored
    replaced = row is not None
    if row is None:
        row = Submission(
            game_id=game.id,
            round=game.round,
            phase=game.phase,
            seat=seat,
            kind=normal.kind,
            user_id=user_id,
            payload=payload,
            revision=1,
            created_at=now,
            updated_at=now,
        )
        s.add(row)
    else:
        row.payload = payload
        row.user_id = user_id
        row.revision += 1
        row.updated_at = now
    await s.flush()
    deadline = game.phase_deadline
    all_sent = await close_early_if_all_sent(s, game, now, state or state_of(game))
    return Receipt(
        game_id=game.id,
        round=game.round,
        phase=game.phase,
        seat=seat,
        kind=normal.kind,
        submission=payload,
        replaced=replaced,
        revision=row.revision,
        all_sent=all_sent,
        deadline=game.phase_deadline,
        deadline_moved=game.phase_deadline != deadline,
    )


async def _everyone_sent(s: Any, game_id: int, round_no: int, phase: str, state: engine.GameState) -> bool:
    living = {p.seat for p in state.players if p.alive}
    return living <= await seats_done(s, game_id, round_no, phase, state)


async def close_early_if_all_sent(s: Any, game: Game, now: datetime, state: engine.GameState) -> bool:
    """With early advance on, once every living player has sent (a submission came in, or
    the last who had not was removed), the deadline moves to now; at Dusk to now plus a
    short grace, so the last player's further pieces still count. Durable: the scheduler
    advances at the new deadline, even after a restart. True if everyone has sent.
    (A withdrawal later in the grace does not move the deadline back.)"""
    assert game.phase is not None
    all_sent = await _everyone_sent(s, game.id, game.round, game.phase, state)
    settings = settings_of(game)
    if all_sent and settings.early_advance and game.phase_deadline:
        grace = settings.dusk_grace_seconds if game.phase == "dusk" else 0
        early = now + timedelta(seconds=grace)
        if game.phase_deadline > early:
            game.phase_deadline = early
            game.reminder_due_at = None
    return all_sent


async def submit_grail(db: Database, user_id: int, number: int, **kw: Any) -> Receipt:
    """Day: a whole number 1-100."""
    if not isinstance(number, int) or isinstance(number, bool):
        raise BadArgumentError(field="number", reason="a whole number")
    return await submit(db, user_id, engine.GrailNumber(number), **kw)


async def submit_vote(db: Database, user_id: int, target: int, **kw: Any) -> Receipt:
    """Morning: the seat voted for."""
    if not isinstance(target, int) or isinstance(target, bool):
        raise BadArgumentError(field="target", reason="a seat number")
    return await submit(db, user_id, engine.Vote(target), **kw)


async def submit_payload(db: Database, user_id: int, payload: dict[str, Any], **kw: Any) -> Receipt:
    """Any submission as its dict form (``engine.submission_from_dict``)."""
    if not isinstance(payload, dict):
        raise BadArgumentError(field="submission", reason="not a submission")
    try:
        sub = engine.submission_from_dict(payload)
    except engine.RuleViolation as exc:
        raise RuleRefusedError(exc) from None
    return await submit(db, user_id, sub, **kw)
