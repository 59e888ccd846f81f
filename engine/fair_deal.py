"""The fair deal (R1 as this project rules it, from rules version 6): below 15 players the
random deal draws the classes by lot among the line-ups whose factions the simulations
rate even, not among every line-up the rows allow.

At a table of 6 to 14 each faction holds only part of its row, and which part decides
much: Neutral's row is all fighters, Lawful's starts with two support classes, so by
plain lot Neutral won 38% at 6 players whatever the seats (docs/balance.md, "The fair
deal"). Each size has a measured **worth** for each class of each row by the
share of the table it holds, a seat more, as many or a seat fewer than a third
(``engine/data/class_worth.toml``, fitted by ``bench/fair_deal.py`` from games between
the baseline AI players, dealt first by plain lot, then by the fair deal itself): a
line-up's odds are the softmax of its factions' summed worths. The deal rolls which
factions take the extra seats as before, then draws one line-up by lot among those
whose three odds lie within :data:`SPREAD` of each other (where none do, the most even
ones). At 15 every class is dealt, and nothing changes.

From rules version 7 the worths at 7 and 8 players are per **seating**, which factions
hold the extra seats ("3/2/2": Lawful, Neutral, Chaotic), not per share
(``engine/data/seating_worth.toml``, ``bench/fair_deal.py --by-seating``): a faction a
seat over wins more or less depending on which other faction is short (at 8, Chaotic
with three seats won 38.6% beside a short Lawful and 32.1% beside a short Neutral, where
the worths per share rated both 33%), and they were fitted again under version 7's
head start there (engine.uneven).

The worths are part of the rules version, like class numbers: a game dealt under it must
deal the same line-up whenever it is verified, so fitting them again makes a new rules
version (the pinned digests of ``tests/engine/test_rules_versions.py`` see the change).
"""

from __future__ import annotations

import itertools
import math
import tomllib
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from functools import cache
from importlib import resources

from engine import rules
from engine.classes import FACTION_ROWS
from engine.dice import Dice
from engine.values import FACTIONS, Faction

# The widest gap allowed between two factions' odds in a dealt line-up.
SPREAD = 0.08
LARGEST_TABLE = 15  # every row in full: one line-up

Rows = tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]

def share(seats: int, players: int) -> str:
    """Whether a faction dealt ``seats`` of ``players`` holds more than a third of the
    table, exactly a third, or fewer (at 7 players: 3 larger, 2 smaller; at 8: 3 larger,
    2 smaller; at 9: 3 equal)."""
    return "larger" if 3 * seats > players else "equal" if 3 * seats == players else "smaller"


def seating(rows: Rows) -> str:
    """How many seats each faction holds, Lawful, Neutral, Chaotic: ``3/2/2``."""
    return "/".join(str(len(row)) for row in rows)


@dataclass(frozen=True, slots=True)
class Worths:
    """One table size's worths, per faction, per class of its row: per seating
    (``3/2/2``) or per share of the table a faction holds (``larger``, ``equal``,
    ``smaller``), whichever the table has (a seating first)."""

    groups: Mapping[str, Mapping[Faction, Mapping[str, float]]]  # seating or share -> faction -> class -> worth

    def of(self, faction: Faction, rows: Rows, players: int) -> float:
        classes = rows[FACTIONS.index(faction)]
        by = self.groups.get(seating(rows)) or self.groups[share(len(classes), players)]
        return sum(by[faction][c] for c in classes)


def read(text: str) -> dict[int, Worths]:
    """The worths written in the data file's form."""
    raw = tomllib.loads(text)
    return {
        int(size): Worths({s: {f: {c: float(by_share[s][f.value][c]) for c in FACTION_ROWS[f]} for f in FACTIONS} for s in by_share})
        for size, by_share in raw["sizes"].items()
    }


_BY_LOT: ContextVar[bool] = ContextVar("wolfhowl_deal_by_lot", default=False)
_TRYING: ContextVar[Mapping[int, Worths] | None] = ContextVar("wolfhowl_deal_worths", default=None)


@contextmanager
def by_lot() -> Iterator[None]:
    """Deal the enclosed games by plain lot, every line-up alike (what the worths are
    first fitted on: ``bench/fair_deal.py``)."""
    token = _BY_LOT.set(True)
    try:
        yield
    finally:
        _BY_LOT.reset(token)


@contextmanager
def trying(table: Mapping[int, Worths]) -> Iterator[None]:
    """Deal the enclosed games by ``table`` in place of the data file's worths (the
    bench's rounds: ``bench/fair_deal.py``)."""
    token = _TRYING.set(table)
    try:
        yield
    finally:
        _TRYING.reset(token)


def applies(players: int) -> bool:
    """Whether a random deal of ``players`` is a fair deal."""
    return players < LARGEST_TABLE and rules.in_force() >= rules.FAIR_DEAL and not _BY_LOT.get()


@cache
def _from_file(name: str) -> Mapping[int, Worths]:
    return read((resources.files("engine") / "data" / name).read_text(encoding="utf-8"))


@cache
def _by_version(seating_worths: bool) -> Mapping[int, Worths]:
    table = dict(_from_file("class_worth.toml"))
    if seating_worths:
        table.update(_from_file("seating_worth.toml"))
    return table


def worths() -> Mapping[int, Worths]:
    """Every size's worths under the rules version in force: the data files' (or the
    bench's, while :func:`trying`)."""
    return _TRYING.get() or _by_version(rules.in_force() >= rules.SEATING_WORTHS)


def odds(rows: Rows, players: int) -> tuple[float, float, float]:
    """A line-up's odds by its worths: each faction's share of the wins (summing to 1)."""
    w = worths()[players]
    u = [w.of(f, rows, players) for f in FACTIONS]
    top = max(u)
    e = [math.exp(x - top) for x in u]
    total = sum(e)
    return (e[0] / total, e[1] / total, e[2] / total)


def spread(rows: Rows, players: int) -> float:
    """The gap between the best and the worst odds of a line-up."""
    o = odds(rows, players)
    return max(o) - min(o)


_EVEN: dict[tuple[int, int, tuple[int, int, int]], tuple[Mapping[int, Worths], tuple[Rows, ...]]] = {}


def even_lineups(players: int, seats: tuple[int, int, int]) -> tuple[Rows, ...]:
    """The line-ups a fair deal draws among, for factions of ``seats`` (Lawful, Neutral,
    Chaotic), in a fixed order (each row's classes in the row's order)."""
    table = worths()
    key = (id(table), players, seats)
    cached = _EVEN.get(key)
    if cached is None or cached[0] is not table:
        cached = _EVEN[key] = (table, _even(players, seats))
    return cached[1]


def _even(players: int, seats: tuple[int, int, int]) -> tuple[Rows, ...]:
    lawful, neutral, chaotic = (list(itertools.combinations(FACTION_ROWS[f], k)) for f, k in zip(FACTIONS, seats, strict=True))
    every = [(spread(rows, players), rows) for rows in itertools.product(lawful, neutral, chaotic)]
    widest = max(SPREAD, min(s for s, _ in every))
    return tuple(rows for s, rows in every if s <= widest)


def draw(players: int, sizes: Mapping[Faction, int], dice: Dice) -> Rows:
    """One line-up for factions of ``sizes``, by lot among the even ones (one roll)."""
    kept = even_lineups(players, tuple(sizes[f] for f in FACTIONS))  # type: ignore[arg-type]
    return kept[dice.roll(len(kept), None, "lineup") - 1]
