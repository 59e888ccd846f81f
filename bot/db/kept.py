"""What a process keeps beside a database between its units of work (a cache of what it
has read, as the AI seats' readings: ``bot.features.ai_seats.play``), and the one rule
that makes such a cache safe: what a unit of work read is kept only once that unit has
committed. A unit rolled back may have read its own writes, which never were.

* :func:`per_database`: one object per database (per engine's pool, which a handle's
  reading and writing units share) and name: a new one in a new process, or for a new
  handle on the same database.
* :func:`once_committed`: an action the unit of work runs after its commit, never after
  a rollback or a failed commit (the database handle's units run them: :func:`committed`).
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Hashable
from typing import Any, TypeVar

from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.pool import Pool

T = TypeVar("T")

# Where a unit of work keeps its actions until it commits (its session's ``info``).
PENDING = "wolfhowl_once_committed"

_KEPT: weakref.WeakKeyDictionary[Pool, dict[str, Any]] = weakref.WeakKeyDictionary()


def per_database(session: AsyncSession, name: str, factory: Callable[[], T]) -> T:
    """The object kept under ``name`` for ``session``'s database, made by ``factory`` the
    first time it is asked for."""
    pool = session.sync_session.get_bind().engine.pool
    kept = _KEPT.get(pool)
    if kept is None:
        kept = _KEPT[pool] = {}
    if name not in kept:
        kept[name] = factory()
    found: T = kept[name]
    return found


def once_committed(session: AsyncSession, key: Hashable, action: Callable[[], None]) -> None:
    """Have ``session``'s unit of work call ``action`` once it has committed; an action
    given again under the same ``key`` in the same unit replaces the earlier one (and
    runs in its turn). Forgotten when the unit rolls back."""
    session.info.setdefault(PENDING, {})[key] = action


def committed(session: AsyncSession) -> None:
    """``session``'s unit of work has committed: its actions run (the database handle
    calls this, ``bot.db.session``, only for a unit that has some)."""
    actions: dict[Hashable, Callable[[], None]] = session.info.pop(PENDING, {})
    for action in actions.values():
        action()
