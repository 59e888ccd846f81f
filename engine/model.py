"""Value types and the mutable game state the engine works on.

The state is a plain tree of dataclasses that serialises to JSON-safe dicts with
``to_dict``/``from_dict``. ``GameState.clone`` is hand-written because ``copy.deepcopy``
would dominate the simulator's running time.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any


class Faction(StrEnum):
    LAWFUL = "lawful"
    NEUTRAL = "neutral"
    CHAOTIC = "chaotic"


FACTIONS: tuple[Faction, ...] = (Faction.LAWFUL, Faction.NEUTRAL, Faction.CHAOTIC)


class Trait(StrEnum):
    COMBAT = "combat"
    SPELLCASTING = "spellcasting"
    HOLY = "holy"
    AGILITY = "agility"


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


class State(StrEnum):
    """Conditions (异常状态). Wounded and dead are derived from HP, not stored here."""

    DAZED = "dazed"
    SHAKEN = "shaken"
    GRAPPLED = "grappled"
    FATIGUED = "fatigued"
    HYPNOTIC_PRELUDE = "hypnotic_prelude"


_OVER = Phase.OVER  # read on every submission and phase: an Enum class lookup is slow


@dataclass(frozen=True, slots=True)
class Settings:
    vote_tie_rule: VoteTieRule = VoteTieRule.ROLL
    reveal_on_death: bool = False
    win_score: int = 15

    def to_dict(self) -> dict[str, Any]:
        return {
            "vote_tie_rule": self.vote_tie_rule.value,
            "reveal_on_death": self.reveal_on_death,
            "win_score": self.win_score,
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Settings:
        return cls(
            vote_tie_rule=VoteTieRule(d.get("vote_tie_rule", "roll")),
            reveal_on_death=bool(d.get("reveal_on_death", False)),
            win_score=int(d.get("win_score", 15)),
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

    def player(self, seat: int) -> Player:
        return self.players[seat - 1]

    def seats(self) -> range:
        return range(1, len(self.players) + 1)

    def living(self) -> list[Player]:
        return [p for p in self.players if p.alive]

    def living_count(self, faction: Faction) -> int:
        return sum(1 for p in self.players if p.alive and p.faction is faction)

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
        }

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
        )


def _clone_json(value: Any) -> Any:
    """Copy a JSON-shaped value (dicts, lists, scalars) faster than deepcopy."""
    if isinstance(value, dict):
        return {k: _clone_json(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_clone_json(v) for v in value]
    return value
