"""Closing a phase: the engine's one state transition.

``advance`` takes the state, every submission stored for the phase and the game's secret
seed, and returns the next state, the events (each with its audience) and every roll.
Same inputs, same outputs: the only chance is the phase's own seeded Dice.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from engine import rules
from engine.day import allocate_grail
from engine.dice import Dice, Roll
from engine.ending import check_end, finish, release_held_news
from engine.errors import GameOverError, RuleViolation
from engine.events import Audience, Event, audit, public
from engine.health import kill
from engine.model import DeparturesRule, GameState, Phase
from engine.morning import count_votes
from engine.night.resolve import resolve_night
from engine.submissions import GrailNumber, Identification, Orders, Submission, Vote
from engine.validate import validate

# Enum members looked up once: attribute access on an Enum class is slow in hot paths.
DAY, DUSK, MORNING = Phase.DAY, Phase.DUSK, Phase.MORNING
PUBLIC = Audience.PUBLIC


@dataclass(frozen=True, slots=True)
class Outcome:
    state: GameState
    events: list[Event]
    rolls: list[Roll]


def advance(
    state: GameState,
    submissions: Mapping[int, Iterable[Submission]],
    seed: str,
    inplace: bool = False,
    trusted: bool = False,
) -> Outcome:
    """Resolve the current phase. Submissions are re-checked against the state; one that
    no longer holds is dropped with an audit event rather than failing the phase.

    ``inplace`` mutates ``state`` instead of working on a copy and ``trusted`` skips the
    re-check of submissions the caller has just validated against this very state: both
    are for the simulator's speed; the service uses neither. The phase is resolved
    under the game's rules version (engine.rules)."""
    if state.over:
        raise GameOverError()
    with rules.playing(state.settings.rules_version):
        return _advance(state, submissions, seed, inplace, trusted)


def _advance(
    state: GameState,
    submissions: Mapping[int, Iterable[Submission]],
    seed: str,
    inplace: bool,
    trusted: bool,
) -> Outcome:
    st = state if inplace else state.clone()
    dice = Dice.for_phase(seed, st.round, st.phase.value)
    events: list[Event] = []
    valid: dict[int, list[Submission]] = {}
    # Seat by seat whatever the mapping's order (a log re-sorted as text replays the same).
    for seat, subs in sorted(submissions.items()):
        for sub in subs:
            if trusted:
                valid.setdefault(seat, []).append(sub)
                continue
            try:
                valid.setdefault(seat, []).append(validate(st, seat, sub, resolving=True))
            except RuleViolation as exc:
                events.append(audit("SubmissionDropped", seat=seat, submission=sub.kind, key=exc.key))
    if st.phase is DAY:
        numbers = {s: x.number for s, subs in valid.items() for x in subs if isinstance(x, GrailNumber)}
        allocate_grail(st, dice, events, numbers)
        if not check_end(st, events):
            st.phase = DUSK
    elif st.phase is DUSK:
        idents = {s: x for s, subs in valid.items() for x in subs if isinstance(x, Identification)}
        orders = {s: x for s, subs in valid.items() for x in subs if isinstance(x, Orders)}
        resolve_night(st, dice, events, idents, orders)
        _departures_by_seat(events)
        if not check_end(st, events):
            st.phase = MORNING
            if st.settings.departures is DeparturesRule.MORNING:
                _hold_departures(st, events)
    else:
        votes = {s: x.target for s, subs in valid.items() for x in subs if isinstance(x, Vote)}
        count_votes(st, dice, events, votes)
        release_held_news(st, events)
        if not check_end(st, events):
            st.round += 1
            st.phase = DAY
    return Outcome(st, events, dice.rolls)


def remove_player(state: GameState, seat: int) -> Outcome:
    """A moderator removes a player: they leave as if dead, with no points to anyone."""
    st = state.clone()
    events: list[Event] = []
    p = st.player(seat)
    if p.alive:
        with rules.playing(st.settings.rules_version):
            kill(st, events, p, None, "removed")
            check_end(st, events)
    return Outcome(st, events, [])


def end_game(state: GameState) -> Outcome:
    """A moderator ends a running game early (ruling): it is scored as a natural end —
    +2 per living member, most points wins — with the reason ``stopped``."""
    if state.over:
        raise GameOverError()
    st = state.clone()
    events: list[Event] = []
    with rules.playing(st.settings.rules_version):
        finish(st, events, "stopped")
    return Outcome(st, events, [])


def _hold_departures(state: GameState, events: list[Event]) -> None:
    """House rule ``departures``: morning. The night's public news (departures, a faction
    wiped out) waits for the Morning announcement, after the vote; the dawn says only
    that it waits, every night alike (so that saying it reveals nothing)."""
    held = [e for e in events if e.audience is PUBLIC]
    events[:] = [e for e in events if e.audience is not PUBLIC]
    state.held_news = [e.to_dict() for e in held]
    events.append(public("DeparturesHeld", round=state.round))


def _departures_by_seat(events: list[Event]) -> None:
    """Public departures of a night go out in seat order, so their order cannot betray
    the initiative order."""
    idx = [i for i, e in enumerate(events) if e.audience is PUBLIC]
    ordered = sorted((events[i] for i in idx), key=lambda e: (e.kind != "PlayerLeft", e.data.get("seat") or 0))
    for i, e in zip(idx, ordered, strict=True):
        events[i] = e
