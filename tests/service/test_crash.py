"""Crash test: a real worker process (tests/service/crash_worker.py) is killed with
SIGKILL at chosen points — before a COMMIT, between transactions, after a message went
out but before it was marked — and at random moments, then restarted until the game is
over. The database (state, log, submissions, outbox) and what the receiver got must be
exactly what an uncrashed run produced."""

from __future__ import annotations

import asyncio
import json
import random
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select

from bot.db.migrate import upgrade
from bot.db.models import Game, GamePlayer, GameStep, OutboxMessage, Submission
from bot.db.session import Database
from tests.conftest import drop_pg_database, scratch_pg_database

ROOT = Path(__file__).resolve().parents[2]
MAX_CRASHES = 8
RUN_TIMEOUT = 300


@pytest.fixture(params=["sqlite", "postgresql"])
def fresh_urls(request: pytest.FixtureRequest, tmp_path: Path):
    """Two empty migrated databases: one for the reference run, one for the crashed run."""
    if request.param == "sqlite":
        urls = [f"sqlite+aiosqlite:///{tmp_path / f'{name}.sqlite3'}" for name in ("ref", "crash")]
        for url in urls:
            asyncio.run(upgrade(url))
        yield urls
        return
    made = [scratch_pg_database() for _ in range(2)]
    try:
        for _, url in made:
            asyncio.run(upgrade(url))
        yield [url for _, url in made]
    finally:
        for admin, url in made:
            drop_pg_database(admin, url)


def run_worker(url: str, received: Path, restart: int, extra: list[str], kill_after: float | None) -> int:
    cmd = [sys.executable, "-m", "tests.service.crash_worker", url, str(received), str(restart), *extra]
    proc = subprocess.Popen(cmd, cwd=ROOT, stderr=subprocess.PIPE)
    started = time.monotonic()
    deadline = started + RUN_TIMEOUT
    while proc.poll() is None:
        if kill_after is not None and time.monotonic() - started >= kill_after:
            proc.send_signal(signal.SIGKILL)
        if time.monotonic() > deadline:
            proc.kill()
            raise AssertionError("the worker hung")
        time.sleep(0.02)
    err = proc.stderr.read().decode() if proc.stderr else ""
    proc.wait()
    if proc.returncode not in (0, -signal.SIGKILL):
        raise AssertionError(f"worker failed ({proc.returncode}):\n{err}")
    return proc.returncode


async def snapshot(url: str) -> dict[str, Any]:
    """Everything that must not differ, without ids, attempt counts and delivery times."""
    db = Database(url)
    try:
        async with db.read() as s:
            game = (await s.execute(select(Game))).scalar_one()
            steps = (await s.execute(select(GameStep).order_by(GameStep.seq))).scalars().all()
            subs = (await s.execute(select(Submission))).scalars().all()
            players = (await s.execute(select(GamePlayer))).scalars().all()
            outbox = (await s.execute(select(OutboxMessage))).scalars().all()
            return {
                "game": [game.status, game.round, game.phase, game.state, game.version, game.notice_seq, game.end_reason],
                "players": sorted((p.user_id, p.seat, p.status, p.active_user_id) for p in players),
                "steps": [[t.seq, t.kind, t.round, t.phase, t.inputs, t.events, t.rolls, t.state] for t in steps],
                "submissions": sorted(
                    json.dumps([x.round, x.phase, x.seat, x.kind, x.payload, x.revision, x.user_id]) for x in subs
                ),
                "outbox": sorted(
                    json.dumps([m.idempotency_key, m.recipient_kind, m.recipient_id, m.payload, m.status], sort_keys=True)
                    for m in outbox
                ),
            }
    finally:
        await db.dispose()


def received(path: Path) -> tuple[list[str], int]:
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    firsts = [json.dumps({k: v for k, v in m.items() if k != "repeat"}, sort_keys=True) for m in lines if not m["repeat"]]
    return firsts, sum(1 for m in lines if m["repeat"])


def test_killed_and_restarted_worker_ends_exactly_as_an_uncrashed_one(fresh_urls: list[str], tmp_path: Path) -> None:
    ref_url, crash_url = fresh_urls
    ref_file, crash_file = tmp_path / "ref.jsonl", tmp_path / "crash.jsonl"
    assert run_worker(ref_url, ref_file, 0, [], None) == 0

    rng = random.Random(20260301)
    crashes = 0
    # Two fixed early kills (in the lobby, around the start), then random ones.
    plans = [["--kill-at-commit", "3"], ["--kill-at-begin", "25"]]
    for restart in range(1, 40):
        if crashes < len(plans):
            extra, timer = plans[crashes], None
        elif crashes < MAX_CRASHES:
            kind = rng.choice(["--kill-at-commit", "--kill-at-begin", "--kill-after-send", "timer"])
            extra = [] if kind == "timer" else [kind, str(rng.randint(1, 40 if kind != "--kill-after-send" else 12))]
            timer = rng.uniform(1.5, 4.0) if kind == "timer" else None
        else:
            extra, timer = [], None
        code = run_worker(crash_url, crash_file, restart, extra, timer)
        how = " ".join(extra) if extra else (f"timer {timer:.1f}s" if timer else "no kill")
        print(f"run {restart}: {how} -> exit {code}")
        if code == 0:
            break
        crashes += 1
    else:
        raise AssertionError("the game never finished")
    assert crashes >= 5, "too few crashes happened to test anything"

    ref, crashed = asyncio.run(snapshot(ref_url)), asyncio.run(snapshot(crash_url))
    for part in ref:
        assert crashed[part] == ref[part], f"{part} differs after {crashes} crashes"
    assert ref["game"][0] == "over"
    ref_msgs, _ = received(ref_file)
    crash_msgs, repeats = received(crash_file)
    assert crash_msgs == ref_msgs
    print(
        f"\n{crashes} crashes over {len(ref['steps'])} steps: {len(crash_msgs)} messages delivered"
        f" once each, {repeats} repeats dropped by key"
    )
