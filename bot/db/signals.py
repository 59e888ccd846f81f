"""What a writing unit of work tells the bot's loops once it has committed.

Two signals:

* ``MESSAGES``, messages written: outbox rows added for delivery, or held ones made due
  at once, or games marked for the reconciler on purpose (it runs after each of the
  outbox dispatcher's passes). The dispatcher listens.
* ``DEADLINES``, a deadline moved: something the scheduler sleeps on changed (a game's
  phase deadline, reminder, start time, lobby reminder or status; a seat offer opened,
  with its expiry; an AI seat's turn planned). The scheduler listens.

A flush notes them from what it writes (``before_flush`` on the writers' session, as
:mod:`bot.db.effects` marks the games), so no use case, present or to come, can forget
one; a statement written past the ORM notes its own with :func:`note`. The database
handle fires them (``Database.signals``) after the commit, never after a rollback or a
failed commit: a loop woken early would find nothing yet, or nothing at all.

In this process only: the other processes of a sharded bot find the work at their next
poll, as they always did. A signal costs a set lookup per object flushed and a call per
listener; a wake that finds nothing costs its loop one pass.
"""

from __future__ import annotations

import asyncio
import enum
import logging
from collections.abc import Callable, Iterable
from typing import Any

from sqlalchemy import event, inspect
from sqlalchemy.orm import Session

from bot.db.effects import EffectsSession
from bot.db.models import AiTurn, Game, OutboxMessage, SeatOffer

log = logging.getLogger(__name__)


class Signal(enum.Enum):
    MESSAGES = "messages written"
    DEADLINES = "deadline moved"


MESSAGES = Signal.MESSAGES
DEADLINES = Signal.DEADLINES

# Where a unit of work keeps what it will signal (its session's ``info``).
HEARD = "wolfhowl_signals"
# A game's columns the scheduler sleeps on (bot.core.deadlines.wakeup_statement).
CLOCK = ("phase_deadline", "reminder_due_at", "start_at", "start_reminder_at", "status")

Listener = Callable[[], None]


def note(session: Any, *signals: Signal) -> None:
    """Have ``session``'s unit of work fire ``signals`` once it commits (for a statement
    the flush does not see: a bulk UPDATE)."""
    session.info.setdefault(HEARD, set()).update(signals)


def heard(session: Any) -> set[Signal]:
    """The signals ``session`` noted, forgotten as they are read."""
    found: set[Signal] | None = session.info.pop(HEARD, None)
    return found or set()


def _timed(game: Game) -> bool:
    return game.start_at is not None or game.phase_deadline is not None


def _clock_moved(game: Game) -> bool:
    attrs = inspect(game).attrs
    return any(attrs[key].history.has_changes() for key in CLOCK)


def notice(session: Session, flush_context: Any, instances: Any) -> None:
    """Before a flush: what it writes that a loop waits for."""
    found: set[Signal] = session.info.setdefault(HEARD, set())
    if len(found) == 2:
        return
    for obj in session.new:
        if isinstance(obj, OutboxMessage):
            if obj.status == "pending":  # (an AI seat's is read by the scheduler's AI, not sent)
                found.add(MESSAGES)
        elif isinstance(obj, SeatOffer | AiTurn) or (isinstance(obj, Game) and _timed(obj)):
            found.add(DEADLINES)
    if DEADLINES not in found:
        for obj in session.dirty:
            if isinstance(obj, Game) and _clock_moved(obj):
                found.add(DEADLINES)
                break


event.listen(EffectsSession, "before_flush", notice)


class Signals:
    """The listeners of one database handle's signals, called in order after each commit
    that noted their signal. A listener is called on the event loop that committed and
    must not block (setting an ``asyncio.Event`` is the intended use); one that raises is
    logged and the others are still called: the commit stands whatever they do."""

    def __init__(self) -> None:
        self._listeners: dict[Signal, list[Listener]] = {s: [] for s in Signal}

    def listen(self, signal: Signal, listener: Listener) -> Callable[[], None]:
        """Call ``listener`` after each commit that noted ``signal``; returns what stops it."""
        self._listeners[signal].append(listener)

        def stop() -> None:
            if listener in self._listeners[signal]:
                self._listeners[signal].remove(listener)

        return stop

    def fire(self, signals: Iterable[Signal]) -> None:
        """Call the listeners of ``signals``: soon, on the running event loop (the unit of
        work that committed has returned by then: a loop woken runs on its own, not in
        the committer's stack), or at once when no loop runs."""
        listeners = [(signal, listener) for signal in signals for listener in tuple(self._listeners[signal])]
        if not listeners:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            loop = None
        for signal, listener in listeners:
            if loop is None:
                _call(signal, listener)
            else:
                loop.call_soon(_call, signal, listener)


def _call(signal: Signal, listener: Listener) -> None:
    try:
        listener()
    except Exception:
        log.exception("a listener of %r failed", signal.value)
