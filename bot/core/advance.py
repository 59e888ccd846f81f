"""Advancing a phase: read the phase's stored submissions, run the engine, and write the
new state, the step of the game log (submissions, events, rolls) and every outgoing
message in one transaction.

Two advances of the same phase at once (two moderators, a moderator and the deadline)
make one advance: each locks the game row first, and the second then finds that the
phase it meant to close is gone (AlreadyAdvancedError, or a silent no-op for the
deadline). The version check in every UPDATE of a game is a second guard.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm.exc import StaleDataError

import engine
from bot.core.common import (
    add_step,
    apply_state,
    arm_clock,
    check_expected,
    finish,
    locked_game,
    mail_events,
    mail_for,
    mail_phase_started,
    mail_seed_reveal,
    require_running,
    state_of,
    submissions_from,
)
from bot.core.errors import AlreadyAdvancedError, ConcurrentChangeError
from bot.core.types import StepResult
from bot.db import repositories as repo
from bot.db.models import Game
from bot.db.session import Database
from bot.features.absence import absence
from bot.features.ai_seats import play as ai_play
from bot.features.ai_seats import turns as ai_turns
from bot.features.endings.endings import mail_endings
from bot.features.gallery import gallery, predictions
from bot.features.prompts import prompts
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
        async with db.transaction() as s:
            game = await locked_game(s, game_id)
            require_running(game, paused="error.paused_advance")
            want = (
                expected_round if expected_round is not None else game.round,
                expected_phase or game.phase,
            )
            if want != (game.round, game.phase):
                raise AlreadyAdvancedError(round=game.round, phase=f"phase.{game.phase}")
            return await advance_locked(s, game, db.now())
    except StaleDataError:
        # Only reachable if a writer skipped the row lock: the version guard caught it.
        raise ConcurrentChangeError(game_id=game_id) from None


async def advance_locked(s: AsyncSession, game: Game, now: datetime, *, at_deadline: bool = False) -> StepResult:
    """The advance itself, on a game row the caller has locked and checked.
    ``at_deadline``: the phase closes at its deadline (its own, or the early close's),
    so those who sent nothing have missed it; a moderator's advance cuts the phase short
    and counts no misses (see ``absence.count_misses``)."""
    await ai_play.play_before_close(s, game, now)  # an AI seat has decided by the close
    state = state_of(game)
    closed_round, closed_phase = game.round, str(game.phase)
    missed = await absence.count_misses(s, game, state, closed_round, closed_phase, counted=at_deadline)
    rows = await repo.phase_submissions(s, game.id, closed_round, closed_phase)
    payloads: dict[str, list[dict[str, Any]]] = {}
    for row in rows:
        payloads.setdefault(str(row.seat), []).append(row.payload)
    submissions = submissions_from(payloads)
    outcome = engine.advance(state, submissions, game.secret_seed)
    apply_state(game, outcome.state)
    seq = add_step(
        s,
        game,
        kind="advance",
        round_no=closed_round,
        phase=closed_phase,
        inputs={"submissions": payloads},
        events=outcome.events,
        rolls=outcome.rolls,
        state=outcome.state,
        now=now,
    )
    over = outcome.state.over
    ratings = {}
    if over:
        ratings = await finish(s, game, now, "over", outcome.state.end_reason)
    else:
        arm_clock(game, now)
    mail, holders = await mail_for(s, game, seq=seq, round_no=closed_round, phase=closed_phase, now=now)
    news = outcome.events
    if closed_phase == "dusk":  # each seat's own turn in the story of its night
        news = night_turns.with_turns(news, submissions, {p.seat: p.class_id for p in state.players})
    await mail_events(mail, holders, news, closed_round, closed_phase, step="advance", state=outcome.state)
    await gallery.mail_truth(
        mail, game, step="advance", round_no=closed_round, phase=closed_phase, events=outcome.events, rolls=outcome.rolls, state=outcome.state
    )
    if over:
        await mail_endings(mail, holders, outcome.state, ratings)
        mail_seed_reveal(mail, game)
    opened = None if over else mail_phase_started(mail, game, notice=not await prompts.prompt_is_the_notice(s, game))
    if not over:
        await predictions.mail_round_open(mail, game)
    told = bool(missed) and await absence.told_privately(s, game)
    due = absence.mail_warnings(mail, game, missed, closed_round, closed_phase, moderator_told=told)
    await s.flush()
    await absence.apply_policy(s, game, mail, due, now, moderator_told=told)
    await s.flush()
    if not over:
        await prompts.mail_prompts(mail, game, follows=opened)
        await s.flush()
    await ai_turns.plan_phase(s, game)  # the new phase's AI turns, seats handed over by the policy too
    return StepResult(
        game_id=game.id,
        seq=seq,
        kind="advance",
        closed_round=closed_round,
        closed_phase=closed_phase,
        round=game.round,
        phase=str(game.phase),
        status=game.status,
        deadline=game.phase_deadline,
        messages=mail.count,
        events=[e.to_dict() for e in outcome.events if e.audience is engine.Audience.PUBLIC],
    )
