"""What the scheduler sleeps on (``bot.core.deadlines``): every time it may have to wake
at, in one statement of scalar subqueries, each one step along its index: the core's (a
running game's deadline and reminder: ``bot.db.repositories.next_times_statement``) and
those of the due works the features register (``bot.core.deadlines.DueWork.next_times``,
built by their areas' repositories)."""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from bot.db import repositories as repo

# A due work's next times: its scalar subqueries, the games held left out.
NextTimes = Callable[[Collection[int]], Sequence[Any]]


def wakeup_statement(parts: Iterable[NextTimes], held: Collection[int] = ()) -> Any:
    """The core's next times and those of each of ``parts``, in its order, as one
    statement (the games in ``held`` left out)."""
    return select(*repo.next_times_statement(held).selected_columns, *(t for next_times in parts for t in next_times(held)))


async def next_times(session: AsyncSession, statement: Any) -> list[datetime]:
    """The times a :func:`wakeup_statement` finds set, in its columns' order."""
    row = (await session.execute(statement)).one()
    return [t for t in row if t is not None]
