"""The monkey (:mod:`tests.e2e.monkey`): for a few seeds, a table of 6–9 people, its
moderator, a stranger and a player of another game do a few hundred random things a
Discord user can do; every invariant is checked after every step and at the end. A
finding names the seed, the step and the move, so it replays: ``run_monkey(seed, STEPS)``.

Seeds are kept once they found something (the bug then has its own small test too)."""

from __future__ import annotations

import pytest

from tests.e2e.conftest import run
from tests.e2e.monkey import Outcome, run_monkey

STEPS = 300
SEEDS = [38, 21, 19, 104]
# 38: a muted player who had left the server stayed muted after the end
# 104: quiet dead switched off mid-game left the departed in the dead channel, even after the end


# With chaos: restarts, crashes while the news goes out, and the clock skipped to the next
# deadline, between the steps; on SQLite and on PostgreSQL.
CHAOS_SEEDS = [(2, "sqlite"), (3, "postgresql")]
RUNS = [(s, False, "sqlite") for s in SEEDS] + [(s, True, db) for s, db in CHAOS_SEEDS]


@pytest.fixture(
    scope="module", params=RUNS, ids=[f"seed{s}{'-chaos' if c else ''}{'-pg' if db != 'sqlite' else ''}" for s, c, db in RUNS]
)
def outcome(request: pytest.FixtureRequest) -> Outcome:
    seed, chaos, db = request.param
    url = request.getfixturevalue("e2e_pg_url") if db == "postgresql" else None
    return run(run_monkey(seed, STEPS, chaos=chaos, database_url=url))


def test_no_invariant_is_broken(outcome: Outcome) -> None:
    assert outcome.findings == [], "\n".join(outcome.findings)


def test_the_game_was_played_and_ended(outcome: Outcome) -> None:
    assert outcome.over and outcome.end_reason
    assert outcome.rounds >= 2, outcome
    # Commands, the order panel's buttons and menus, and the grail number (by the form or
    # the command) were all used, and many things were refused (the monkey is mostly
    # wrong) but not all.
    kinds = outcome.by_kind
    assert kinds.get("/mod advance", 0) >= 10 and kinds.get("modal", 0) + kinds.get("/grail", 0) >= 1, kinds
    assert any(k in kinds for k in ("atk", "vote", "skill", "idp")), kinds
    assert 0.2 * outcome.steps < outcome.refused < outcome.steps


def test_chaos_shook_the_bot_in_every_way_and_only_with_chaos(outcome: Outcome) -> None:
    if not outcome.chaos:
        assert outcome.upheavals == {}
        return
    assert set(outcome.upheavals) == {"restart", "crash", "time"}, outcome.upheavals
    assert outcome.upheavals["crash"] >= 3


def test_a_seed_replays_the_same_game() -> None:
    first, again = (run(run_monkey(3, 40, trace=True)) for _ in range(2))
    assert first.trace and first.trace == again.trace
