"""Points (RULES: Scoring). Every change is an audit event; scores stay secret until the end."""

from __future__ import annotations

from engine.events import Event, audit
from engine.model import GameState, Player
from engine.uneven import extra
from engine.values import FACTIONS, Faction

ALLOCATION_POINTS = 1
STEAL_POINTS = 2
KILL_POINTS = 3
TEAMKILL_POINTS = 2
SURVIVOR_POINTS = 2


def award(state: GameState, events: list[Event], faction: Faction, points: int, reason: str, seat: int | None = None) -> None:
    state.scores[faction.value] += points
    events.append(audit("ScoreChanged", faction=faction.value, points=points, reason=reason, seat=seat))


def score_kill(state: GameState, events: list[Event], killer: Player | None, victim: Player) -> None:
    """+3 for killing another faction; a teamkill gives every other faction +2.
    No killer (the vote, a removal): no points."""
    if killer is None:
        return
    if killer.faction is not victim.faction:
        award(state, events, killer.faction, KILL_POINTS + extra(state, killer.faction.value, "kill"), "kill", killer.seat)
        return
    for f in FACTIONS:
        if f is not killer.faction:
            award(state, events, f, TEAMKILL_POINTS, "teamkill", killer.seat)
