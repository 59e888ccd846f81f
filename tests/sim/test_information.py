"""The AI players use only what their players could know, on the path whole games really
take (``runner.play_game``): audit events full of false facts, added to every phase's
events, change no decision of any seat."""

from __future__ import annotations

from typing import Any

import pytest

import bot.ai.runner as runner
from engine import Audience, Event


def with_false_audit_events(events: list[Event], players: int) -> list[Event]:
    extra: list[Event] = []
    for seat in range(1, players + 1):
        other = seat % players + 1
        extra += [
            Event("DamageDealt", Audience.AUDIT, None, {"target": other, "source": seat, "amount": 1, "cause": "x", "hp": 5}),
            Event("SpeakWithDead", Audience.AUDIT, None, {"dead": [{"seat": other, "faction": "chaotic"}]}),
            Event("PlayerDied", Audience.AUDIT, None, {"seat": other, "source": seat, "cause": "attack"}),
            Event("InitiativeRolled", Audience.AUDIT, None, {"order": [other, seat], "modifiers": [3, 1]}),
        ]
    return [*extra, *events]


@pytest.mark.parametrize("players", [15, 7])
def test_audit_events_change_no_decision(monkeypatch: pytest.MonkeyPatch, players: int) -> None:
    real_advance = runner.advance

    def poisoned(state: Any, subs: Any, seed: str, **kw: Any) -> Any:
        out = real_advance(state, subs, seed, **kw)
        out.events[:] = with_false_audit_events(out.events, players)
        return out

    for i in range(3):
        seed = runner.game_seed("information", i)
        clean: list[Any] = []
        runner.play_game(seed, players, record=clean)
        monkeypatch.setattr(runner, "advance", poisoned)
        dirty: list[Any] = []
        runner.play_game(seed, players, record=dirty)
        monkeypatch.undo()
        assert dirty == clean, f"game {seed}: an AI read an audit event"
