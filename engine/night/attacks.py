"""What an attack is made with and what comes of it: the values the combat rules
(:mod:`engine.night.combat`) hand to the skills' hooks (:mod:`engine.skills.base`), in a
module of their own so that the skills need not import the combat that calls them."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class AttackResult:
    hit: bool
    damage: int = 0
    fizzled: bool = False
    intercepted: bool = False


@dataclass(frozen=True, slots=True)
class Swing:
    """What an attack was made with, for a skill that takes the attack over (intercept)."""

    why: str = "attack"
    ab_mod: int = 0
    damage_override: int | None = None
    damage_bonus: int = 0
    die: int | None = None
    deal_damage: bool = True
    ignore_armor: bool = False
