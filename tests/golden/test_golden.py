"""Recorded games come out of the engine exactly as recorded: every event with its
audience and data, every roll, the final state. See ``tests/golden/cases.py``."""

from __future__ import annotations

import json

import pytest

from tests.golden.cases import CASES, Case, replay, stored_steps, text


def first_difference(kept: list[str], fresh: list[str]) -> str:
    """Where a replay leaves its record, with the phase it was in."""
    phase = "the header"
    for n, (a, b) in enumerate(zip(kept, fresh, strict=False), start=1):
        rec = json.loads(a)
        if "submissions" in rec:
            phase = f"round {rec['round']} {rec['phase']}"
        if a != b:
            return f"line {n} ({phase}):\n  recorded: {a}\n  replayed: {b}"
    return f"the record has {len(kept)} lines, the replay {len(fresh)}"


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_replay_matches_the_record(case: Case) -> None:
    kept = case.path.read_text(encoding="utf-8")
    fresh = text(replay(case, stored_steps(kept)))
    if fresh != kept:
        pytest.fail(
            f"{case.name} no longer replays as recorded, first at "
            f"{first_difference(kept.splitlines(), fresh.splitlines())}\n"
            "If the rules change is meant, record again (python -m tests.golden.record) "
            "and check the diff of tests/golden/data.",
            pytrace=False,
        )


def test_the_records_are_whole_games() -> None:
    for case in CASES:
        lines = [json.loads(line) for line in case.path.read_text(encoding="utf-8").splitlines()]
        final = next(r["final"] for r in lines if "final" in r)
        assert final["phase"] == "over", case.name
        assert final["winners"], case.name
        assert sum(1 for r in lines if "player" in r) == case.players


def test_the_silent_table_shows_what_silence_does() -> None:
    case = next(c for c in CASES if c.name == "table10-silent")
    kinds = [json.loads(line)["event"]["kind"] for line in case.path.read_text(encoding="utf-8").splitlines()
             if line.startswith('{"event"')]
    assert "GrailUnclaimed" in kinds
    assert "SubmissionDropped" in kinds


def test_the_moderated_table_shows_removals_and_an_early_end() -> None:
    case = next(c for c in CASES if c.name == "table12-moderated")
    lines = [json.loads(line) for line in case.path.read_text(encoding="utf-8").splitlines()]
    assert [r["remove"] for r in lines if "remove" in r] == [5, 9]
    kinds = [r["event"]["kind"] for r in lines if "event" in r]
    assert kinds.count("YouWereRemoved") == 2 and "AttackFizzled" in kinds
    assert next(r["final"] for r in lines if "final" in r)["end_reason"] == "stopped"
