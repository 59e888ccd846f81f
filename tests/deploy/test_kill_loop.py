"""``wolfhowl run`` killed with SIGKILL at moments drawn from a seed over a whole game and
started again each time (:mod:`tests.deploy.kill_loop`; a few kills here, a hundred in the
long run documented in docs/operations.md)."""

from __future__ import annotations

from tests.deploy.kill_loop import run_kill_loop


async def test_a_game_survives_sigkill_at_random_moments() -> None:
    report = await run_kill_loop(kills=6, seed=7, every=25)
    assert report.kills == 6 and report.starts == 7
    assert report.over, report
    assert report.problems == [], report.problems
    assert report.messages > 20
