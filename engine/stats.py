"""A player's current numbers: AB, Dexterity bonus, AC, saves, initiative modifier.

``night`` is the night being resolved (for toggles and grail passives) or None when the
sheet is shown between phases."""

from __future__ import annotations

from engine.classes import class_spec
from engine.model import Player, State
from engine.night.context import Night
from engine.skills.base import hooks_for

STATE_AB = {State.DAZED: -10, State.FATIGUED: -5, State.HYPNOTIC_PRELUDE: -2}
# Enum members looked up once: attribute access on an Enum class is slow in hot paths.
DAZED, GRAPPLED, SHAKEN = State.DAZED, State.GRAPPLED, State.SHAKEN
# The memory key of each save's permanent modifier.
SAVE_MOD = {which: f"{which}_mod" for which in ("will", "reflex", "fortitude")}


def dex_bonus(p: Player, night: Night | None = None) -> int:
    """Dexterity bonus (RULES: lost when Dazed or Grappled, −5 when Shaken, not below 0)."""
    conditions = p.conditions
    if (DAZED in conditions or GRAPPLED in conditions) and not any(
        s.keeps_dex(night, p) for s in hooks_for(p.class_id, "keeps_dex")
    ):
        return 0
    value = class_spec(p.class_id).dex + p.dex_mod
    if night is not None:
        value += night.turn(p.seat).dex
    if SHAKEN in conditions:
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
    if p.conditions:
        for state, mod in STATE_AB.items():
            if state in p.conditions:
                value += mod
    if night is not None:
        value += night.turn(p.seat).ab
    return value


def initiative_modifier(p: Player, night: Night | None = None) -> int:
    """R7: current Dexterity bonus ÷ 5."""
    return dex_bonus(p, night) // 5


def save(p: Player, which: str, night: Night | None = None) -> int:
    """Will, Reflex or Fortitude, with the night's changes."""
    value = int(getattr(class_spec(p.class_id), which)) + int(p.memory.get(SAVE_MOD[which], 0))
    if night is not None:
        value += night.turn(p.seat).saves.get(which, 0)
    return value
