"""Identification answers (R6): sent at Dusk, answered privately as the night resolves,
one message listing the confirmations only."""

from __future__ import annotations

from engine.classes import class_spec
from engine.events import Event, private
from engine.model import GameState
from engine.submissions import Guess, Identification


def is_true(state: GameState, guess: Guess) -> bool:
    target = state.player(guess.target)
    if guess.what == "trait":
        return guess.value in class_spec(target.class_id).traits
    if guess.what == "class":
        return guess.value == target.class_id
    return guess.value == target.faction.value


def answer(state: GameState, events: list[Event], identifications: dict[int, Identification]) -> None:
    for seat in sorted(identifications):
        p = state.player(seat)
        if not p.alive:
            continue
        confirmed = [g.to_dict() for g in identifications[seat].guesses if is_true(state, g)]
        events.append(private(seat, "IdentificationAnswered", confirmed=confirmed, asked=len(identifications[seat].guesses)))
        confirmations = p.memory.setdefault("confirmed", [])
        for g in confirmed:
            if g not in confirmations:
                confirmations.append(g)
