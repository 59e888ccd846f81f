"""The monkey (:mod:`tests.e2e.monkey`): for a few seeds, a table of 6–9 people, its
moderator, a stranger and a player of another game do a few hundred random things a
Discord user can do; every invariant is checked after every step and at the end. A
finding names the seed, the step and the move, so it replays: ``run_monkey(seed, STEPS)``.
The same with the bot restarted, crashed and its clock skipped: test_monkey_chaos.py
(a file of its own, so that the two run on two workers side by side).

Seeds are kept once they found something (the bug then has its own small test too)."""

from __future__ import annotations

import pytest

from tests.e2e.conftest import run
from tests.e2e.monkey import STEPS, Outcome, played_and_ended, run_monkey

SEEDS = [38, 21, 19, 104]
# 38: a muted player who had left the server stayed muted after the end
# 104: quiet dead switched off mid-game left the departed in the dead channel, even after the end


@pytest.fixture(scope="module", params=SEEDS, ids=[f"seed{s}" for s in SEEDS])
def outcome(request: pytest.FixtureRequest) -> Outcome:
    return run(run_monkey(request.param, STEPS))


def test_no_invariant_is_broken(outcome: Outcome) -> None:
    assert outcome.findings == [], "\n".join(outcome.findings)


def test_the_game_was_played_and_ended(outcome: Outcome) -> None:
    played_and_ended(outcome)


def test_without_chaos_the_bot_is_not_shaken(outcome: Outcome) -> None:
    assert not outcome.chaos and outcome.upheavals == {}


def test_a_seed_replays_the_same_game() -> None:
    first, again = (run(run_monkey(3, 40, trace=True)) for _ in range(2))
    assert first.trace and first.trace == again.trace
