"""Settings a downgrade takes out of the games, kept for the upgrade that follows.

A migration that lets a game's settings hold a new key (0019's ``min_reliability``,
0020's ``uneven_tables``, 0021's ``gallery``) takes it out again on the way down: the
earlier release, knowing no such setting, would refuse to read it. So that going back
up gives every game its setting again, the downgrade parks each taken value in
``parked_settings`` (game, key, value as JSON text), a table it creates and the earlier
release never reads; the upgrade puts the values back and drops the table once it is
empty. No model maps it: it exists only between such a downgrade and its upgrade (and
0001's downgrade drops it with the rest).
"""

from __future__ import annotations

import json
from typing import Any

import sqlalchemy as sa

TABLE = "parked_settings"
parked = sa.table(TABLE, sa.column("game_id", sa.Integer), sa.column("key", sa.String), sa.column("value", sa.Text))
games = sa.table("games", sa.column("id", sa.Integer), sa.column("settings", sa.JSON), sa.column("state", sa.JSON))


def _json(value: Any) -> Any:
    return json.loads(value) if isinstance(value, str) else value


def _exists(conn: sa.Connection) -> bool:
    return sa.inspect(conn).has_table(TABLE)


def park(conn: sa.Connection, key: str) -> None:
    """Take ``key`` out of every game's settings, parking each value."""
    if not _exists(conn):
        conn.execute(
            sa.text(f"CREATE TABLE {TABLE} (game_id INTEGER NOT NULL, key VARCHAR(64) NOT NULL, value TEXT NOT NULL, PRIMARY KEY (game_id, key))")
        )
    for game_id, settings in conn.execute(sa.select(games.c.id, games.c.settings)).all():
        settings = _json(settings)
        if isinstance(settings, dict) and key in settings:
            kept = {k: v for k, v in settings.items() if k != key}
            conn.execute(games.update().where(games.c.id == game_id).values(settings=kept))
            conn.execute(parked.delete().where(parked.c.game_id == game_id, parked.c.key == key))
            conn.execute(parked.insert().values(game_id=game_id, key=key, value=json.dumps(settings[key])))


def unpark(conn: sa.Connection, key: str) -> dict[int, Any]:
    """The values of ``key`` parked by a downgrade, by game (taken out of the table, which
    goes once empty); {} when none."""
    if not _exists(conn):
        return {}
    rows = conn.execute(sa.select(parked.c.game_id, parked.c.value).where(parked.c.key == key)).all()
    conn.execute(parked.delete().where(parked.c.key == key))
    if conn.execute(sa.select(sa.func.count()).select_from(parked)).scalar_one() == 0:
        conn.execute(sa.text(f"DROP TABLE {TABLE}"))
    return {int(game_id): json.loads(value) for game_id, value in rows}


def restore(conn: sa.Connection, key: str, value_for: Any = None) -> None:
    """Put ``key`` back into the games' settings where it is missing: the parked value,
    or ``value_for(settings, state, parked)`` when given (``parked`` the parked value or
    None; a result of None leaves the game without the key)."""
    values = unpark(conn, key)
    for game_id, settings, state in conn.execute(sa.select(games.c.id, games.c.settings, games.c.state)).all():
        settings = _json(settings)
        if not isinstance(settings, dict) or key in settings:
            continue
        value = values.get(int(game_id))
        if value_for is not None:
            value = value_for(settings, _json(state), value)
        if value is not None:
            conn.execute(games.update().where(games.c.id == game_id).values(settings=settings | {key: value}))


def house_rule(key: str, earlier: str) -> Any:
    """For ``restore``: a house rule's value for a game stored before the rule could be
    chosen: a dealt game plays by what its state says (``earlier``, the way it was
    played before, when the state names none), a lobby by what was parked for it, else
    ``earlier``."""

    def value_for(settings: dict[str, Any], state: dict[str, Any] | None, parked: Any) -> Any:
        if state is not None:
            return (state.get("settings") or {}).get(key, earlier)
        return earlier if parked is None else parked

    return value_for
