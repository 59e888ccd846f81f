"""The monkey (:mod:`tests.e2e.monkey`) with chaos: between its random steps the bot is
restarted, crashed while the news goes out, and its clock skipped to the next deadline;
on SQLite and on PostgreSQL. Every invariant is checked after every step and at the end,
as without chaos (test_monkey.py), and more: whatever a crash found stored is still
there, Discord's side is what the state says, and no message was sent twice."""

from __future__ import annotations

import pytest

from tests.e2e.conftest import run
from tests.e2e.monkey import STEPS, Outcome, played_and_ended, run_monkey

CHAOS_SEEDS = [(2, "sqlite"), (3, "postgresql")]


@pytest.fixture(scope="module", params=CHAOS_SEEDS, ids=[f"seed{s}-chaos{'-pg' if db != 'sqlite' else ''}" for s, db in CHAOS_SEEDS])
def outcome(request: pytest.FixtureRequest) -> Outcome:
    seed, db = request.param
    url = request.getfixturevalue("e2e_pg_url") if db == "postgresql" else None
    return run(run_monkey(seed, STEPS, chaos=True, database_url=url))


def test_no_invariant_is_broken(outcome: Outcome) -> None:
    assert outcome.findings == [], "\n".join(outcome.findings)


def test_the_game_was_played_and_ended(outcome: Outcome) -> None:
    played_and_ended(outcome)


def test_chaos_shook_the_bot_in_every_way(outcome: Outcome) -> None:
    assert outcome.chaos
    assert set(outcome.upheavals) == {"restart", "crash", "time"}, outcome.upheavals
    assert outcome.upheavals["crash"] >= 3
