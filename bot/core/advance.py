"""Advancing a phase: read the phase's stored submissions, run the engine, and write the
new state, the step of the game log (submissions, events, rolls) and every outgoing
message in one transaction; what the features add to a phase's close (the AI seats'
last decisions, the absent, records at the end, the gallery, the prompts, the AI seats'
next turns) comes with it at the step's moments (``bot.core.hooks``).

Two advances of the same phase at once (two moderators, a moderator and the deadline)
make one advance: each locks the game row first, and the second then finds that the
phase it meant to close is gone (AlreadyAdvancedError, or a silent no-op for the
deadline). The version check in every UPDATE of a game is a second guard.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy.orm.exc import StaleDataError

import engine
from bot.core import hooks, table
from bot.core.clock import arm_clock
from bot.core.errors import AlreadyAdvancedError, ConcurrentChangeError
from bot.core.hooks import Step
from bot.core.steps import (
    finish,
    mail_news,
    mail_seed_reveal,
    open_phase,
    step_result,
    submissions_from,
    write_step,
)
from bot.core.table import Table
from bot.core.types import StepResult, check_expected, require_running
from bot.db import repositories as repo
from bot.db.session import Database
from engine.night import turns as night_turns


async def advance_phase(
    db: Database,
    game_id: int,
    *,
    expected_round: int | None = None,
    expected_phase: str | None = None,
) -> StepResult:
    """Close the current phase now (a moderator's "advance").

    ``expected_round``/``expected_phase``: the phase the moderator meant to close; when
    another is open (someone advanced first), AlreadyAdvancedError and nothing changes."""
    check_expected(expected_round, expected_phase)
    try:
        async with table.of(db, game_id, writing=True) as t:
            return await advance_now(t, expected_round=expected_round, expected_phase=expected_phase)
    except StaleDataError:
        # Only reachable if a writer skipped the row lock: the version guard caught it.
        raise ConcurrentChangeError(game_id=game_id) from None


async def advance_now(t: Table, *, expected_round: int | None = None, expected_phase: str | None = None) -> StepResult:
    """A moderator's advance of the game ``t`` has locked: the phase they meant, else
    AlreadyAdvancedError."""
    game = t.game
    require_running(game, paused="error.paused_advance")
    want = (expected_round if expected_round is not None else game.round, expected_phase or game.phase)
    if want != (game.round, game.phase):
        raise AlreadyAdvancedError(round=game.round, phase=f"phase.{game.phase}")
    return await advance(t)


async def advance(t: Table, *, at_deadline: bool = False) -> StepResult:
    """The advance itself, on a game the caller has locked and checked. ``at_deadline``:
    the phase closes at its deadline (its own, or the early close's), so those who sent
    nothing have missed it; a moderator's advance cuts the phase short and counts no
    misses."""
    game = t.game
    step = Step(t, "advance", game.round, str(game.phase), at_deadline=at_deadline)
    await hooks.CLOSING.publish(step)
    before = t.state
    payloads: dict[str, list[dict[str, Any]]] = {}
    for row in await repo.phase_submissions(t.session, game.id, step.round_no, step.phase):
        payloads.setdefault(str(row.seat), []).append(row.payload)
    submissions = submissions_from(payloads)
    outcome = engine.advance(before, submissions, game.secret_seed)
    step.events, step.rolls = outcome.events, outcome.rolls
    seq = write_step(t, step, inputs={"submissions": payloads}, state=outcome.state)
    if step.over:
        await finish(t, "over", outcome.state.end_reason, step)
    else:
        arm_clock(t)
    news = outcome.events
    if step.phase == "dusk":  # each seat's own turn in the story of its night
        news = night_turns.with_turns(news, submissions, {p.seat: p.class_id for p in before.players})
    await mail_news(step, await t.mail(seq=seq, round_no=step.round_no, phase=step.phase), news)
    await hooks.TOLD.publish(step)
    if step.over:
        mail_seed_reveal(step.told(), game)
    else:
        await open_phase(step)
    await t.session.flush()
    return step_result(step, seq)
