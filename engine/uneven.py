"""Uneven tables: the house rule ``uneven_tables`` (docs/rules.md, "House rules").

Where the table does not divide by three, the deal gives one or two factions a seat more
than the others (R1), and a faction a seat short wins about half as often as one a seat
over (docs/balance.md, "At every table size"). Under the house rule (on by default from
rules version 5) a faction dealt fewer seats than the largest faction **starts with a
head start: for each seat it lacks, the points one seat is worth, the winning score
divided by the largest faction's seats, rounded** (5 points at 7 or 8 players, 4 at 10
or 11, 3 at 13 or 14, with the winning score at 15). From rules version 7, at 7 and 8
players Neutral's is a point less (4): its row is all fighters, and two of them with 5
points won 38% of the fair deal's games where the others won 33-36% (docs/balance.md,
"Neutral at 7 and 8"). Like every score it stays secret until the end, where the
announcement and the replay show it. The original's 15 seats and every size that
divides by three have no faction short, so nothing changes there.

The rule was chosen by simulation among other compensations (``bench/compensation_search.py``):
a :class:`Compensation` also carries the candidates the search tried beside the head
start (a short faction's kills, survivors or grails worth more); the search plays them
with :func:`trying`, the house rule uses the head start alone.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, fields

from engine import rules
from engine.events import Event, audit
from engine.model import GameState, UnevenTablesRule
from engine.values import FACTIONS, Faction


@dataclass(frozen=True, slots=True)
class Compensation:
    """What a faction gets for each seat it is short of the largest faction."""

    head_start: int = 0  # points at the deal
    kill: int = 0  # points more for each kill of another faction
    survivor: int = 0  # points more for each survivor at the end
    grail: int = 0  # points more for each grail won by the numbers

    def text(self) -> str:
        """``head_start=5,kill=0,survivor=0,grail=0`` (read back by :func:`parse`)."""
        return ",".join(f"{f.name}={getattr(self, f.name)}" for f in fields(self))

    @classmethod
    def parse(cls, text: str) -> Compensation:
        """A compensation written by :meth:`text` (fields left out are 0)."""
        values = dict(part.split("=", 1) for part in text.split(",") if part.strip())
        return cls(**{key.strip(): int(value) for key, value in values.items()})


NONE = Compensation()

_TRYING: ContextVar[Compensation | None] = ContextVar("wolfhowl_uneven_trying", default=None)


@contextmanager
def trying(candidate: Compensation) -> Iterator[None]:
    """Play the enclosed games with ``candidate`` in place of the house rule's
    compensation (the search's; a game under ``uneven_tables: off`` stays without)."""
    token = _TRYING.set(candidate)
    try:
        yield
    finally:
        _TRYING.reset(token)


def seat_worth(win_score: int, largest: int) -> int:
    """The points one seat is worth: the winning score shared among the largest
    faction's seats, rounded half up."""
    return int(win_score / largest + 0.5)


def _in_play(state: GameState) -> tuple[Compensation, dict[str, int]]:
    """The compensation the game plays by, with how many seats fewer than the largest
    faction each faction was dealt (NONE at an even table, under ``uneven_tables: off``,
    or under a rules version before the rule)."""
    if rules.in_force() < rules.UNEVEN_TABLES or state.settings.uneven_tables is UnevenTablesRule.OFF:
        return NONE, {}
    counts = Counter(p.faction.value for p in state.players)
    largest = max(counts.values(), default=0)
    short = {f.value: largest - counts[f.value] for f in FACTIONS}
    if not any(short.values()):
        return NONE, short
    candidate = _TRYING.get()
    if candidate is not None:
        return candidate, short
    return Compensation(head_start=seat_worth(state.settings.win_score, largest)), short


def in_play(state: GameState) -> Compensation:
    """The compensation the game plays by (see :func:`_in_play`)."""
    return _in_play(state)[0]


def extra(state: GameState, faction: str, kind: str) -> int:
    """The points more ``faction`` scores for one ``kind`` (kill, survivor, grail)."""
    comp, short = _in_play(state)
    return int(getattr(comp, kind)) * short.get(faction, 0) if comp is not NONE else 0


# The table sizes where Neutral's head start is a point less per seat short (from rules
# version 7).
NEUTRAL_LESS_AT = (7, 8)


def head_starts(state: GameState) -> dict[str, int]:
    """Per faction given one, the head start it was dealt (empty when none was)."""
    comp, short = _in_play(state)
    if not comp.head_start:
        return {}
    out = {faction: comp.head_start * n for faction, n in short.items() if n}
    if Faction.NEUTRAL.value in out and _neutral_less(state):
        out[Faction.NEUTRAL.value] -= short[Faction.NEUTRAL.value]
    return out


def _neutral_less(state: GameState) -> bool:
    """Whether Neutral's head start is a point less per seat short: the house rule's (not a
    candidate the search tries), at 7 or 8 players, from rules version 7."""
    return _TRYING.get() is None and rules.in_force() >= rules.NEUTRAL_HEAD_START and len(state.players) in NEUTRAL_LESS_AT


def give_head_start(state: GameState) -> None:
    """At the deal: each faction short of seats starts with its head start."""
    for faction, points in head_starts(state).items():
        state.scores[faction] += points


def start_events(state: GameState) -> list[Event]:
    """The deal's audit events: the head start of each faction given one (empty when
    none is), as ``ScoreChanged`` with the reason ``head_start``. Read from a state just
    dealt (``engine.new_game``): its scores are the head starts."""
    return [audit("ScoreChanged", faction=f.value, points=state.scores[f.value], reason="head_start", seat=None) for f in FACTIONS if state.scores[f.value]]
