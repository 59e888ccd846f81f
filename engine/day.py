"""Day: grail allocation (RULES: Day). The numbers and the mean stay secret."""

from __future__ import annotations

from fractions import Fraction

from engine.dice import Dice
from engine.events import Event, audit, private, public
from engine.model import GameState
from engine.scoring import ALLOCATION_POINTS, award
from engine.uneven import extra


def allocate_grail(state: GameState, dice: Dice, events: list[Event], numbers: dict[int, int]) -> int | None:
    """The player whose number is closest to the mean of all numbers sent wins this round's
    grail; ties are rolled. Non-senders and the dead take no part. With no number sent the
    grail stays hidden this round (ruling). Returns the winner's seat."""
    entries = {seat: n for seat, n in numbers.items() if state.player(seat).alive}
    if not entries:
        events.append(public("GrailUnclaimed", round=state.round))
        return None
    total, count = sum(entries.values()), len(entries)
    # |n - total/count| compared as |n*count - total|: exact, no fractions needed.
    distance = {seat: abs(n * count - total) for seat, n in entries.items()}
    best = min(distance.values())
    tied = sorted(seat for seat, d in distance.items() if d == best)
    winner = dice.pick(tied, "grail-tie")
    events.append(audit("GrailAllocated", numbers={str(k): v for k, v in sorted(entries.items())}, mean=str(Fraction(total, count)), tied=tied, winner=winner))
    state.grail_holder = winner
    faction = state.player(winner).faction
    award(state, events, faction, ALLOCATION_POINTS + extra(state, faction.value, "grail"), "allocation", winner)
    events.append(private(winner, "GrailWon", round=state.round))
    return winner
