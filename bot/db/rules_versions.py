"""The rules version of each stored game, read with plain SQL on the columns every schema
since 0001 has, and the downgrades it forbids.

A game is played and verified by the rules version it was dealt under (engine.rules),
and a release knows only the versions published by its time: one whose schema is below
a version's ``schema`` (engine/data/rules.toml) may predate it, and would play such a
game on, or verify it, by other numbers. So the migration of that revision refuses to be
undone while a dealt game of the version is stored (its ``downgrade_refusal``, read by
the downgrade and by ``wolfhowl db check``); a lobby, not dealt yet, is dealt by
whichever release deals it.

A release from before versions were recorded (schema below 0016) knows one version only,
its own: it plays every game by the numbers of its day (docs/operations.md).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

import sqlalchemy as sa
from alembic import op

import engine
from bot.db.migrate import DowngradeRefused

# Every release from this schema on records and keeps each game's version.
RECORDED_FROM = "0016"


@dataclass(frozen=True, slots=True)
class StoredGame:
    """One game's status and the rules version it is (or, a lobby, will be) played by;
    ``recorded`` False: taken from when it was dealt (a lobby: the newest)."""

    id: int
    status: str
    rules_version: int
    recorded: bool
    # It has a state: it was dealt (a lobby, or a game cancelled before the deal, has not).
    dealt: bool = True

    @property
    def lowest(self) -> str | None:
        """The schema this game holds a downgrade at (None: none: a lobby, or a version
        every release knows; "head": a version this release does not know)."""
        if not self.dealt:
            return None
        known = engine.rules.versions().get(self.rules_version)
        if known is None:
            return "head"
        return None if known.schema == "0001" else known.schema

    def holds(self, revision: str) -> bool:
        """Whether undoing the migration ``revision`` would take this game below its lowest."""
        lowest = self.lowest
        return lowest is not None and (lowest == "head" or lowest >= revision)


def stored_games(conn: sa.Connection) -> list[StoredGame]:
    """Every game with its rules version: recorded in its state, or, for a game stored
    before versions were recorded, the one in force when it was dealt."""
    out = []
    rows = conn.execute(sa.text("SELECT id, status, started_at, state FROM games ORDER BY id"))
    for game_id, status, started_at, state in rows:
        if isinstance(state, str):  # SQLite hands JSON back as text through plain SQL
            state = json.loads(state)
        if isinstance(started_at, str):
            started_at = datetime.fromisoformat(started_at)
        recorded = ((state or {}).get("settings") or {}).get("rules_version")
        if recorded is not None:
            out.append(StoredGame(int(game_id), str(status), int(recorded), True))
        elif state is None:  # a lobby (or one cancelled before the deal): dealt under the newest
            out.append(StoredGame(int(game_id), str(status), engine.rules.CURRENT, status != "lobby", dealt=False))
        else:
            out.append(StoredGame(int(game_id), str(status), engine.rules.dealt_under(started_at), False))
    return out


def refusal(conn: sa.Connection, revision: str) -> str | None:
    """Why the migration ``revision`` cannot be undone, or None: the dealt games of a
    rules version that no release below ``revision`` is sure to know."""
    held = [g for g in stored_games(conn) if g.holds(revision)]
    if not held:
        return None
    games = ", ".join(f"#{g.id}" for g in held)
    numbers = sorted({g.rules_version for g in held})
    versions = ("rules versions " if len(numbers) > 1 else "rules version ") + ", ".join(str(v) for v in numbers)
    return (
        f"cannot go below {revision}: games {games} were dealt under {versions}, which a release "
        f"before {revision} may not know (it would play them on, or verify them, by other numbers)"
    )


def marker_steps(revision: str) -> tuple[Callable[[sa.Connection], str | None], Callable[[], None]]:
    """The ``downgrade_refusal`` and ``downgrade`` of a migration that changes no schema
    and only marks a rules version (0025, 0026): the downgrade stops there while a game
    dealt under that version or a later one is stored."""

    def downgrade_refusal(bind: sa.Connection) -> str | None:
        """Why this database cannot go below ``revision``, or None (read by the downgrade
        and by ``wolfhowl db check``)."""
        return refusal(bind, revision)

    def downgrade() -> None:
        found = downgrade_refusal(op.get_bind())
        if found:
            raise DowngradeRefused(f"{found}; nothing was changed")

    return downgrade_refusal, downgrade
