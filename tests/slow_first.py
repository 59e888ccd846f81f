"""The longest test files start first, so that the workers finish together.

``dev.py test`` runs the suite on pytest-xdist with each file whole on one worker
(``--dist loadfile``) and without xdist's own reordering (``--no-loadscope-reorder``,
which would put the files with the most tests first: the long files, which hold one or
two whole games each, would start last and leave one worker running alone at the end).
A worker takes the next file when it is free, so starting with the longest ones is the
classic longest-first schedule.

``LONGEST`` lists the files that took longest in a whole run, longest first
(``python3 dev.py test --durations=0``, each file's tests summed); the other files keep
pytest's order after them. A file missing here is only scheduled later: nothing fails.
"""

from __future__ import annotations

import pytest

LONGEST = (
    "tests/service/test_crash.py",
    "tests/e2e/test_monkey_chaos.py",
    "tests/bench/test_bench_runs.py",
    "tests/deploy/test_external_bot.py",
    "tests/e2e/test_monkey.py",
    "tests/e2e/test_ai_seats.py",
    "tests/bot/test_lineups.py",
    "tests/deploy/test_kill_loop.py",
    "tests/e2e/test_house_rules_games.py",
    "tests/e2e/test_demo.py",
    "tests/e2e/test_shards.py",
    "tests/bot/test_stats_commands.py",
    "tests/security/test_seeing.py",
    "tests/service/test_forget.py",
    "tests/e2e/test_leaks.py",
    "tests/records/test_ratings.py",
    "tests/engine/test_leaks.py",
    "tests/deploy/test_image_install.py",
    "tests/bot/test_process.py",
    "tests/records/test_records.py",
    "tests/scenario/test_cli.py",
    "tests/bot/test_outbound.py",
)
RANK = {path: rank for rank, path in enumerate(LONGEST)}


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Stable sort: the listed files first, in their order; the rest as collected."""
    items.sort(key=lambda item: RANK.get(item.nodeid.split("::", 1)[0], len(LONGEST)))
