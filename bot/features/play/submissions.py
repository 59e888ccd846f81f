"""Submissions: a grail number (Day), identifications and night orders (Dusk), a vote
(Morning). Each is checked by the engine against the current state and stored at once;
a resubmission of the same kind in the same phase replaces the earlier one.

A submission and a phase advance of the same game never interleave: both lock the game
row first. So a submission arriving as the phase closes is either stored before the
advance reads the phase's submissions (and counted), or sees the next phase and is
refused with PhaseClosedError — never carried over. Every submission comes in by one road,
``bot.features.play.commands.handle``, which also withdraws one; orders and identifications
can be sent a piece at a time (``engine.pieces``).

A submission is one unit of work from the lock to the answer: the receipt carries the
player's own view just after it (``Receipt.view``), read in the same transaction from
what the submission read anyway (the game with the player's unread count in one
statement, every player row in one, the phase's submissions in one), so the bot's answer
does not read the game again.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta
from typing import Any

import engine
from bot.core import policy
from bot.core.errors import NotInGameError, PhaseClosedError, RuleRefusedError, ServiceError
from bot.core.policy import Action, Standing
from bot.core.table import Table
from bot.core.types import Receipt, require_running
from bot.db import repositories as repo
from bot.db.models import Game

SUBMISSION_TYPES = (engine.GrailNumber, engine.Identification, engine.Orders, engine.Vote)


async def seated(table: Table, expected_round: int | None, expected_phase: str | None) -> Any:
    """The caller's seat row, once the game is running, they hold a seat and the open
    phase is the one they expect."""
    game = table.game
    require_running(game)
    holder = await table.caller_row()
    # The access policy's act: asked of the seat the database says the caller holds, and
    # of no fact of Discord's (see bot.core.policy).
    policy.require(Action.ACT, Standing.stranger(table.place.user.id if table.place else 0), game, holder)
    if holder is None or holder.seat is None:  # a lobby's row, in a game dealt since
        raise NotInGameError(game_id=game.id)
    assert game.phase is not None
    expected = (
        expected_round if expected_round is not None else game.round,
        expected_phase or game.phase,
    )
    if expected != (game.round, game.phase):
        raise PhaseClosedError(round=expected[0], phase=f"phase.{expected[1]}")
    return holder


async def store_mine(table: Table, seat: int, normal: engine.Submission) -> Receipt:
    """:func:`store` the caller's validated submission; the receipt carries their view
    just after it."""
    user_id = table.place.user.id if table.place else 0
    receipt = await store(table, seat, user_id, normal)
    return replace(receipt, view=await table.view({receipt.kind: receipt.submission}))


def refusal(exc: engine.RuleViolation, game: Game, kind: str) -> ServiceError:
    """The error for a submission of ``kind`` the engine refused: "phase closed" when it
    was meant for the phase that has just closed, else the engine's own reason."""
    assert game.phase is not None
    closed = engine.phase_before(game.round, game.phase)
    if exc.key == "error.wrong_phase" and closed[0] >= 1 and engine.PHASE_OF_KIND.get(kind) == closed[1]:
        return PhaseClosedError(round=closed[0], phase=f"phase.{closed[1]}")
    return RuleRefusedError(exc)


def validated(state: engine.GameState, game: Game, seat: int, submission: engine.Submission) -> engine.Submission:
    """The engine's normal form of ``submission`` from ``seat`` now, or the refusal."""
    try:
        return engine.validate(state, seat, submission)
    except engine.RuleViolation as exc:
        raise refusal(exc, game, submission.kind) from None


async def store(t: Table, seat: int, user_id: int, normal: engine.Submission) -> Receipt:
    """Store a validated submission (replacing this phase's one of the same kind) and
    move the deadline to now when everyone has sent and early advance is on. The
    table's phase rows are as read before it (one statement serves to find the row
    replaced and who has sent): a unit that stores again reads them anew
    (``Table.phase_rows_changed``)."""
    game, s, now = t.game, t.session, t.now
    assert game.phase is not None
    payload = normal.to_dict()
    rows = await t.phase_rows()
    old = next((r for r in rows if r.seat == seat and r.kind == normal.kind), None)
    replaced = old is not None
    revision = 1 if old is None else old.revision + 1
    if old is None:
        await repo.insert_submission(s, game.id, game.round, game.phase, seat, normal.kind, user_id, payload, revision, now)
    else:
        await repo.replace_submission(s, old.id, user_id, payload, revision, now)
    deadline = game.phase_deadline
    sent = {(r.seat, r.kind) for r in rows} | {(seat, normal.kind)}
    all_sent = await close_early_if_all_sent(t, sent)
    return Receipt(
        game_id=game.id,
        round=game.round,
        phase=game.phase,
        seat=seat,
        kind=normal.kind,
        submission=payload,
        replaced=replaced,
        revision=revision,
        all_sent=all_sent,
        deadline=game.phase_deadline,
        deadline_moved=game.phase_deadline != deadline,
        before=None if old is None else dict(old.payload),
    )


async def close_early_if_all_sent(t: Table, sent: set[tuple[int, str]] | None = None) -> bool:
    """With early advance on, once every living player has sent (a submission came in, or
    the last who had not was removed), the deadline moves to now; at Dusk to now plus a
    short grace, so the last player's further pieces still count. Durable: the scheduler
    advances at the new deadline, even after a restart. True if everyone has sent.
    (A withdrawal later in the grace does not move the deadline back.) ``sent``: the
    (seat, kind) of every submission of the phase, when the caller knows them."""
    game, now, state = t.game, t.now, t.state
    assert game.phase is not None
    done = await t.done_seats() if sent is None else engine.done_seats(state, game.phase, sent)
    all_sent = {p.seat for p in state.players if p.alive} <= done
    settings = t.settings
    if all_sent and settings.early_advance and game.phase_deadline:
        grace = settings.dusk_grace_seconds if game.phase == "dusk" else 0
        early = now + timedelta(seconds=grace)
        if game.phase_deadline > early:
            game.phase_deadline = early
            game.reminder_due_at = None
    return all_sent
