"""The plain values the rules name everywhere: the factions and the traits.

The class data (:mod:`engine.classes`), the line-ups (:mod:`engine.lineup`) and the game
state (:mod:`engine.model`) all name them, so they live here, in a module that imports
nothing of the engine: each of those may import it without importing the others.
"""

from __future__ import annotations

from enum import StrEnum


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
