"""Deadlines and reminders. A scheduler (the Discord layer's background task) calls
``run_due`` on a timer and sleeps until ``next_wakeup``; everything it does is decided
under the game's lock from the stored deadline, so a restart or a second scheduler
changes nothing. Time comes from the database handle's clock (tests inject one).

The games due at one tick are closed ``CLOSING_AT_ONCE`` at a time, each in its own
transaction under its own lock: a deadline many games share is closed while the
dispatcher delivers the first ones' messages. On PostgreSQL the closings overlap; on
SQLite their writes queue on the database handle's writer lock (``bot.db.session``),
and what overlaps is the waiting on the file with the dispatcher's work. One game that
fails still only goes to ``DueReport.failed``, and the report lists the games in the
order they were found due, whichever finished first.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Collection, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from bot import log_context
from bot.core import hooks, table
from bot.core.advance import advance
from bot.core.messages import MissRun, Reminder
from bot.core.steps import mail_holder, table_living, wound_note
from bot.core.table import Table
from bot.core.types import StepResult
from bot.db import repositories as repo
from bot.db.repos import scheduler as scheduler_repo
from bot.db.session import Database

log = logging.getLogger(__name__)

# How many due games are closed (or reminded, or started) at once: enough to keep the
# engine, the database and the dispatcher busy together, few enough that a delivery's
# "sent" mark never queues behind more than a handful of closings.
CLOSING_AT_ONCE = 4

# What one game's work came to when it raised (logged; the game goes to ``failed``).
FAILED: Any = object()


@dataclass
class DueReport:
    advanced: list[StepResult] = field(default_factory=list)
    # Games reminded (a phase's reminder, a lobby's).
    reminded: list[int] = field(default_factory=list)
    # Games whose work raised (logged); the others went ahead.
    failed: list[int] = field(default_factory=list)
    # What each feature's due work did, by its name (see :class:`DueWork`).
    done: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class DueWork:
    """What a feature has the scheduler do at each tick, after the core's deadlines and
    reminders: ``run`` does what is due (``held``: the games that wait, a failure's
    retry not due yet), noting in the report what it did under ``name``; ``next_times``:
    the scalar subqueries of the next times it will be due (the games ``held`` left
    out), for the scheduler's sleep."""

    name: str
    order: int
    run: Callable[[Database, Collection[int], DueReport], Awaitable[object]]
    next_times: Callable[[Collection[int]], Sequence[Any]]


WORK: list[DueWork] = []

# What a phase's private reminder says of a holder on a run of misses (the absence
# policy's to say: bot.features.absence registers it); None: nothing.
RunNote = Callable[[Table, Any], Awaitable[MissRun | None]]
RUN_NOTES: list[RunNote] = []


def due_work(work: DueWork) -> DueWork:
    """Register ``work`` (a feature's, when it is loaded)."""
    if any(w.name == work.name for w in WORK):
        raise ValueError(f"two due works named {work.name!r}")
    WORK.append(work)
    WORK.sort(key=lambda w: (w.order, w.name))
    _WAKEUP.clear()
    return work


async def advance_if_due(db: Database, game_id: int) -> StepResult | None:
    """Advance the game if its deadline has passed (checked under the lock); None when
    it has not, or when someone else advanced it first."""
    async with table.of(db, game_id, writing=True) as t:
        game = t.game
        if game.status != "running" or game.phase_deadline is None or game.phase_deadline > t.now:
            return None
        return await advance(t, at_deadline=True)


async def remind_if_due(db: Database, game_id: int) -> int:
    """Send the phase's reminder if it is due: a public notice with the deadline and how
    many of the seats the table takes for living have not sent yet, and a private one to
    each living player who has not yet sent the phase's main submission.
    Returns the number of messages written (0: not due)."""
    async with table.of(db, game_id, writing=True) as t:
        game, now = t.game, t.now
        if game.status != "running" or game.reminder_due_at is None or game.reminder_due_at > now:
            return 0
        game.reminder_due_at = None
        if game.phase_deadline is not None and game.phase_deadline <= now:
            return 0  # too late to remind: the phase closes at this tick (or a failed advance's retry)
        phase = str(game.phase)
        state = t.state
        sent = await t.done_seats()
        holders = await t.holders()
        mail = await t.mail(seq=None, round_no=game.round, phase=phase)
        deadline = game.phase_deadline.isoformat() if game.phase_deadline else None
        missing = [p.seat for p in state.players if p.alive and p.seat not in sent]
        # The table counts the seats it takes for living (a death held for the Morning
        # is still missing to it): the same count as /table's.
        publicly = [seat for seat in table_living(state) if seat not in sent]
        mail.public(Reminder(round=game.round, phase=phase, deadline=deadline, missing=len(publicly)))
        for seat in missing:
            if seat in holders:
                # A wounded player (their own HP: theirs to know) is told what still
                # counts and the odds of tonight's roll, in every phase's reminder; one
                # on a run of misses, how many more the absence policy waits for.
                wounded = wound_note(state, seat, tonight=phase != "morning")
                run = await RUN_NOTES[0](t, holders[seat]) if RUN_NOTES else None
                note = Reminder(round=game.round, phase=phase, deadline=deadline, seat=seat, wounded=wounded, run=run)
                mail_holder(mail, holders[seat], note)
        await t.session.flush()
        return mail.count


async def run_due(
    db: Database,
    held: Collection[int] = (),
    *,
    at_once: int = CLOSING_AT_ONCE,
) -> DueReport:
    """Advance every game whose deadline has passed and send the reminders due, and
    start (or cancel) the lobbies whose start time has come, ``at_once`` games at a
    time; the games in ``held`` (a failure's retry not yet due) wait. Each game is its
    own unit of work, whose commit signals its messages written (``bot.db.signals``): a
    deadline shared by many games is delivered while the later ones are still being
    closed."""
    if not hooks.Moment.loaded:
        raise hooks.NotLoadedError("the scheduler ticked before the features were loaded (bot.features.load)")
    now = db.now()
    async with db.read() as s:
        due, remind = await repo.due_work(s, now)
    report = DueReport()
    for game_id, result in await each_game(due, lambda g: advance_if_due(db, g), "advancing game %s", held, at_once):
        if result is FAILED:
            report.failed.append(game_id)
        elif result is not None:
            report.advanced.append(result)
    count(report, await each_game(remind, lambda g: remind_if_due(db, g), "reminding game %s", held, at_once), report.reminded)
    for work in WORK:
        try:
            await work.run(db, held, report)
        except Exception:
            log.exception("the due work %s failed", work.name)
    return report


async def each_game(
    games: list[int], work: Callable[[int], Awaitable[Any]], what: str, held: Collection[int] = (), at_once: int = CLOSING_AT_ONCE
) -> list[tuple[int, Any]]:
    """``work`` for each of ``games`` but those ``held``, a few at a time (see
    :func:`_a_few_at_a_time`)."""
    return await _a_few_at_a_time([g for g in games if g not in held], work, at_once, what)


def count(report: DueReport, outcomes: list[tuple[int, Any]], into: list[int]) -> None:
    """The games whose work did something go to ``into``; those that raised to ``failed``."""
    for game_id, result in outcomes:
        if result is FAILED:
            report.failed.append(game_id)
        elif result:
            into.append(game_id)


async def _a_few_at_a_time(
    games: list[int],
    work: Callable[[int], Awaitable[Any]],
    at_once: int,
    what: str,
) -> list[tuple[int, Any]]:
    """``work`` for each game, at most ``at_once`` running together; (game, result) in
    the order of ``games``, the result ``FAILED`` for a game whose work raised (logged:
    one broken game, rolled back and retried at a later tick, must not stop the others).
    ``what`` names the work in the log, ``%s`` standing for the game."""
    results: list[Any] = [FAILED] * len(games)
    queue = iter(enumerate(games))

    async def worker() -> None:
        for i, game_id in queue:  # (shared: each game is taken by one worker)
            with log_context.about(game=game_id):  # (the traceback's line too)
                try:
                    results[i] = await work(game_id)
                except Exception:
                    log.exception(f"{what} failed", game_id)

    await asyncio.gather(*(worker() for _ in range(min(max(1, at_once), len(games)))))
    return list(zip(games, results, strict=True))


def wakeup_statement(held: Collection[int] = ()) -> Any:
    """Every time the scheduler may have to wake at (a deadline, a reminder, a lobby's
    start or reminder, a seat offer's expiry, an AI seat's turn; the games in ``held``
    left out), as one statement of scalar subqueries, each one step along its index:
    the work of a tick is due exactly when the earliest of them has come. The
    repository's (``bot.db.repos.scheduler``), from the next times of the due works
    registered."""
    return scheduler_repo.wakeup_statement([work.next_times for work in WORK], held)


# Asked at every tick: built once (building a statement costs more than running it),
# again when a feature registers its due work.
_WAKEUP: dict[str, Any] = {}


async def due_times(s: AsyncSession, held: Collection[int] = ()) -> list[datetime]:
    """The times of :func:`wakeup_statement` that are set, read in the unit of work ``s``."""
    if held:
        stmt = wakeup_statement(held)
    else:
        stmt = _WAKEUP.get("") if "" in _WAKEUP else _WAKEUP.setdefault("", wakeup_statement())
    return await scheduler_repo.next_times(s, stmt)


async def next_wakeup(db: Database, held: Collection[int] = ()) -> datetime | None:
    """When something is next due (see :func:`wakeup_statement`), in one statement."""
    async with db.read() as s:
        times = await due_times(s, held)
    return min(times) if times else None
