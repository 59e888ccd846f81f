"""The end (RULES: Scoring and the end; R13)."""

from __future__ import annotations

from engine.events import Event, public
from engine.model import GameState, Phase
from engine.scoring import SURVIVOR_POINTS, award
from engine.uneven import extra, head_starts
from engine.values import FACTIONS


def end_reason(state: GameState) -> str | None:
    """'score' when a faction reached the winning score, 'majority' when one faction has
    more living members than all others together, 'extinction' when nobody lives."""
    if any(state.scores[f.value] >= state.settings.win_score for f in FACTIONS):
        return "score"
    living = {f: state.living_count(f) for f in FACTIONS}
    total = sum(living.values())
    if total == 0:
        return "extinction"
    if any(n > total - n for n in living.values()):
        return "majority"
    return None


def check_end(state: GameState, events: list[Event]) -> bool:
    """End the game if a condition holds: +2 per living member, equal top scores share
    the win, and the whole table is revealed."""
    reason = end_reason(state)
    if reason is None:
        return False
    finish(state, events, reason)
    return True


def release_held_news(state: GameState, events: list[Event]) -> None:
    """The night's news held back (house rule ``departures``: morning) goes out now: right
    after the vote counts when there are some (the original's order), else at the end."""
    if not state.held_news:
        return
    held = [Event.from_dict(e) for e in state.held_news]
    state.held_news = []
    at = next((i + 1 for i, e in enumerate(events) if e.kind == "VotesCounted"), len(events))
    events[at:at] = held


def finish(state: GameState, events: list[Event], reason: str) -> None:
    """Close the game now for ``reason``, scored exactly as a natural end (news held
    back from the night goes out first)."""
    release_held_news(state, events)
    for f in FACTIONS:
        survivors = state.living_count(f)
        if survivors:
            award(state, events, f, (SURVIVOR_POINTS + extra(state, f.value, "survivor")) * survivors, "survivors")
    top = max(state.scores.values())
    state.winners = [f.value for f in FACTIONS if state.scores[f.value] == top]
    state.phase = Phase.OVER
    state.end_reason = reason
    roster = [
        {"seat": p.seat, "name": p.name, "class_id": p.class_id, "faction": p.faction.value, "alive": p.alive, "grails": p.grails_banked}
        for p in state.players
    ]
    data = {"reason": reason, "round": state.round, "scores": dict(state.scores), "winners": list(state.winners), "roster": roster}
    starts = head_starts(state)
    if starts:  # in the scores since the deal (house rule uneven_tables), told with them
        data["head_starts"] = starts
    events.append(public("GameEnded", **data))
