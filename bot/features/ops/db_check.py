"""``wolfhowl db check [REVISION]``: what an upgrade or a downgrade would do to which
games, said before it is run. It only reads, and reads with today's code a database of
any schema since 0001 (plain SQL on the columns every revision has), so an operator can
run it before ``wolfhowl db upgrade`` as well as before a downgrade.

It lists the games by status and by rules version (engine.rules: recorded in the state,
or, for a game stored before versions were recorded, the version in force when it was
dealt) with the schema each holds a downgrade at (bot.db.rules_versions: no release
below it is sure to know the version), then the migrations between the database's
revision and the target with the first line of each, and the downgrade steps that would
refuse (a migration's ``downgrade_refusal``: 0011's with AI seats, and those of the
rules versions' schemas) with their reason."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from alembic.script import ScriptDirectory

import engine
from bot.db.migrate import alembic_config, current
from bot.db.reading import Connection, on_own_connection
from bot.db.rules_versions import RECORDED_FROM, StoredGame, stored_games
from bot.db.rules_versions import refusal as rules_refusal

LIVE = ("running", "paused")


# One game's status and rules version (bot.db.rules_versions).
GameRules = StoredGame


@dataclass(frozen=True, slots=True)
class MigrationStep:
    revision: str
    doc: str
    refusal: str | None = None
    # The refusal is a rules version's (bot.db.rules_versions), not the migration's own.
    rules: bool = False


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
            listed = ", ".join(f"#{g.id} {g.status}" + ("" if g.recorded or not g.dealt else " (not recorded: as of its start)") for g in games)
            out.append(f"rules version {version}{known}: {listed}")
            lowest = sorted({g.lowest for g in games if g.lowest is not None})
            for schema in lowest:
                held = ", ".join(f"#{g.id}" for g in games if g.lowest == schema)
                if schema == "head":
                    out.append(f"  cannot go below this release's head: {held}")
                else:
                    out.append(f"  cannot go below {schema} (no release before it is sure to know version {version}): {held}")
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
            elif live and self.target is not None and (self.target == "base" or self.target < RECORDED_FROM):
                out.append(
                    f"a release at {self.target} records no rules version: it plays the live games on by the "
                    "numbers of its own day, which may not be those of the version each was dealt under "
                    "(docs/operations.md: the releases and the versions they know)"
                )
            elif live:
                out.append(f"a release at {self.target} plays the live games on by the rules version each was dealt under")
        shown_rules = False
        for s in self.refusals:  # newest first: a rules version's refusal once, the highest
            if s.rules and shown_rules:
                continue
            shown_rules = shown_rules or s.rules
            if self.direction != "downgrade":
                out.append(f"a downgrade below {s.revision} would be refused: {s.refusal}")
        return out


def _games(conn: Connection) -> list[GameRules]:
    return stored_games(conn)


def _inspect(conn: Connection, revision: str | None, target: str | None) -> DatabaseCheck:
    script = ScriptDirectory.from_config(alembic_config())
    head = script.get_current_head()
    games = _games(conn) if revision is not None else []
    refusals = []
    for rev in script.iterate_revisions(revision, "base") if revision else ():
        check = getattr(rev.module, "downgrade_refusal", None)
        if check is not None and (why := check(conn)):
            refusals.append(MigrationStep(rev.revision, _doc(rev), why, rules=why == rules_refusal(conn, rev.revision)))
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
    result: DatabaseCheck = await on_own_connection(url, _inspect, revision, target)
    return result
