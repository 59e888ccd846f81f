"""What one player may know of the game: their own sheet and the public table.

Used for the character sheet, ``/me`` and the AI players, who must decide from exactly
what a person in that seat could know (R9: you know your own HP and the states you gave
yourself, never the others)."""

from __future__ import annotations

from dataclasses import replace
from functools import cache
from typing import Any, TypedDict

from engine import rules
from engine.classes import catalogue_of, class_spec
from engine.model import GameState
from engine.stats import armor, attack_bonus, dex_bonus, save

# Class memory a player may see on its own sheet (spell points, a companion's HP, ...).
VISIBLE_MEMORY = ("spell_points", "companion_hp", "cleave_round", "grappling")


@cache
class SkillRow(TypedDict):
    """One skill on a sheet: its id, kinds (``action``, ``toggle``, ``once``...), what it
    costs (``free``, ``action``...) and whether its once-a-game use is spent."""

    id: str
    kinds: list[str]
    cost: str
    used: bool


class Sheet(TypedDict):
    """A player's own sheet as ``/me`` shows it and the bot stores it (JSON-safe): who
    they are, their numbers as the rules version computes them without the states they
    were not told of (R9), their grail, skills, identification rule and what they know."""

    seat: int
    name: str
    class_id: str
    faction: str
    traits: list[str]
    hp: int
    max_hp: int
    alive: bool
    wounded: bool
    ab: int
    armor: int
    dex: int
    damage: int
    will: int
    reflex: int
    fortitude: int
    known_states: list[str]
    holds_grail: bool
    grails_banked: int
    skills: list[SkillRow]
    identify: list[dict[str, Any]]
    memory: dict[str, Any]
    confirmed: list[Any]


def _static(class_id: str, version: int) -> tuple[list[str], list[tuple[str, list[str], str]], list[dict[str, Any]]]:
    """The parts of a sheet that only depend on the class (built once per class and
    rules version)."""
    spec = catalogue_of(version)[class_id]
    skills: list[tuple[str, list[str], str]] = [(s.id, list(s.kinds), s.cost) for s in spec.skills]
    return [t.value for t in spec.traits], skills, [s.model_dump() for s in spec.identify]


def sheet(state: GameState, seat: int) -> Sheet:
    """The player's own sheet, JSON-safe, with the numbers of the game's rules version."""
    with rules.playing(state.settings.rules_version):
        return _sheet(state, seat)


def _sheet(state: GameState, seat: int) -> Sheet:
    p = state.player(seat)
    # R9: the numbers shown must not betray a state the player was not told of (a Monk's
    # hold, a Bard's Prelude): compute them as if only its self-given states existed.
    # (A shallow copy, and only when there is something to hide: nothing below writes.)
    if any(c.source != seat for c in p.conditions.values()):
        p = replace(p, conditions={k: c for k, c in p.conditions.items() if c.source == seat})
    spec = class_spec(p.class_id)
    traits, skills, identify = _static(p.class_id, state.settings.rules_version)
    return {
        "seat": p.seat,
        "name": p.name,
        "class_id": p.class_id,
        "faction": p.faction.value,
        "traits": list(traits),
        "hp": p.hp,
        "max_hp": p.max_hp,
        "alive": p.alive,
        "wounded": p.wounded,
        "ab": attack_bonus(p),
        "armor": armor(p),
        "dex": dex_bonus(p),
        "damage": spec.damage,
        "will": save(p, "will"),
        "reflex": save(p, "reflex"),
        "fortitude": save(p, "fortitude"),
        "known_states": sorted(p.conditions),
        "holds_grail": state.grail_holder == seat,
        "grails_banked": p.grails_banked,
        "skills": [
            {"id": sid, "kinds": list(kinds), "cost": cost, "used": sid in p.used_once}
            for sid, kinds, cost in skills
        ],
        "identify": [dict(slot, values=list(slot["values"])) for slot in identify],
        "memory": {k: p.memory[k] for k in VISIBLE_MEMORY if k in p.memory and not _stale(state, k, p.memory[k])},
        "confirmed": list(p.memory.get("confirmed", [])),
    }


def _stale(state: GameState, key: str, value: Any) -> bool:
    """A Cleave readiness whose Dusk has passed says nothing any more."""
    return key == "cleave_round" and value < state.round


def table(state: GameState) -> list[dict[str, Any]]:
    """The public table: seats, names and who is still in the game, as the table has
    been told (a departure held back for the Morning announcement is not known yet)."""
    unannounced = state.unannounced()
    return [{"seat": p.seat, "name": p.name, "alive": p.alive or p.seat in unannounced} for p in state.players]
