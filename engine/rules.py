"""Rules versions: the class data and engine behaviour a game is dealt under.

Every published version is kept, so that a game plays to its end by the version it was
dealt under (``Settings.rules_version``, stored with its state) and an old log replays
exactly. The table is data (``engine/data/rules.toml``): each version's number, when main
first played it, its commit, what it changed, and the class numbers of the version
before where they differ. Behaviour changes stay in the code behind the version that
brought them (the constants below, read with :func:`in_force`).

Which version is in force is scoped by the engine's entry points (``new_game``,
``advance``, ``remove_player``, ``end_game``, ``validate``, ``view.sheet``), each of
which runs under its state's version (:func:`playing`); outside them the newest
version is in force. It is a context variable, not a global: concurrent games (threads,
tasks) each see their own.
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import cache
from importlib import resources
from typing import Any

from engine.errors import RuleViolation

# Behaviour changes kept behind the version: the version each came in.
# YouDied carries the killing blow's ``amount`` or ``how`` (wound, ...); a removal is
# told as YouWereRemoved (before: YouDied with no data, for a removal too).
DEATH_NEWS = 2
# A Warrior is told after the night that Cleave is ready (CleaveReady; before: nothing).
CLEAVE_NEWS = 2
# A night report is a story: what the victim's own skills say of a blow (Indomitable)
# follows the blow in the events, Indomitable's news carries the blow's damage, and a
# player is told the orders that did not happen and why (OrdersNotDone; before: the
# save came first, without the damage, and lost orders were told nothing).
NIGHT_STORY = 4
# The house rule ``uneven_tables`` (engine.uneven): a faction dealt fewer seats than the
# largest starts with a head start (before: every faction started at 0 whatever its seats).
UNEVEN_TABLES = 5
# The fair deal (engine.fair_deal): below 15 players the random deal draws among the
# line-ups the class worths rate even (before: among every line-up the rows allow).
FAIR_DEAL = 6
# At 7 and 8 players Neutral's head start is a point less (4 at the default winning
# score; engine.uneven), and the fair deal's worths there are per seating, which
# factions hold the extra seats (engine.fair_deal; before: 5 points for every short
# faction, worths per share of the table).
NEUTRAL_HEAD_START = 7
SEATING_WORTHS = 7


@dataclass(frozen=True, slots=True)
class RulesVersion:
    number: int
    published: datetime
    commit: str
    changes: str
    # The first migration revision every release of which knows it (bot.db.rules_versions).
    schema: str
    # The class numbers of the version before where they differ from this one's:
    # class id -> field -> value.
    before: Mapping[str, Mapping[str, Any]]


class UnknownRulesVersionError(RuleViolation):
    """A game dealt under a rules version this release does not know (a newer release
    dealt it): it cannot be played or replayed here."""

    key = "error.unknown_rules_version"


@cache
def versions() -> Mapping[int, RulesVersion]:
    """Every published version by number (1, 2, ...: no gaps), from the data file."""
    raw = tomllib.loads((resources.files("engine") / "data" / "rules.toml").read_text(encoding="utf-8"))
    out: dict[int, RulesVersion] = {}
    for entry in raw["versions"]:
        published = entry["published"]
        if not isinstance(published, datetime) or published.tzinfo is None:
            raise ValueError(f"rules.toml: version {entry['number']}: 'published' must be a UTC date and time")
        out[int(entry["number"])] = RulesVersion(
            number=int(entry["number"]),
            published=published.astimezone(UTC),
            commit=str(entry["commit"]),
            changes=str(entry["changes"]),
            schema=str(entry["schema"]),
            before={str(c): dict(fields) for c, fields in entry.get("before", {}).items()},
        )
    numbers = sorted(out)
    if numbers != list(range(1, len(numbers) + 1)):
        raise ValueError(f"rules.toml: versions must be numbered 1, 2, ... without gaps, not {numbers}")
    stamps = [out[n].published for n in numbers]
    if stamps != sorted(stamps):
        raise ValueError("rules.toml: versions must be published in order")
    schemas = [out[n].schema for n in numbers]
    if schemas != sorted(schemas):
        raise ValueError("rules.toml: a version's schema is never below the one before's")
    return out


def newest() -> int:
    """The version a game dealt now is dealt under."""
    return max(versions())


CURRENT = newest()

_IN_FORCE: ContextVar[int] = ContextVar("wolfhowl_rules_in_force", default=CURRENT)


def known(version: int) -> int:
    """``version`` when this release keeps it; UnknownRulesVersionError otherwise."""
    if version not in versions():
        raise UnknownRulesVersionError(version=version, newest=CURRENT)
    return version


def in_force() -> int:
    """The version the engine is playing by now (the newest outside a game's call)."""
    return _IN_FORCE.get()


@contextmanager
def playing(version: int) -> Iterator[None]:
    """Run the enclosed engine code under ``version``."""
    token = _IN_FORCE.set(known(version))
    try:
        yield
    finally:
        _IN_FORCE.reset(token)


def dealt_under(when: datetime | None) -> int:
    """The version in force when a game was dealt at ``when``, for a game dealt before
    versions were recorded: the newest published by then (the first version for a game
    dealt earlier still; the newest when the time is unknown)."""
    if when is None:
        return CURRENT
    if when.tzinfo is None:  # SQLite hands back naive UTC times
        when = when.replace(tzinfo=UTC)
    out = 1
    for number, v in sorted(versions().items()):
        if v.published <= when:
            out = number
    return out
