"""Absent players. At each phase's close, from what was stored, a living player the
phase asked something of who sent nothing has missed it: no grail number by the Day's
close, neither orders nor a pass by the Dusk's, no vote by the Morning's. The wounded
(they cannot act) and a grappler keeping its hold (which it does by sending nothing) are
never counted. A grappled player is counted like anyone: it is never told it is held,
and a miss not counted would tell it. Only a phase closed at its deadline counts: one a
moderator closes early (``/phase advance``) gave nobody the time promised.

Each miss is told to the player by DM (``/inbox`` when DMs are closed) with what
follows after how many more; after the game's ``absence_misses`` in a row its policy
acts: the seat is offered to the standbys (``bot.features.standbys.standbys``; removed when none
takes it), removed, or the moderator only is told. The engine learns only the result: a
``remove`` or ``replace`` step of the game log, as a moderator's would be.

A moderator who holds a seat (or held one: :func:`common.has_played`, as ``/mod status``
decides whom to show the misses) is a player: who missed what is not theirs to know. The
policy still acts, and what it does to a seat (a removal, a standby or the AI taking it
over) is public as a moderator's own would be, but nobody is told privately of the misses;
"only tell the moderator" then tells nobody, so the one who misses is warned without a
"the moderator is told" that would not be true."""

from __future__ import annotations

from typing import Any

import engine
from bot.core import hooks
from bot.core.deadlines import RUN_NOTES
from bot.core.hooks import Step
from bot.core.messages import AbsenceModerator, AbsenceWarning, MissRun
from bot.core.outbox import Mail
from bot.core.table import Table
from bot.db import repositories as repo
from bot.features.ai_seats.ai_seats import hand_to_ai
from bot.features.moderation.moderation import remove_seat
from bot.features.records.reliability import asks
from bot.features.standbys.standbys import open_offer_for, start_offers

NOTE = "absence"  # this feature's note on a step (the holders who missed its phase)


def asked_of(state: engine.GameState, seat: int, phase: str) -> bool:
    """Whether the open ``phase`` asks ``seat`` for something it can send."""
    return asks(state.player(seat), phase)


@hooks.CLOSING.listen(20)
async def phase_closing(step: Step) -> None:
    """(A phase is closing.) Who missed it: kept on the step for :func:`phase_opened`."""
    step.notes[NOTE] = await count_misses(step.table, step.phase, counted=step.at_deadline)


@hooks.OPENED.listen(20)
async def phase_opened(step: Step) -> None:
    """(The next phase has opened.) Each one who missed the last is warned, and the
    absence policy applied to those whose run has reached its limit."""
    missed = step.notes.get(NOTE) or []
    t = step.table
    told = bool(missed) and await told_privately(t)
    due = mail_warnings(step.told(), t, missed, step.round_no, step.phase, moderator_told=told)
    await t.session.flush()
    await apply_policy(t, step.told(), due, moderator_told=told)
    await t.session.flush()


async def count_misses(t: Table, phase: str, *, counted: bool = True) -> list[Any]:
    """At the close of ``phase`` (the state as it stood, before the engine resolves it):
    add a miss to each seat asked that sent nothing, start a fresh run for each that
    sent; the holders who missed. Not ``counted`` (a moderator closed the phase before
    its deadline: nobody had the time they were promised), only the fresh runs."""
    state = t.state
    done = await t.done_seats()
    missed = []
    for seat, holder in sorted((await t.holders()).items()):
        if holder.user_id is None or not asked_of(state, seat, phase):
            continue  # (an AI seat plays every phase: nobody is absent there)
        if seat in done:
            holder.misses_in_row = 0
        elif counted:
            holder.misses_in_row += 1
            holder.misses_total += 1
            missed.append(holder)
    return missed


async def told_privately(t: Table) -> bool:
    """Whether the game's moderator may be told of the others' misses: not when they play."""
    return not await t.has_played(t.game.moderator_id)


def policy_limit(t: Table, moderator_told: bool) -> int:
    """The misses in a row after which the policy acts (0: never). "Only the moderator is
    told", with a moderator who plays, is nothing to do (see the module docstring)."""
    settings = t.settings
    if settings.absence_action == "notify" and not moderator_told:
        return 0
    return settings.absence_misses


async def reminder_note(t: Table, holder: Any) -> MissRun | None:
    """What a phase's private reminder adds for a holder already on a run of misses:
    the run, and how many more misses the policy waits for (None: it never acts)."""
    phase = str(t.game.phase)
    if not holder.misses_in_row or holder.seat is None or not asked_of(t.state, holder.seat, phase):
        return None
    limit = policy_limit(t, await told_privately(t))
    left = max(0, limit - holder.misses_in_row) if limit else None
    return MissRun(in_row=holder.misses_in_row, left=left, action=t.settings.absence_action)


RUN_NOTES.append(reminder_note)


def mail_warnings(mail: Mail, t: Table, missed: list[Any], round_no: int, phase: str, *, moderator_told: bool = True) -> list[Any]:
    """Tell each one who missed (and is still playing after the close) what they missed
    and what follows; the holders whose run has reached the policy's limit.
    ``moderator_told``: see :func:`told_privately`."""
    settings = t.settings
    state = t.state
    due = []
    for holder in missed:
        seat = holder.seat
        if seat is None or holder.user_id is None or not state.player(seat).alive or state.over:
            continue  # (count_misses counts no AI seat)
        limit = policy_limit(t, moderator_told)
        left = max(0, limit - holder.misses_in_row) if limit else None
        mail.private(
            holder.user_id,
            AbsenceWarning(
                round=round_no, phase=phase, seat=seat, in_row=holder.misses_in_row, total=holder.misses_total,
                left=left, action=settings.absence_action,
            ),
        )
        if left == 0:
            due.append(holder)
    return due


async def apply_policy(t: Table, mail: Mail, due: list[Any], *, moderator_told: bool = True) -> None:
    """The game's absence policy for each holder whose run of misses reached its limit:
    the moderator is told (unless they play: ``moderator_told``); the seat offered to the
    standbys (removed when none can be asked), removed, or handed to the AI."""
    if not due:
        return
    game, s = t.game, t.session
    action = t.settings.absence_action
    mail.locales.update(await repo.user_locales(s, [game.moderator_id]))
    for holder in due:
        seat = holder.seat
        if seat is None or game.status != "running":
            continue
        if action == "replace" and await open_offer_for(s, game.id, seat) is not None:
            continue  # already offered: the offer runs its course
        taken = action
        if action == "replace" and not await start_offers(t, seat, "absence"):
            taken = "remove"
        if moderator_told:
            report = AbsenceModerator(
                game=game.id, seat=seat, name=holder.display_name, in_row=holder.misses_in_row,
                total=holder.misses_total, action=taken,
            )  # fmt: skip
            mail.private(game.moderator_id, report)
        if taken == "remove":
            await remove_seat(t, seat, reason="absence", close_early=False)
        elif taken == "ai":
            await hand_to_ai(t, seat, reason="absence")
