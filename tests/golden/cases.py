"""Golden games: recorded seeds and submissions whose every event, roll and final state
are kept in ``tests/golden/data`` and must come out of the engine exactly again.

The submissions come from whole games between the baseline AI players (so they are the
kind a table really sends), recorded once by ``python -m tests.golden.record``. Replaying
them goes the way the bot goes: the state is stored as JSON between phases and rebuilt,
each phase's submissions are read back from their stored form, and ``engine.advance``
closes the phase on a copy. A rules change that alters any event, roll or state shows as
a differing line; record again only when the change is meant (the diff of the data files
then shows exactly what it changed).

The cases were picked to cover the engine's events between them: two 15-player tables
(49 of the engine's kinds of event and 4 more), a small table with other settings (a tie
vote removes everyone tied, classes shown on death, 12 points win), a table where
some seats fall silent and one sends out of turn (an unclaimed grail, a dropped
submission, players who did not send), and a table a moderator runs: two players
removed (at Dusk, when orders already name one of them, and at Morning) and the game
ended early, scored, at Day 5. The first five play by the rulings they were recorded
under (the killer takes a carried grail); a sixth plays every house rule that is not
today's: a killing blow on the grail carrier is a steal attempt (one fails and the grail
is lost, one takes it from the body), the night's departures wait for the Morning
announcement, and the vote's damage is told only to the one who takes it. The tables of
8 and 11 play with a faction a seat short, under today's head start (house rule
``uneven_tables``); the table of 10 without it. The tables below 15 are dealt by the fair
deal (rules version 6, engine.fair_deal).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.ai.runner import play_game
from engine import (
    DeparturesRule,
    GameState,
    KillingBlowRule,
    Outcome,
    Settings,
    Submission,
    UnevenTablesRule,
    Vote,
    VoteDamageRule,
    VoteTieRule,
    advance,
    end_game,
    new_game,
    remove_player,
    submission_from_dict,
)

DATA = Path(__file__).parent / "data"


@dataclass(frozen=True)
class Case:
    name: str
    seed: str
    players: int
    # The cases recorded before house rules existed play by the rulings of that time
    # (the killer takes a carried grail, E13); their data must not move.
    settings: Settings = field(default_factory=lambda: Settings(killing_blow=KillingBlowRule.KILLER_TAKES))
    # Seats whose submissions are left out, by (round, phase): they did not send.
    silent: dict[tuple[int, str], tuple[int, ...]] = field(default_factory=dict)
    # Submissions added where the rules refuse them, by (round, phase): seat -> one
    # stored submission (the engine drops it with an audit event).
    stray: dict[tuple[int, str], dict[int, dict[str, Any]]] = field(default_factory=dict)
    # Seats a moderator removes as that phase opens, by (round, phase).
    removals: dict[tuple[int, str], tuple[int, ...]] = field(default_factory=dict)
    # Where a moderator ends the game early (scored), if the game gets there.
    end_at: tuple[int, str] | None = None

    @property
    def path(self) -> Path:
        return DATA / f"{self.name}.jsonl"

    def names(self) -> list[str]:
        return [f"P{i}" for i in range(1, self.players + 1)]


CASES = (
    Case("table15-a", "golden:56", 15),
    Case("table15-b", "golden:46", 15),
    Case(
        "table8-tie-all",
        "golden:30",
        8,
        Settings(vote_tie_rule=VoteTieRule.ALL, reveal_on_death=True, win_score=12, killing_blow=KillingBlowRule.KILLER_TAKES),
    ),
    Case(
        "table10-silent",
        "golden:6",
        10,
        # without the head start (house rule uneven_tables), so that the AI's recorded
        # game still runs to its end once the silences are applied
        Settings(vote_tie_rule=VoteTieRule.NOBODY, killing_blow=KillingBlowRule.KILLER_TAKES, uneven_tables=UnevenTablesRule.OFF),
        silent={(2, "day"): tuple(range(1, 11)), (1, "dusk"): (2, 5), (3, "morning"): (1, 3, 4, 6, 7)},
        stray={(1, "day"): {4: Vote(3).to_dict()}},
    ),
    Case(
        "table12-moderated",
        "golden:7",
        12,
        removals={(2, "dusk"): (5,), (3, "morning"): (9,)},
        end_at=(5, "day"),
    ),
    Case(
        "table11-house-rules",
        "golden:27",
        11,
        Settings(
            killing_blow=KillingBlowRule.STEAL,
            departures=DeparturesRule.MORNING,
            vote_damage=VoteDamageRule.PRIVATE,
        ),
    ),
)


def _stored(subs: list[Submission]) -> list[dict[str, Any]]:
    return [s.to_dict() for s in subs]


def record_steps(case: Case) -> list[Step]:
    """Each phase's submissions, as stored, from a whole AI game of ``case`` (before the
    case's silences, strays, removals and early end are applied)."""
    rec: list[dict[int, list[Submission]]] = []
    play_game(case.seed, case.players, start=new_game(case.names(), case.seed, case.settings), record=rec)
    return [{"submissions": {seat: _stored(subs) for seat, subs in phase.items()}} for phase in rec]


Step = dict[str, Any]  # {"submissions": {seat: [stored, ...]}}, {"remove": seat} or {"end": True}


def _run(state: GameState, step: Step, seed: str) -> Outcome:
    if "remove" in step:
        return remove_player(state, step["remove"])
    if "end" in step:
        return end_game(state)
    return advance(state, {s: [submission_from_dict(d) for d in v] for s, v in step["submissions"].items()}, seed)


def replay(case: Case, steps: list[Step], adjust: bool = False) -> Iterator[dict[str, Any]]:
    """The golden record of ``case`` replayed from ``steps`` (each phase's stored
    submissions, and a moderator's removals and early end): a header, then per step its
    line (the submissions, the seat removed, the end) followed by its events and rolls,
    then the final state (one line per player). ``adjust`` (when recording from the AI's
    submissions) applies the case's silences, strays, removals and early end first; the
    AI's later submissions may then no longer fit, and the engine drops those, as it must."""
    yield {"case": case.name, "seed": case.seed, "names": case.names(), "settings": case.settings.to_dict()}
    stored = new_game(case.names(), case.seed, case.settings).to_dict()
    for step in steps:
        state = GameState.from_dict(json.loads(json.dumps(stored)))
        if state.over:
            break
        at = (state.round, state.phase.value)
        todo = [step]
        if adjust:
            subs = {s: list(v) for s, v in step["submissions"].items() if s not in case.silent.get(at, ())}
            for seat, extra in case.stray.get(at, {}).items():
                subs.setdefault(seat, []).append(extra)
            todo = [{"remove": seat} for seat in case.removals.get(at, ())]
            todo.append({"end": True} if case.end_at == at else {"submissions": subs})
        for one in todo:
            state = GameState.from_dict(json.loads(json.dumps(stored)))
            if state.over:  # a removal may end the game
                break
            line = {k: ({str(s): v for s, v in one[k].items()} if k == "submissions" else one[k]) for k in one}
            yield {"round": state.round, "phase": state.phase.value, **line}
            out = _run(state, one, case.seed)
            for e in out.events:
                yield {"event": e.to_dict()}
            for r in out.rolls:
                yield {"roll": list(r)}
            stored = out.state.to_dict()
    yield {"final": {k: v for k, v in stored.items() if k != "players"}}
    for p in stored["players"]:
        yield {"player": p}


def text(records: Iterator[dict[str, Any]]) -> str:
    """One JSON object per line, keys sorted, so a diff of the file reads line by line."""
    return "".join(json.dumps(r, sort_keys=True, ensure_ascii=False) + "\n" for r in records)


def stored_steps(text: str) -> list[Step]:
    """The steps as a case's data file keeps them."""
    steps: list[Step] = []
    for line in text.splitlines():
        rec = json.loads(line)
        if "submissions" in rec:
            steps.append({"submissions": {int(s): v for s, v in rec["submissions"].items()}})
        elif "remove" in rec:
            steps.append({"remove": rec["remove"]})
        elif "end" in rec:
            steps.append({"end": True})
    return steps
