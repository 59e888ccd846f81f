"""The game's settings and mutable state, and the value types they hold (the factions
and traits, which the class data and the line-ups name too, are :mod:`engine.values`').

The state is a plain tree of dataclasses that serialises to JSON-safe dicts with
``to_dict``/``from_dict``. ``GameState.clone`` is hand-written because ``copy.deepcopy``
would dominate the simulator's running time.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from engine.lineup import Lineup
from engine.lineup import parse as parse_lineup
from engine.rules import CURRENT as NEWEST_RULES
from engine.rules import known as known_rules
from engine.values import FACTIONS, Faction


class Phase(StrEnum):
    """The phases in which the engine waits for submissions.

    Night is not a waiting phase: it resolves when Dusk closes.
    """

    DAY = "day"
    DUSK = "dusk"
    MORNING = "morning"
    OVER = "over"


class VoteTieRule(StrEnum):
    ROLL = "roll"
    NOBODY = "nobody"
    ALL = "all"


class KillingBlowRule(StrEnum):
    """A killing blow on the grail carrier (house rule; RULES R14, E13)."""

    STEAL = "steal"  # a hit like any other: the steal attempt, +2; on failure the grail is lost
    KILLER_TAKES = "killer_takes"  # the killer takes it, no steal points (E13)


class DeparturesRule(StrEnum):
    """When the night's departures are announced (house rule)."""

    DAWN = "dawn"  # at dawn, before the vote
    MORNING = "morning"  # with the Morning announcement, after the vote (the original's order)


class VoteDamageRule(StrEnum):
    """Whether the vote's damage is named publicly (house rule)."""

    PUBLIC = "public"  # named in the public announcement
    PRIVATE = "private"  # told only to the one who takes it (the counts stay public)


class UnevenTablesRule(StrEnum):
    """Whether a faction dealt a seat fewer is compensated (house rule; engine.uneven)."""

    COMPENSATE = "compensate"  # it starts with the points a seat is worth, per seat short
    OFF = "off"  # every faction starts at 0 (the original, which has 15 seats)


class State(StrEnum):
    """Conditions (异常状态). Wounded and dead are derived from HP, not stored here."""

    DAZED = "dazed"
    SHAKEN = "shaken"
    GRAPPLED = "grappled"
    FATIGUED = "fatigued"
    HYPNOTIC_PRELUDE = "hypnotic_prelude"


_OVER = Phase.OVER  # read on every submission and phase: an Enum class lookup is slow


# The house rules a moderator chooses per game: Settings field -> its choices (the first
# member is the default).
HOUSE_RULES: dict[str, type[StrEnum]] = {
    "killing_blow": KillingBlowRule,
    "departures": DeparturesRule,
    "vote_damage": VoteDamageRule,
    "uneven_tables": UnevenTablesRule,
}

# What a house rule was before the game let a moderator choose it: a stored state or
# settings without the key were played by it, and are written without it again.
LEGACY_HOUSE_RULES = {"killing_blow": "killer_takes", "departures": "dawn", "vote_damage": "public", "uneven_tables": "off"}


@dataclass(frozen=True, slots=True)
class Settings:
    vote_tie_rule: VoteTieRule = VoteTieRule.ROLL
    reveal_on_death: bool = False
    win_score: int = 15
    killing_blow: KillingBlowRule = KillingBlowRule.STEAL
    departures: DeparturesRule = DeparturesRule.DAWN
    vote_damage: VoteDamageRule = VoteDamageRule.PUBLIC
    uneven_tables: UnevenTablesRule = UnevenTablesRule.COMPENSATE
    # The classes dealt, when a moderator fixed them (engine.lineup); None: dealt by lot.
    lineup: Lineup | None = None
    # The rules version the game is dealt under and plays by to its end (engine.rules).
    rules_version: int = NEWEST_RULES

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "vote_tie_rule": self.vote_tie_rule.value,
            "reveal_on_death": self.reveal_on_death,
            "win_score": self.win_score,
        }
        for key, legacy in LEGACY_HOUSE_RULES.items():
            value = getattr(self, key).value
            if value != legacy:
                out[key] = value
        if self.lineup is not None:
            out["lineup"] = self.lineup.text()
        out["rules_version"] = self.rules_version
        return out

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Settings:
        """Settings stored by ``to_dict``. Without ``rules_version`` they are read as of
        the newest version: a game stored before versions were recorded is given its own
        first (``engine.rules.dealt_under``, as the service and ``wolfhowl verify`` do).
        A version this release does not know is refused (UnknownRulesVersionError)."""
        rules = {key: d.get(key, legacy) for key, legacy in LEGACY_HOUSE_RULES.items()}
        lineup = None if d.get("lineup") is None else parse_lineup(str(d["lineup"]))
        return cls(
            vote_tie_rule=VoteTieRule(d.get("vote_tie_rule", "roll")),
            reveal_on_death=bool(d.get("reveal_on_death", False)),
            win_score=int(d.get("win_score", 15)),
            killing_blow=KillingBlowRule(rules["killing_blow"]),
            departures=DeparturesRule(rules["departures"]),
            vote_damage=VoteDamageRule(rules["vote_damage"]),
            uneven_tables=UnevenTablesRule(rules["uneven_tables"]),
            lineup=lineup,
            rules_version=known_rules(int(d.get("rules_version", NEWEST_RULES))),
        )


@dataclass(slots=True)
class Condition:
    """A state on a player. ``until_round`` is the last round whose night it lasts
    through (None: until something ends it). ``source`` is the seat that caused it."""

    until_round: int | None = None
    source: int | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"until_round": self.until_round, "source": self.source}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Condition:
        return cls(until_round=d.get("until_round"), source=d.get("source"))


@dataclass(slots=True)
class Player:
    seat: int
    name: str
    class_id: str
    faction: Faction
    hp: int
    max_hp: int
    alive: bool = True
    conditions: dict[str, Condition] = field(default_factory=dict)
    # Wounded bookkeeping (R8): how many wound rolls this wound has had, and who caused it.
    wound_rolls: int = 0
    wound_source: int | None = None
    grails_banked: int = 0
    # Permanent modifiers (Combat Expertise and the like), in percentage points.
    ab_mod: int = 0
    dex_mod: int = 0
    armor_mod: int = 0
    # Class memory: skill flags, counters and once-per-game uses. JSON-safe values only.
    memory: dict[str, Any] = field(default_factory=dict)
    used_once: list[str] = field(default_factory=list)

    @property
    def wounded(self) -> bool:
        return self.alive and self.hp == 0

    @property
    def able(self) -> bool:
        """Alive and not wounded: may act at night."""
        return self.alive and self.hp > 0

    def has(self, state: str) -> bool:
        return state in self.conditions

    def clone(self) -> Player:
        return Player(
            seat=self.seat,
            name=self.name,
            class_id=self.class_id,
            faction=self.faction,
            hp=self.hp,
            max_hp=self.max_hp,
            alive=self.alive,
            conditions={k: Condition(v.until_round, v.source) for k, v in self.conditions.items()},
            wound_rolls=self.wound_rolls,
            wound_source=self.wound_source,
            grails_banked=self.grails_banked,
            ab_mod=self.ab_mod,
            dex_mod=self.dex_mod,
            armor_mod=self.armor_mod,
            memory=_clone_json(self.memory),
            used_once=list(self.used_once),
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "name": self.name,
            "class_id": self.class_id,
            "faction": self.faction.value,
            "hp": self.hp,
            "max_hp": self.max_hp,
            "alive": self.alive,
            "conditions": {k: v.to_dict() for k, v in self.conditions.items()},
            "wound_rolls": self.wound_rolls,
            "wound_source": self.wound_source,
            "grails_banked": self.grails_banked,
            "ab_mod": self.ab_mod,
            "dex_mod": self.dex_mod,
            "armor_mod": self.armor_mod,
            "memory": _clone_json(self.memory),
            "used_once": list(self.used_once),
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Player:
        return cls(
            seat=int(d["seat"]),
            name=str(d["name"]),
            class_id=str(d["class_id"]),
            faction=Faction(d["faction"]),
            hp=int(d["hp"]),
            max_hp=int(d["max_hp"]),
            alive=bool(d.get("alive", True)),
            conditions={k: Condition.from_dict(v) for k, v in d.get("conditions", {}).items()},
            wound_rolls=int(d.get("wound_rolls", 0)),
            wound_source=d.get("wound_source"),
            grails_banked=int(d.get("grails_banked", 0)),
            ab_mod=int(d.get("ab_mod", 0)),
            dex_mod=int(d.get("dex_mod", 0)),
            armor_mod=int(d.get("armor_mod", 0)),
            memory=_clone_json(d.get("memory", {})),
            used_once=list(d.get("used_once", [])),
        )


@dataclass(slots=True)
class GameState:
    """Everything the rules need to know between phases."""

    players: list[Player]
    settings: Settings = field(default_factory=Settings)
    round: int = 1
    phase: Phase = Phase.DAY
    scores: dict[str, int] = field(default_factory=lambda: {f.value: 0 for f in FACTIONS})
    # Seat holding this round's grail (set at Day's end, cleared when it is banked).
    grail_holder: int | None = None
    winners: list[str] = field(default_factory=list)
    end_reason: str | None = None
    # The night's public news held back until the Morning announcement (house rule
    # ``departures``: morning), as event dicts.
    held_news: list[dict[str, Any]] = field(default_factory=list)
    # Within a night only: the seat whose death lost the grail it carried, so that the
    # killing blow's steal attempt can take it from the body (``killing_blow``: steal).
    grail_dropped_by: int | None = None

    def player(self, seat: int) -> Player:
        return self.players[seat - 1]

    def seats(self) -> range:
        return range(1, len(self.players) + 1)

    def living(self) -> list[Player]:
        return [p for p in self.players if p.alive]

    def living_count(self, faction: Faction) -> int:
        return sum(1 for p in self.players if p.alive and p.faction is faction)

    def unannounced(self) -> set[int]:
        """Seats that departed in a night whose departures are not announced yet: the
        table still takes them for living (a vote for them counts for nothing)."""
        return {int(e["data"]["seat"]) for e in self.held_news if e["kind"] == "PlayerLeft"}

    def publicly_alive(self, seat: int) -> bool:
        return self.player(seat).alive or seat in self.unannounced()

    @property
    def over(self) -> bool:
        return self.phase is _OVER

    def clone(self) -> GameState:
        return GameState(
            players=[p.clone() for p in self.players],
            settings=self.settings,
            round=self.round,
            phase=self.phase,
            scores=dict(self.scores),
            grail_holder=self.grail_holder,
            winners=list(self.winners),
            end_reason=self.end_reason,
            held_news=_clone_json(self.held_news),
            grail_dropped_by=self.grail_dropped_by,
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "players": [p.to_dict() for p in self.players],
            "settings": self.settings.to_dict(),
            "round": self.round,
            "phase": self.phase.value,
            "scores": dict(self.scores),
            "grail_holder": self.grail_holder,
            "winners": list(self.winners),
            "end_reason": self.end_reason,
        } | ({"held_news": _clone_json(self.held_news)} if self.held_news else {})

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> GameState:
        return cls(
            players=[Player.from_dict(p) for p in d["players"]],
            settings=Settings.from_dict(d.get("settings", {})),
            round=int(d["round"]),
            phase=Phase(d["phase"]),
            scores={str(k): int(v) for k, v in d["scores"].items()},
            grail_holder=d.get("grail_holder"),
            winners=[str(w) for w in d.get("winners", [])],
            end_reason=d.get("end_reason"),
            held_news=_clone_json(d.get("held_news", [])),
        )


def _clone_json(value: Any) -> Any:
    """Copy a JSON-shaped value (dicts, lists, scalars) faster than deepcopy."""
    if isinstance(value, dict):
        return {k: _clone_json(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_clone_json(v) for v in value]
    return value
