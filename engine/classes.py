"""The class catalogue: stats, traits, identification rules and skill parameters, read
from ``engine/data/classes/*.toml`` and validated at load. Tuning a number needs no code
change, but a new rules version (``engine/data/rules.toml``, :mod:`engine.rules`): the
files hold the newest version's numbers, and each older version is rebuilt from them
with the numbers the table keeps for it. Skill *behaviour* lives in
:mod:`engine.skills`, registered by skill id."""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from functools import cache
from importlib import resources
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from engine import rules
from engine.values import Faction, Trait
from engine.zh_tw import traditional

# Texts in each language: en-US and zh-CN from the data; zh-TW added from zh-CN (engine.zh_tw).
Localized = dict[Literal["en-US", "zh-CN", "zh-TW"], str]

# The source's roster (RULES: Roles), in the order of its table rows.
FACTION_ROWS: dict[Faction, tuple[str, ...]] = {
    Faction.LAWFUL: ("warrior", "monk", "cleric", "wizard", "paladin"),
    Faction.NEUTRAL: ("barbarian", "wizard", "warrior", "rogue", "druid"),
    Faction.CHAOTIC: ("barbarian", "sorcerer", "ranger", "rogue", "bard"),
}


def with_traditional(v: Localized) -> Localized:
    """``v`` with its zh-TW text (from its zh-CN one) when it has none."""
    if "zh-CN" in v and "zh-TW" not in v:
        return {**v, "zh-TW": traditional(v["zh-CN"])}
    return v


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class IdentifySlot(_Strict):
    """``count`` names may be submitted, each for one of ``values`` of kind ``what``
    (all values of that kind when ``values`` is empty)."""

    count: int = Field(ge=1, le=3)
    what: Literal["trait", "class", "faction"]
    values: tuple[str, ...] = ()


class SkillSpec(_Strict):
    id: str
    mode: Literal["active", "passive", "toggle"]
    grail: bool = False
    once: bool = False
    cost: Literal["standard", "free", "none"] = "standard"
    # How many target seats the order names: (min, max). Passive and toggle skills take none.
    targets: tuple[int, int] = (0, 0)
    target_self: bool = False
    # Skills sharing a group are paid for together with one action (the Sorcerer's volley).
    group: str | None = None
    amount: tuple[int, int] | None = None
    params: dict[str, int | float | str | bool] = Field(default_factory=dict)
    name: Localized
    text: Localized

    @field_validator("name", "text")
    @classmethod
    def _traditional(cls, v: Localized) -> Localized:
        return with_traditional(v)

    @property
    def kinds(self) -> tuple[str, ...]:
        """The source's skill kinds this skill belongs to, for the sheet and the docs."""
        out: list[str] = [self.mode]
        if self.grail:
            out.append("grail")
        if self.once:
            out.append("once")
        return tuple(out)

    @model_validator(mode="after")
    def _coherent(self) -> SkillSpec:
        lo, hi = self.targets
        if not 0 <= lo <= hi <= 3:
            raise ValueError(f"targets {self.targets} must be 0 <= min <= max <= 3")
        if self.mode != "active" and hi:
            raise ValueError("only active skills take targets")
        return self


class ClassSpec(_Strict):
    id: str
    hp: int = Field(ge=1, le=30)
    traits: tuple[Trait, ...] = Field(min_length=1)
    ab: int = Field(ge=0, le=100)
    armor: Literal[0, 5, 10, 15]
    dex: Literal[0, 5, 10, 15]
    damage: int = Field(ge=1, le=12, description="damage die sides")
    will: int = Field(ge=0, le=100)
    reflex: int = Field(ge=0, le=100)
    fortitude: int = Field(ge=0, le=100)
    identify: tuple[IdentifySlot, ...] = Field(min_length=1)
    skills: tuple[SkillSpec, ...] = Field(min_length=4, max_length=5)
    name: Localized
    blurb: Localized
    memory: dict[str, Any] = Field(default_factory=dict)

    @field_validator("name", "blurb")
    @classmethod
    def _both_languages(cls, v: Localized) -> Localized:
        if set(v) != {"en-US", "zh-CN"}:
            raise ValueError("needs exactly en-US and zh-CN")
        return with_traditional(v)

    @model_validator(mode="after")
    def _coherent(self) -> ClassSpec:
        ids = [s.id for s in self.skills]
        if len(set(ids)) != len(ids):
            raise ValueError("skill ids repeat")
        if not any(s.grail for s in self.skills):
            raise ValueError("every class needs at least one grail skill")
        if "attack" in ids:
            raise ValueError("'attack' is reserved for the plain melee attack")
        return self

    def skill(self, skill_id: str) -> SkillSpec | None:
        for s in self.skills:
            if s.id == skill_id:
                return s
        return None


class ClassDataError(ValueError):
    """The class data file is invalid; the message names the file and field."""


def parse_class(text: str, source: str) -> ClassSpec:
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ClassDataError(f"{source}: {exc}") from exc
    return _validated(raw, source)


@cache
def _data_files() -> Mapping[str, tuple[str, dict[str, Any]]]:
    """Each class's data file as read (class id -> file name, its TOML), newest version."""
    folder = resources.files("engine") / "data" / "classes"
    out: dict[str, tuple[str, dict[str, Any]]] = {}
    for entry in sorted(folder.iterdir(), key=lambda e: e.name):
        if entry.name.endswith(".toml"):
            try:
                out[entry.name.removesuffix(".toml")] = (entry.name, tomllib.loads(entry.read_text(encoding="utf-8")))
            except tomllib.TOMLDecodeError as exc:
                raise ClassDataError(f"{entry.name}: {exc}") from exc
    return out


def _validated(raw: dict[str, Any], source: str) -> ClassSpec:
    try:
        return ClassSpec.model_validate(raw)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise ClassDataError(f"{source}: {where}: {first['msg']}") from exc


@cache
def _newest() -> Mapping[str, ClassSpec]:
    """The newest rules version's classes: the data files, validated."""
    return catalogue_of(rules.CURRENT)


@cache
def catalogue_of(version: int) -> Mapping[str, ClassSpec]:
    """All classes as rules version ``version`` has them (built once per version): the
    data files (the newest version's) with, going back one version at a time, each
    version's ``before`` numbers from rules.toml; validated like the files."""
    raw = {class_id: (source, dict(data)) for class_id, (source, data) in _data_files().items()}
    for number in range(rules.CURRENT, rules.known(version), -1):
        for class_id, fields in rules.versions()[number].before.items():
            if class_id not in raw:
                raise ClassDataError(f"rules.toml: version {number}: no class {class_id!r}")
            source, data = raw[class_id]
            raw[class_id] = (f"rules.toml (version {number - 1}'s {class_id})", data | dict(fields))
    out: dict[str, ClassSpec] = {}
    seen_skills: dict[str, str] = {}  # skill ids are unique: errors and logs name a skill by id
    for class_id, (source, data) in raw.items():
        spec = _validated(data, source)
        if spec.id != class_id:
            raise ClassDataError(f"{source}: id {spec.id!r} does not match the file name")
        for s in spec.skills:
            if s.id in seen_skills:
                raise ClassDataError(f"{source}: skill id {s.id!r} is also {seen_skills[s.id]}'s")
            seen_skills[s.id] = spec.id
        out[spec.id] = spec
    return out


def catalogue() -> Mapping[str, ClassSpec]:
    """All classes under the rules version in force (engine.rules), validated; raises
    ClassDataError on bad data."""
    return catalogue_of(rules.in_force())


def missing_classes() -> list[str]:
    """Classes of the roster with no data file (tests require none)."""
    return sorted({c for row in FACTION_ROWS.values() for c in row} - set(catalogue()))


@cache
def skill_names() -> Mapping[str, Localized]:
    """Every skill id of every class with its name in each language (skill ids are
    unique across classes)."""
    return {s.id: s.name for spec in _newest().values() for s in spec.skills}


def class_spec(class_id: str) -> ClassSpec:
    """One class's data under the rules version in force (each version's catalogue is
    built once: the night looks classes up thousands of times a game)."""
    return catalogue_of(rules.in_force())[class_id]
