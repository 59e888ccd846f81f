"""A player's current numbers: AB, Dexterity bonus, AC, saves, initiative modifier.

``night`` is the night being resolved (for toggles and grail passives) or None when the
sheet is shown between phases."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.classes import class_spec
from engine.model import Player, State
from engine.skills.base import hooks_for

if TYPE_CHECKING:
    from engine.night.context import Night

STATE_AB = {State.DAZED: -10, State.FATIGUED: -5, State.HYPNOTIC_PRELUDE: -2}


def dex_bonus(p: Player, night: Night | None = None) -> int:
    """Dexterity bonus (RULES: lost when Dazed or Grappled, −5 when Shaken, not below 0)."""
    if (p.has(State.DAZED) or p.has(State.GRAPPLED)) and not any(
        s.keeps_dex(night, p) for s in hooks_for(p.class_id, "keeps_dex")
    ):
        return 0
    value = class_spec(p.class_id).dex + p.dex_mod
    if night is not None:
        value += night.turn(p.seat).dex
    if p.has(State.SHAKEN):
        value -= 5
    return max(0, value)


def armor(p: Player, night: Night | None = None) -> int:
    value = class_spec(p.class_id).armor + p.armor_mod
    if night is not None:
        value += night.turn(p.seat).armor
    return max(0, value)


def armor_class(p: Player, night: Night | None = None) -> int:
    return armor(p, night) + dex_bonus(p, night)


def attack_bonus(p: Player, night: Night | None = None) -> int:
    """AB before target-specific skill bonuses."""
    value = class_spec(p.class_id).ab + p.ab_mod
    for state, mod in STATE_AB.items():
        if p.has(state):
            value += mod
    if night is not None:
        value += night.turn(p.seat).ab
    return value


def initiative_modifier(p: Player, night: Night | None = None) -> int:
    """R7: current Dexterity bonus ÷ 5."""
    return dex_bonus(p, night) // 5


def save(p: Player, which: str, night: Night | None = None) -> int:
    """Will, Reflex or Fortitude, with the night's changes."""
    spec = class_spec(p.class_id)
    value = int(getattr(spec, which)) + int(p.memory.get(f"{which}_mod", 0))
    if night is not None:
        value += night.turn(p.seat).saves.get(which, 0)
    return value
