"""A Core statement (one on a table's columns, not on mapped entities) run on a unit of
work's connection, past the ORM.

``AsyncSession.execute`` runs every statement through the ORM: a statement on a table's
columns gets an ORM compile state, a per-column row processor and an ORM result around
the rows, though nothing is loaded into the session. On the connection the same
statement gives the same rows (a row of a table has the entity's attribute names: every
mapped attribute is its column's name) for about two thirds of the Python. The session's
autoflush is kept: pending changes of the unit's entities are flushed first, as the ORM
would, so a read still sees what the unit has changed.

For the hot reads and writes of a player's interaction (``bot.db.repositories``: a
submission stored too) and of a delivery (a message marked delivered:
``bot.db.repos.outbox``); what a unit of work changes as an entity still goes through
the session.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy.engine import CursorResult
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import Session


def _on_connection(session: Session, statement: Any, params: dict[str, Any] | None) -> CursorResult[*tuple[Any, ...]]:
    session.flush()  # what the ORM's autoflush would do first (nothing when clean)
    return session.connection().execute(statement, params)


async def execute(session: AsyncSession, statement: Any, params: dict[str, Any] | None = None) -> CursorResult[*tuple[Any, ...]]:
    """Run ``statement`` with ``params`` on ``session``'s connection, in its transaction;
    the result's rows are already fetched (neither driver streams unless asked)."""
    return await session.run_sync(_on_connection, statement, params)
