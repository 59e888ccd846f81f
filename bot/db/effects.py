"""Marking the games whose Discord side may lag their state.

Every flush of a writing unit of work that changes a game or its players (a join, a
start, an advance, a removal, the end, a settings change, a spectator come or gone...) sets ``games.effects_due``
in the same transaction, whatever use case did it: Discord's side (mutes, the dead
channel, the lobby post) is then brought in line by the bot's reconciler, which clears
the mark. Done here, at the one place every change passes, so no use case, present or
to come, can forget it. What Discord's side does not show (a submission, the clock, a
reminder) marks nothing."""

from __future__ import annotations

from typing import Any

from sqlalchemy import event, func, inspect, update
from sqlalchemy.orm import Session

from bot.db.models import Game, GamePlayer, Spectator

# Game columns whose change Discord's side never shows (the clock moved by an extension or
# by an early close, a reminder sent).
UNSEEN = frozenset({"notice_seq", "reminder_due_at", "phase_deadline", "effects_due"})
PENDING = "wolfhowl_effects_due"


def _changed_game(game: Game) -> bool:
    state = inspect(game)
    return any(attr.history.has_changes() for attr in state.attrs if attr.key not in UNSEEN)


def mark_changed_games(session: Session, flush_context: Any, instances: Any) -> None:
    """Before a flush: the ids of the games it changes, for ``_mark`` after it."""
    ids: set[int] = session.info.setdefault(PENDING, set())
    for obj in session.new:
        if isinstance(obj, Game):
            obj.effects_due = 1  # its id is not known before the flush
        elif isinstance(obj, GamePlayer | Spectator) and obj.game_id is not None:
            ids.add(obj.game_id)
    for obj in session.dirty:
        if isinstance(obj, Game) and _changed_game(obj):
            ids.add(obj.id)
        elif isinstance(obj, GamePlayer | Spectator) and session.is_modified(obj):
            ids.add(obj.game_id)
    for obj in session.deleted:
        if isinstance(obj, GamePlayer | Spectator):
            ids.add(obj.game_id)


def _mark(session: Session, flush_context: Any) -> None:
    ids = session.info.pop(PENDING, None)
    if ids:
        session.connection().execute(
            update(Game).where(Game.id.in_(sorted(ids))).values(effects_due=func.coalesce(Game.effects_due, 0) + 1)
        )


class EffectsSession(Session):
    """The writers' session: its flushes mark the games they change (module docstring)."""


event.listen(EffectsSession, "before_flush", mark_changed_games)
event.listen(EffectsSession, "after_flush", _mark)
