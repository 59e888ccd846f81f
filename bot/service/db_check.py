"""``wolfhowl db check [REVISION]``: what an upgrade or a downgrade would do to which
games, said before it is run. It only reads, and reads with today's code a database of
any schema since 0001 (plain SQL on the columns every revision has), so an operator can
run it before ``wolfhowl db upgrade`` as well as before a downgrade.

It lists the games by status and by rules version (engine.rules: recorded in the state,
or, for a game stored before versions were recorded, the version in force when it was
dealt), then the migrations between the database's revision and the target with the
first line of each, and the downgrade steps that would refuse (a migration's
``downgrade_refusal``, as 0011's with AI seats) with their reason."""

from __future__ import annotations

import json
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from alembic.script import ScriptDirectory
from sqlalchemy import Connection, text
from sqlalchemy.pool import NullPool

import engine
from bot.db.migrate import alembic_config, current
from bot.db.session import make_engine

LIVE = ("running", "paused")


@dataclass(frozen=True, slots=True)
class GameRules:
    """One game's status and the rules version it is (or, a lobby, will be) played by;
    ``recorded`` False: taken from when it was dealt."""

    id: int
    status: str
    rules_version: int
    recorded: bool


@dataclass(frozen=True, slots=True)
class MigrationStep:
    revision: str
    doc: str
    refusal: str | None = None


@dataclass(frozen=True, slots=True)
class DatabaseCheck:
    revision: str | None
    head: str | None
    target: str | None
    direction: str  # "upgrade", "downgrade" or "none"
    games: list[GameRules] = field(default_factory=list)
    steps: list[MigrationStep] = field(default_factory=list)
    # Every revision below which a downgrade would refuse, with why (whatever the target).
    refusals: list[MigrationStep] = field(default_factory=list)

    def lines(self) -> list[str]:
        """The report, as ``wolfhowl db check`` prints it."""
        out = [f"schema: {self.revision or 'empty (not migrated)'}; this release's head: {self.head}"]
        by_status: dict[str, list[int]] = defaultdict(list)
        for g in self.games:
            by_status[g.status].append(g.id)
        out.append("games: " + (", ".join(f"{len(ids)} {status}" for status, ids in sorted(by_status.items())) or "none"))
        by_version: dict[int, list[GameRules]] = defaultdict(list)
        for g in self.games:
            by_version[g.rules_version].append(g)
        for version, games in sorted(by_version.items()):
            known = "" if version in engine.rules.versions() else " (unknown to this release: it cannot play or verify them)"
            listed = ", ".join(f"#{g.id} {g.status}" + ("" if g.recorded else " (not recorded: as of its start)") for g in games)
            out.append(f"rules version {version}{known}: {listed}")
        live = [g for g in self.games if g.status in LIVE]
        if live:
            out.append(
                "live games keep their rules version to their end: "
                + ", ".join(f"#{g.id} version {g.rules_version}" for g in live)
            )
        if self.direction == "none":
            out.append(f"target {self.target}: the database is there already; nothing to do")
        elif self.direction == "upgrade":
            out.append(f"upgrade to {self.target} applies {len(self.steps)} migration(s):")
            out += [f"  {s.revision}: {s.doc}" for s in self.steps]
        elif self.direction == "downgrade":
            out.append(f"downgrade to {self.target} undoes {len(self.steps)} migration(s):")
            out += [f"  {s.revision}: {s.doc}" for s in self.steps]
            refused = [s for s in self.steps if s.refusal]
            if refused:
                out.append(f"it would be REFUSED, changing nothing: {refused[0].refusal}")
            elif live:
                out.append(
                    "live games go on under the older release's own rules: a release before rules "
                    "versions plays them by its own class numbers, whatever version they were dealt under"
                )
        for s in self.refusals:
            if self.direction != "downgrade":
                out.append(f"a downgrade below {s.revision} would be refused: {s.refusal}")
        return out


def _games(conn: Connection) -> list[GameRules]:
    out = []
    for game_id, status, started_at, state in conn.execute(text("SELECT id, status, started_at, state FROM games ORDER BY id")):
        if isinstance(state, str):  # SQLite hands JSON back as text through plain SQL
            state = json.loads(state)
        if isinstance(started_at, str):
            started_at = datetime.fromisoformat(started_at)
        recorded = (state or {}).get("settings", {}).get("rules_version")
        if recorded is not None:
            out.append(GameRules(int(game_id), str(status), int(recorded), True))
        elif state is None:  # a lobby (or one cancelled before the deal): dealt under the newest
            out.append(GameRules(int(game_id), str(status), engine.rules.CURRENT, status != "lobby"))
        else:
            out.append(GameRules(int(game_id), str(status), engine.rules.dealt_under(started_at), False))
    return out


def _inspect(conn: Connection, revision: str | None, target: str | None) -> DatabaseCheck:
    script = ScriptDirectory.from_config(alembic_config())
    head = script.get_current_head()
    games = _games(conn) if revision is not None else []
    refusals = []
    for rev in script.iterate_revisions(revision, "base") if revision else ():
        check = getattr(rev.module, "downgrade_refusal", None)
        if check is not None and (why := check(conn)):
            refusals.append(MigrationStep(rev.revision, _doc(rev), why))
    target = target or head
    if target == revision or (target == "base" and revision is None):
        return DatabaseCheck(revision, head, target, "none", games, [], refusals)
    below = {r.revision for r in script.iterate_revisions(revision, "base")} if revision else set()
    if target == "base" or target in below:
        undone = [r for r in script.iterate_revisions(revision, target) if r.revision != target]
        steps = [MigrationStep(r.revision, _doc(r), next((x.refusal for x in refusals if x.revision == r.revision), None)) for r in undone]
        return DatabaseCheck(revision, head, target, "downgrade", games, steps, refusals)
    applied = list(reversed([r for r in script.iterate_revisions(target, revision or "base") if r.revision != revision]))
    return DatabaseCheck(revision, head, target, "upgrade", games, [MigrationStep(r.revision, _doc(r)) for r in applied], refusals)


def _doc(rev: Any) -> str:
    """The first paragraph of a migration's docstring, on one line."""
    doc = (getattr(rev.module, "__doc__", None) or rev.doc or "").strip()
    return " ".join(doc.split("\n\n")[0].split())


async def check_database(url: str, target: str | None = None) -> DatabaseCheck:
    """What upgrading (or downgrading) the database at ``url`` to ``target`` (the head
    when None; a revision or ``base``) would do, and to which games. Reads only."""
    revision = await current(url)
    eng = make_engine(url, poolclass=NullPool)
    try:
        async with eng.connect() as conn:
            result: DatabaseCheck = await conn.run_sync(_inspect, revision, target)
            await conn.rollback()
            return result
    finally:
        await eng.dispose()


