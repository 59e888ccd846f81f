"""Rows a downgrade takes out with their tables, kept for the upgrade that follows.

A migration whose downgrade drops tables or columns holding what cannot be rebuilt
(0023's seasons: their names, dates and summaries, and the games each counted) parks
those rows in ``parked_rows`` (table, row as JSON text), a table it creates and the
earlier release never reads; the upgrade puts them back and drops the table once it is
empty. Values are stored as JSON: a datetime as ISO text, read back by the column's
type. No model maps the table: it exists only between such a downgrade and its upgrade
(0001's downgrade drops it with the rest). Its sibling for settings keys is
``bot.db.parked_settings``.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import datetime
from typing import Any

import sqlalchemy as sa

TABLE = "parked_rows"
parked = sa.table(TABLE, sa.column("id", sa.Integer), sa.column("source", sa.String), sa.column("row", sa.Text))


def _exists(conn: sa.Connection) -> bool:
    return sa.inspect(conn).has_table(TABLE)


def _plain(value: Any) -> Any:
    return value.isoformat() if isinstance(value, datetime) else value


def park(conn: sa.Connection, table: sa.TableClause, columns: Sequence[str], *where: Any) -> int:
    """Park ``columns`` of the rows of ``table`` (those ``where`` says, else all) under
    the table's name; how many rows (none: the table of parked rows is not made)."""
    rows = conn.execute(sa.select(*(table.c[c] for c in columns)).where(*where)).mappings().all()
    if not rows:
        return 0
    if not _exists(conn):
        conn.execute(sa.text(f"CREATE TABLE {TABLE} (id INTEGER PRIMARY KEY, source VARCHAR(64) NOT NULL, row TEXT NOT NULL)"))
    start = conn.execute(sa.select(sa.func.coalesce(sa.func.max(parked.c.id), 0))).scalar_one()
    for n, row in enumerate(rows, start + 1):
        conn.execute(parked.insert().values(id=n, source=table.name, row=json.dumps({k: _plain(v) for k, v in row.items()})))
    return len(rows)


def unpark(conn: sa.Connection, name: str, types: dict[str, Any] | None = None) -> list[dict[str, Any]]:
    """The rows parked under ``name`` (taken out of the table, which goes once empty),
    each column of ``types`` read back as that type (``datetime``: from ISO text)."""
    if not _exists(conn):
        return []
    raw = conn.execute(sa.select(parked.c.row).where(parked.c.source == name).order_by(parked.c.id)).scalars().all()
    conn.execute(parked.delete().where(parked.c.source == name))
    if conn.execute(sa.select(sa.func.count()).select_from(parked)).scalar_one() == 0:
        conn.execute(sa.text(f"DROP TABLE {TABLE}"))
    rows = [json.loads(r) for r in raw]
    for row in rows:
        for column, kind in (types or {}).items():
            if kind is datetime and isinstance(row.get(column), str):
                row[column] = datetime.fromisoformat(row[column])
    return rows
