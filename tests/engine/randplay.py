"""A careless random player for property and leak tests: it sends anything its class
could plausibly type — including plenty the rules refuse — so the engine's validation and
invariants are exercised far beyond what sensible play reaches."""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from engine import (
    Action,
    GameState,
    GrailNumber,
    Guess,
    Identification,
    Orders,
    Outcome,
    Phase,
    RuleViolation,
    Settings,
    Submission,
    Vote,
    advance,
    class_spec,
    new_game,
    validate,
)
from engine.classes import catalogue
from engine.values import FACTIONS, Trait

NAMES = [f"player{i}" for i in range(1, 16)]


def random_submission(state: GameState, seat: int, rng: random.Random) -> list[Submission]:
    n = len(state.players)
    p = state.player(seat)
    spec = class_spec(p.class_id)

    def target() -> int:
        return rng.randint(0, n + 1) if rng.random() < 0.05 else rng.randint(1, n)

    if state.phase is Phase.DAY:
        return [GrailNumber(rng.randint(-3, 104))]
    if state.phase is Phase.MORNING:
        return [Vote(target())]
    subs: list[Submission] = []
    if rng.random() < 0.7:
        guesses = []
        for slot in spec.identify:
            for _ in range(rng.randint(0, slot.count + (1 if rng.random() < 0.1 else 0))):
                what = slot.what if rng.random() < 0.9 else rng.choice(["trait", "class", "faction"])
                pool = {"trait": [t.value for t in Trait], "class": list(catalogue()), "faction": [f.value for f in FACTIONS]}[what]
                value = rng.choice(list(slot.values) if slot.values and rng.random() < 0.8 else pool)
                guesses.append(Guess(target(), what, value))  # type: ignore[arg-type]
        subs.append(Identification(tuple(guesses)))
    actions: list[Action] = []
    for _ in range(rng.choice([0, 1, 1, 1, 2, 2, 3])):
        if rng.random() < 0.4:
            actions.append(Action("attack", (target(),)))
            continue
        s = rng.choice(spec.skills)
        lo, hi = s.targets
        k = rng.randint(lo, hi) if rng.random() < 0.9 else rng.randint(0, 3)
        amount = None
        if s.amount is not None:
            amount = rng.randint(s.amount[0] - 1, s.amount[1] + 1) if rng.random() < 0.2 else rng.randint(*s.amount)
        actions.append(Action(s.id, tuple(target() for _ in range(k)), amount))
    toggles = frozenset(s.id for s in spec.skills if (s.mode == "toggle" or rng.random() < 0.03) and rng.random() < 0.4)
    subs.append(Orders(tuple(actions), toggles))
    return subs


@dataclass
class Played:
    outcomes: list[Outcome] = field(default_factory=list)
    refused: int = 0
    accepted: int = 0
    states: list[GameState] = field(default_factory=list)


def play(seed: str, players: int = 15, settings: Settings | None = None, max_phases: int = 150, keep_states: bool = False) -> Played:
    """One whole game of careless random players. Every refusal must be a RuleViolation."""
    rng = random.Random(seed)
    state = new_game(NAMES[:players], seed, settings)
    played = Played()
    for _ in range(max_phases):
        if state.over:
            break
        subs: dict[int, list[Submission]] = {}
        for p in state.players:
            if not p.alive or rng.random() < 0.1:
                continue
            for sub in random_submission(state, p.seat, rng):
                try:
                    subs.setdefault(p.seat, []).append(validate(state, p.seat, sub))
                    played.accepted += 1
                except RuleViolation:
                    played.refused += 1
        if keep_states:
            played.states.append(state)
        outcome = advance(state, subs, seed)
        played.outcomes.append(outcome)
        state = outcome.state
    if keep_states:
        played.states.append(state)
    return played
