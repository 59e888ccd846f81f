"""Initiative (RULES: d20 + Dexterity modifier; ties to the higher modifier, then a roll).
Never told to players: the rolls go to the audit log only."""

from __future__ import annotations

from engine.dice import Dice
from engine.model import GameState
from engine.night.context import Night
from engine.stats import initiative_modifier


def roll_initiative(state: GameState, dice: Dice, night: Night | None = None) -> tuple[list[int], dict[int, int]]:
    """Seats of every living player (the wounded too: R8 rolls at their turn), first to act
    first, and each seat's modifier (for the audit log). Tonight's Dexterity changes
    (toggles) count: they are set before initiative."""
    keyed: list[tuple[int, int, int]] = []
    mods: dict[int, int] = {}
    for p in state.players:
        if not p.alive:
            continue
        mod = mods[p.seat] = initiative_modifier(p, night)
        keyed.append((dice.roll(20, p.seat, "initiative") + mod, mod, p.seat))
    # Ties on (total, modifier) are broken by a recorded roll among the tied seats.
    groups: dict[tuple[int, int], list[int]] = {}
    for total, mod, seat in keyed:
        groups.setdefault((total, mod), []).append(seat)
    order: list[int] = []
    for key in sorted(groups, reverse=True):
        seats = groups[key]
        if len(seats) > 1:
            dice.shuffle(seats, "initiative-tie")
        order.extend(seats)
    return order, mods
