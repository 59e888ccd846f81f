"""Line-ups: which classes sit at the table, in which faction (RULES: Roles; R1).

By default the roles are dealt by lot (:func:`engine.setup.deal`). A moderator may fix
the line-up instead, by a named preset or by naming the classes of each faction; the
deal then only shuffles the seats, from the same seed. A line-up stays within what the
rules allow:

- each faction's classes come from its row of the source's table, each at most once
  (the 15-player table is every row in full);
- every faction is represented;
- no faction outnumbers the other two together (the game would end at its first check).

Written as text, Lawful first: ``warrior,monk,cleric/barbarian,druid/sorcerer,bard``
(factions separated by ``/``, classes by ``,``); a part may name its faction
(``chaotic: bard, ranger``), and then the parts may come in any order.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

from engine.classes import FACTION_ROWS, catalogue
from engine.errors import RuleViolation
from engine.values import FACTIONS, Faction

MIN_SIZE = 6
MAX_SIZE = 15
RANDOM = "random"


class LineupError(RuleViolation):
    """A line-up the rules do not allow, or one that cannot be read."""

    key = "error.lineup"


@dataclass(frozen=True, slots=True)
class Lineup:
    """The classes of each faction, in the order of ``FACTIONS`` (Lawful, Neutral, Chaotic)."""

    rows: tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]

    @property
    def size(self) -> int:
        return sum(len(r) for r in self.rows)

    def of(self, faction: Faction) -> tuple[str, ...]:
        return self.rows[FACTIONS.index(faction)]

    def roles(self) -> list[tuple[Faction, str]]:
        """(faction, class) for every seat, before the seats are shuffled."""
        return [(f, c) for f, row in zip(FACTIONS, self.rows, strict=True) for c in row]

    def text(self) -> str:
        """The canonical text: class ids, Lawful first (``parse(text())`` is ``self``)."""
        return "/".join(",".join(row) for row in self.rows)

    def check(self, players: int | None = None) -> Lineup:
        """``self`` if the rules allow it (for a table of ``players``, when given), else
        LineupError naming the first fault."""
        for faction, row in zip(FACTIONS, self.rows, strict=True):
            if not row:
                raise LineupError(reason="reason.lineup_empty", faction=f"faction.{faction.value}")
            for c in row:
                if c not in FACTION_ROWS[faction]:
                    raise LineupError(reason="reason.lineup_class", class_name=c, faction=f"faction.{faction.value}")
            twice = next((c for i, c in enumerate(row) if c in row[:i]), None)
            if twice is not None:
                raise LineupError(reason="reason.lineup_twice", class_name=twice, faction=f"faction.{faction.value}")
        if not MIN_SIZE <= self.size <= MAX_SIZE:
            raise LineupError(reason="reason.lineup_total", count=self.size, low=MIN_SIZE, high=MAX_SIZE)
        for faction, row in zip(FACTIONS, self.rows, strict=True):
            if 2 * len(row) > self.size:
                raise LineupError(reason="reason.lineup_majority", faction=f"faction.{faction.value}")
        if players is not None and players != self.size:
            raise LineupError(reason="reason.lineup_size", count=self.size, players=players)
        return self


@cache
def _names() -> dict[str, str]:
    """Every way of writing a class (id, English and Chinese names), folded -> class id."""
    out: dict[str, str] = {}
    for class_id, spec in catalogue().items():
        for name in (class_id, *spec.name.values()):
            out[_fold(name)] = class_id
    return out


FACTION_NAMES = {
    **{f.value: f for f in FACTIONS},
    "守序": Faction.LAWFUL,
    "中立": Faction.NEUTRAL,
    "混乱": Faction.CHAOTIC,
    "混亂": Faction.CHAOTIC,
}


def _fold(text: str) -> str:
    return re.sub(r"\s+", "", text).casefold()


def parse(text: str) -> Lineup:
    """The line-up written in ``text`` (see the module's docstring), checked against the
    rules; LineupError if it cannot be read or is not allowed."""
    parts = re.split(r"[/;|／；]", text.strip())
    if len(parts) != len(FACTIONS):
        raise LineupError(reason="reason.lineup_syntax")
    rows: dict[Faction, tuple[str, ...]] = {}
    for i, part in enumerate(parts):
        faction = FACTIONS[i]
        named_part = re.match(r"([^:：]*)[:：](.*)$", part, re.S)
        head, rest = (named_part.group(1), named_part.group(2)) if named_part else (None, part)
        if head is not None:
            named = FACTION_NAMES.get(_fold(head))
            if named is None:
                raise LineupError(reason="reason.lineup_faction", name=head.strip()[:40])
            faction = named
        if faction in rows:
            raise LineupError(reason="reason.lineup_syntax")
        classes = []
        for word in re.split(r"[,，、]", rest):
            if not word.strip():
                continue
            class_id = _names().get(_fold(word))
            if class_id is None:
                raise LineupError(reason="reason.lineup_unknown", name=word.strip()[:40])
            classes.append(class_id)
        rows[faction] = tuple(classes)
    return Lineup((rows[Faction.LAWFUL], rows[Faction.NEUTRAL], rows[Faction.CHAOTIC])).check()


# --- presets -------------------------------------------------------------------------

PRESETS = (RANDOM, "classic", "balanced", "varied")
# Which factions take the seats left over when the table does not divide by three
# (classic and varied: the table's order, top to bottom).
TABLE_ORDER = FACTIONS

# Found by simulation (baseline AI, default house rules): at each size, the line-up
# whose factions' win rates lay closest to a third each among those tried; the figures
# are in docs/moderating.md ("The presets"). The sizes that do not divide by three were
# searched again under the head start (house rule uneven_tables, engine.uneven), which
# the earlier line-ups had compensated by their classes; 8 and 12 by sequential halving
# over the line-ups the fair deal's worths rate most even (``python -m
# bench.lineup_search balanced --sizes 8-8 --arms 32``, and 12-12).
# classic is the source's table trimmed: each row read from its start, the extra seats to
# Lawful, then Neutral. Below 13 players that trim loses Lawful the game whatever its seats
# (its Warrior, Monk and Cleric; docs/balance.md, "The presets"), so there classic is the
# line-up of the same seats keeping most of the trim's classes that played even
# (``python -m bench.lineup_search classic --sizes 6-12 --arms 8 --first 500``; 6, 7, 8
# and 10, whose winners played out of the band, again with ``--arms 24``; 7 again under
# rules version 7, ``--sizes 7-7 --arms 24``, as balanced at 8, ``--sizes 8-8 --arms 32``).
CLASSIC: dict[int, str] = {
    6: "warrior,paladin/wizard,druid/barbarian,bard",
    7: "warrior,monk,paladin/wizard,druid/barbarian,rogue",
    8: "warrior,monk,paladin/barbarian,wizard,rogue/barbarian,ranger",
    9: "warrior,monk,paladin/barbarian,wizard,rogue/barbarian,sorcerer,ranger",
    10: "warrior,cleric,wizard,paladin/barbarian,warrior,druid/barbarian,sorcerer,ranger",
    11: "monk,cleric,wizard,paladin/barbarian,wizard,warrior,rogue/barbarian,sorcerer,ranger",
    12: "warrior,monk,cleric,paladin/barbarian,wizard,warrior,rogue/barbarian,sorcerer,ranger,bard",
}

BALANCED: dict[int, str] = {
    6: "cleric,wizard/barbarian,wizard/barbarian,bard",
    7: "cleric,warrior/barbarian,warrior,wizard/bard,rogue",
    8: "monk,wizard,paladin/warrior,rogue,druid/barbarian,ranger",
    9: "paladin,warrior,wizard/barbarian,druid,warrior/bard,rogue,sorcerer",
    10: "cleric,paladin,warrior/barbarian,druid,warrior,wizard/bard,ranger,sorcerer",
    11: "cleric,monk,paladin,wizard/barbarian,druid,rogue,warrior/barbarian,ranger,sorcerer",
    12: "warrior,monk,wizard,paladin/barbarian,warrior,rogue,druid/sorcerer,ranger,rogue,bard",
    13: "cleric,monk,paladin,warrior,wizard/druid,rogue,warrior,wizard/barbarian,ranger,rogue,sorcerer",
    14: "monk,cleric,paladin,warrior,wizard/druid,barbarian,rogue,wizard,warrior/sorcerer,ranger,bard,barbarian",
    15: "warrior,monk,cleric,wizard,paladin/barbarian,wizard,warrior,rogue,druid/barbarian,sorcerer,ranger,rogue,bard",
}


def _sizes(n: int, order: tuple[Faction, ...] = TABLE_ORDER) -> dict[Faction, int]:
    base, extra = divmod(n, 3)
    return {f: base + (1 if f in order[:extra] else 0) for f in FACTIONS}


def source_trim(n: int) -> Lineup:
    """The source's table trimmed to ``n``: each row read from its start, the extra seats
    to Lawful, then Neutral (classic at 13 to 15; what ``CLASSIC`` changes below)."""
    sizes = _sizes(n)
    rows = tuple(FACTION_ROWS[f][: sizes[f]] for f in FACTIONS)
    return Lineup(rows)  # type: ignore[arg-type]


def _classic(n: int) -> Lineup:
    return parse(CLASSIC[n]) if n in CLASSIC else source_trim(n)


def _varied(n: int) -> Lineup:
    """As many different classes as the table holds: each faction takes the classes only
    its row has, then the shared ones nobody holds yet, then any left in its row."""
    sizes = _sizes(n)
    shared = {c for f in FACTIONS for c in FACTION_ROWS[f] if sum(c in FACTION_ROWS[g] for g in FACTIONS) > 1}
    rows: dict[Faction, list[str]] = {f: [c for c in FACTION_ROWS[f] if c not in shared][: sizes[f]] for f in FACTIONS}
    used = {c for row in rows.values() for c in row}
    for f in FACTIONS:
        for c in FACTION_ROWS[f]:
            if len(rows[f]) < sizes[f] and c not in used and c not in rows[f]:
                rows[f].append(c)
                used.add(c)
    for f in FACTIONS:
        for c in FACTION_ROWS[f]:
            if len(rows[f]) < sizes[f] and c not in rows[f]:
                rows[f].append(c)
    return Lineup((tuple(rows[Faction.LAWFUL]), tuple(rows[Faction.NEUTRAL]), tuple(rows[Faction.CHAOTIC])))


def preset(name: str, n: int) -> Lineup | None:
    """The preset ``name`` for a table of ``n`` (None for ``random``: dealt by lot)."""
    if not MIN_SIZE <= n <= MAX_SIZE:
        raise LineupError(reason="reason.lineup_total", count=n, low=MIN_SIZE, high=MAX_SIZE)
    if name == RANDOM:
        return None
    if name == "classic":
        return _classic(n).check(n)
    if name == "varied":
        return _varied(n).check(n)
    if name == "balanced":
        return parse(BALANCED[n]).check(n)
    raise LineupError(reason="reason.lineup_preset", name=name[:40], presets=", ".join(PRESETS))


def is_preset(choice: str) -> bool:
    return _fold(choice) in PRESETS


def resolve(choice: str, n: int) -> Lineup | None:
    """A line-up setting (a preset's name or a line-up's text) for a table of ``n``:
    None when the roles are dealt by lot. LineupError when it does not fit."""
    if is_preset(choice):
        return preset(_fold(choice), n)
    return parse(choice).check(n)


def normalize(choice: str) -> str:
    """A line-up setting as stored: a preset's name, or the canonical text of a line-up
    (LineupError if it is neither)."""
    choice = choice.strip()
    if is_preset(choice):
        return _fold(choice)
    if not any(ch in choice for ch in "/;|／；"):
        raise LineupError(reason="reason.lineup_preset", name=choice[:40], presets=", ".join(PRESETS))
    return parse(choice).text()


def fixed_size(choice: str) -> int | None:
    """The table size a stored setting demands: a custom line-up's, None for a preset."""
    return None if is_preset(choice) else parse(choice).size
