"""The scenario file's schema: pydantic models, strict and closed (``extra="forbid"``).

These models check shape and types only, plus what one field can check alone (a class
must exist, a state name must be a state). Whatever needs the whole table (a grappler
must be a seat at the table, one grail holder at most, HP within the class's maximum)
is checked in :mod:`bot.scenario.build`, and whatever the rules themselves refuse is left
to :func:`engine.validate`. See ``docs/scenario.md`` for the format with examples.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from engine.classes import catalogue

PhaseName = Literal["day", "dusk", "morning"]
FactionName = Literal["lawful", "neutral", "chaotic"]
TraitName = Literal["combat", "spellcasting", "holy", "agility"]
StateName = Literal["dazed", "shaken", "grappled", "fatigued", "hypnotic_prelude"]

# States that last until something ends them (a release, a Finale) rather than a night.
OPEN_ENDED_STATES = frozenset({"grappled", "hypnotic_prelude"})


class _Closed(BaseModel):
    """Strict types (no "10" for 10, no 1 for true) and no unknown fields."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True, populate_by_name=True)


class SettingsSpec(_Closed):
    """The game's settings (R4 vote ties, R12 reveal on death, the winning score, and the
    house rules: docs/rules.md, "House rules")."""

    vote_tie_rule: Literal["roll", "nobody", "all"] = "roll"
    reveal_on_death: bool = False
    win_score: int = Field(default=15, ge=1, le=100)
    killing_blow: Literal["steal", "killer_takes"] = "steal"
    departures: Literal["dawn", "morning"] = "dawn"
    vote_damage: Literal["public", "private"] = "public"
    uneven_tables: Literal["compensate", "off"] = "compensate"


class ScoresSpec(_Closed):
    """Faction scores before the phase (secret in a real game; they decide the end)."""

    lawful: int = Field(default=0, ge=0)
    neutral: int = Field(default=0, ge=0)
    chaotic: int = Field(default=0, ge=0)


class StateSpec(_Closed):
    """One state on a player. ``until_round``: the last round whose night it lasts
    through (default: the coming night; Grappled and Hypnotic Prelude: until ended).
    ``source``: the seat that caused it (required for Grappled: the grappler)."""

    until_round: int | None = Field(default=None, ge=1)
    source: int | None = Field(default=None, ge=1)


class GuessSpec(_Closed):
    """One identification guess: ``target`` is exactly one of a trait, class or faction."""

    target: int = Field(ge=1)
    trait: TraitName | None = None
    class_: str | None = Field(default=None, alias="class")
    faction: FactionName | None = None

    @model_validator(mode="after")
    def _exactly_one(self) -> GuessSpec:
        given = [k for k in ("trait", "class_", "faction") if getattr(self, k) is not None]
        if len(given) != 1:
            raise ValueError("a guess names exactly one of trait, class or faction")
        return self

    @field_validator("class_")
    @classmethod
    def _known_class(cls, v: str | None) -> str | None:
        if v is not None:
            check_class_id(v)
        return v

    @property
    def what(self) -> Literal["trait", "class", "faction"]:
        if self.trait is not None:
            return "trait"
        return "class" if self.class_ is not None else "faction"

    @property
    def value(self) -> str:
        return str(self.trait or self.class_ or self.faction)


class ActionSpec(_Closed):
    """One night action: ``attack`` or a skill id of the player's class."""

    skill: str = Field(min_length=1)
    targets: list[int] = Field(default_factory=list)
    amount: int | None = None

    @field_validator("targets", mode="before")
    @classmethod
    def _one_target_shorthand(cls, v: object) -> object:
        return [v] if isinstance(v, int) and not isinstance(v, bool) else v


class MemorySpec(_Closed):
    """What a class remembers between nights. Each field applies only to the classes
    that keep it (checked in build): spell points (Sorcerer), the companion's HP
    (Druid), a Cleave ready for tonight (Warrior), confirmed identifications (anyone)."""

    spell_points: int | None = Field(default=None, ge=0)
    companion_hp: int | None = None
    cleave_ready: bool | None = None
    confirmed: list[GuessSpec] | None = None


class ModifiersSpec(_Closed):
    """Permanent changes in percentage points (e.g. Combat Expertise: ab = -15, dex = 15)."""

    ab: int = 0
    dex: int = 0
    armor: int = 0


class PlayerSpec(_Closed):
    """One seat. HP 0 is wounded, HP below 0 is dead (RULES: States). The submission
    fields carry what this player sends in the scenario's phase."""

    seat: int | None = Field(default=None, ge=1)
    name: str | None = Field(default=None, min_length=1, max_length=32)
    class_: str = Field(alias="class")
    faction: FactionName
    hp: int | None = Field(default=None, ge=-99)
    states: dict[StateName, StateSpec] = Field(default_factory=dict)
    holds_grail: bool = False
    grails: int = Field(default=0, ge=0)
    wound_rolls: int = Field(default=0, ge=0, le=1)
    wounded_by: int | None = Field(default=None, ge=1)
    memory: MemorySpec = Field(default_factory=MemorySpec)
    used_once: list[str] = Field(default_factory=list)
    modifiers: ModifiersSpec = Field(default_factory=ModifiersSpec)
    # Submissions (only those of the scenario's phase are accepted by the rules).
    grail_number: int | None = None
    identify: list[GuessSpec] | None = None
    orders: list[ActionSpec] | None = None
    toggles: list[str] | None = None
    vote: int | None = None

    @field_validator("class_")
    @classmethod
    def _known_class(cls, v: str) -> str:
        check_class_id(v)
        return v

    @field_validator("states", mode="before")
    @classmethod
    def _normalise_states(cls, v: object) -> object:
        """``states = ["dazed"]`` is short for ``states = { dazed = {} }``; Wounded and
        Dead are not states to set but HP values, and the message says so."""
        if isinstance(v, list) and all(isinstance(x, str) for x in v):
            v = {x: {} for x in v}
        if isinstance(v, dict):
            if "wounded" in v:
                raise ValueError("'wounded' is not set as a state: it is HP 0 (write hp = 0)")
            if "dead" in v:
                raise ValueError("'dead' is not set as a state: it is HP below 0 (write hp = -1)")
        return v


class ScenarioSpec(_Closed):
    """The whole file."""

    title: str | None = None
    seed: str = "scenario"
    round: int = Field(default=1, ge=1, le=1000)
    phase: PhaseName
    settings: SettingsSpec = Field(default_factory=SettingsSpec)
    scores: ScoresSpec = Field(default_factory=ScoresSpec)
    players: list[PlayerSpec] = Field(min_length=2, max_length=15)


def check_class_id(class_id: str) -> None:
    """Refuse a class the catalogue does not know, listing the ones it does."""
    known = sorted(catalogue())
    if class_id not in known:
        raise ValueError(f"unknown class {class_id!r} (known: {', '.join(known)})")
