"""`wolfhowl health`: one line, exit 0 when the bot's heartbeat while connected to
Discord is recent, the database answers and no outbox message is overdue; exit 1 naming
what is wrong otherwise (a stopped database, a stale heartbeat, a process running but not
connected, a stuck outbox)."""

from __future__ import annotations

from argparse import Namespace
from datetime import datetime, timedelta
from pathlib import Path

import pytest

from bot.cli.health import run
from bot.core import processes
from bot.core.processes import this_host
from bot.db.models import OutboxMessage
from bot.db.session import Database, utcnow
from tests.service.helpers import within


def health(url: str | None, **options: object) -> int:
    args = {"config": None, "url": url, "any_host": False, "stale": 120.0, "stuck": 300.0, "timeout": 10.0, **options}
    return run(Namespace(**args))


async def beat(db: Database, connected_since: datetime | None, *, host: str | None = None, shards: str = "") -> None:
    """A bot process on ``host`` (this one unless given) running ``shards`` beats now,
    connected to Discord since ``connected_since`` (None: not connected)."""
    name = f"{host or this_host()}:{shards}" if shards else (host or this_host())
    process_id = await processes.register(db, name, host=host, shards=shards)
    await processes.heartbeat(db, process_id, connected_since)


def one_line(capsys: pytest.CaptureFixture[str]) -> str:
    captured = capsys.readouterr()
    out = captured.out
    assert captured.err == "" and out.count("\n") == 1, captured
    return out.strip()


def test_a_bot_connected_just_now_is_healthy(fresh: str, capsys: pytest.CaptureFixture[str]) -> None:
    within(fresh, lambda db: beat(db, utcnow() - timedelta(hours=1)))
    assert health(fresh) == 0
    assert one_line(capsys).startswith("healthy: connected to Discord (heartbeat ")


def test_no_heartbeat_or_a_stale_one_is_unhealthy(fresh: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert health(fresh) == 1
    assert one_line(capsys) == f"unhealthy: no heartbeat from the bot on {this_host()} (not connected to Discord since it started)"
    within(fresh, lambda db: beat(db, db.now()), ago=timedelta(minutes=10))
    assert health(fresh) == 1
    assert one_line(capsys) == "unhealthy: not connected to Discord: last heartbeat 10 min ago"
    assert health(fresh, stale=3600.0) == 0  # within a looser limit
    capsys.readouterr()


def test_a_process_running_but_not_connected_is_unhealthy(fresh: str, capsys: pytest.CaptureFixture[str]) -> None:
    # Its beats keep its leases (bot.core.processes); they say nothing of Discord.
    within(fresh, lambda db: beat(db, None))
    assert health(fresh) == 1
    assert one_line(capsys) == f"unhealthy: no heartbeat from the bot on {this_host()} (not connected to Discord since it started)"


def test_a_cleanly_stopped_bot_goes_stale_like_a_dead_one(fresh: str, capsys: pytest.CaptureFixture[str]) -> None:
    async def stopped(db: Database) -> None:
        await beat(db, db.now())
        for process_id, *_ in await processes.live_processes(db):
            await processes.stopped(db, process_id)

    within(fresh, stopped, ago=timedelta(minutes=7))
    assert health(fresh) == 1
    assert one_line(capsys) == "unhealthy: not connected to Discord: last heartbeat 7 min ago"


def test_another_hosts_heartbeat_counts_only_with_any_host(fresh: str, capsys: pytest.CaptureFixture[str]) -> None:
    within(fresh, lambda db: beat(db, utcnow(), host="another-container"))
    assert health(fresh) == 1
    capsys.readouterr()
    assert health(fresh, any_host=True) == 0
    capsys.readouterr()


def test_a_stuck_outbox_is_unhealthy(fresh: str, capsys: pytest.CaptureFixture[str]) -> None:
    async def stuck(db: Database) -> None:
        now = db.now()
        await beat(db, now)
        async with db.transaction() as s:
            for n, due in enumerate((now - timedelta(minutes=12), now - timedelta(minutes=7), now - timedelta(minutes=1))):
                s.add(OutboxMessage(
                    idempotency_key=f"stuck:{n}", game_id=None, recipient_kind="channel", recipient_id=1, locale="en-US",
                    payload={"template": "x"}, status="pending", attempts=0, next_attempt_at=due, created_at=due,
                ))  # fmt: skip

    within(fresh, stuck)
    assert health(fresh) == 1
    # The two due for over 5 minutes; the one due a minute ago is delivery's usual pace.
    assert one_line(capsys) == "unhealthy: outbox stuck: 2 messages due for over 12 min"


def test_a_stopped_database_is_unhealthy(capsys: pytest.CaptureFixture[str]) -> None:
    # Nothing listens on port 9: what a stopped PostgreSQL server answers.
    assert health("postgresql://wolf:hunter2@127.0.0.1:9/wolfhowl") == 1
    line = one_line(capsys)
    assert line.startswith("unhealthy: the database cannot be used (PostgreSQL database wolfhowl on 127.0.0.1:9 as wolf): ")
    assert "hunter2" not in line


def test_a_missing_sqlite_file_is_unhealthy_and_not_created(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert health(f"sqlite:///{tmp_path}/gone.sqlite3") == 1
    assert one_line(capsys) == f"unhealthy: no database at SQLite file {tmp_path.resolve() / 'gone.sqlite3'} (`wolfhowl db upgrade` creates it)"
    assert not (tmp_path / "gone.sqlite3").exists()


def test_a_bad_configuration_is_unhealthy_in_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("WOLFHOWL_CONFIG", "")  # recorded, so that what --config sets is undone
    monkeypatch.delenv("WOLFHOWL_CONFIG")
    assert health(None, config=str(tmp_path / "missing.toml")) == 1
    assert "(--config) does not exist" in one_line(capsys)


def test_a_sharded_process_beats_under_its_host_and_shards(fresh: str, capsys: pytest.CaptureFixture[str]) -> None:
    from sqlalchemy import select

    from bot.db.models import Process

    rows: list[tuple[str, str, str]] = []

    async def beats(db: Database) -> None:
        await beat(db, utcnow(), shards="0-1/4")
        await beat(db, utcnow(), host=f"{this_host()}x", shards="2-3/4")  # another host, whose name begins alike
        async with db.read() as s:
            rows.extend(sorted(tuple(r) for r in (await s.execute(select(Process.name, Process.host, Process.shards))).all()))

    within(fresh, beats)
    assert rows == sorted([(f"{this_host()}:0-1/4", this_host(), "0-1/4"), (f"{this_host()}x:2-3/4", f"{this_host()}x", "2-3/4")])
    assert health(fresh) == 0  # this host's process, with its shards
    capsys.readouterr()


def test_a_host_whose_name_only_begins_alike_is_another_host(fresh: str, capsys: pytest.CaptureFixture[str]) -> None:
    within(fresh, lambda db: beat(db, utcnow(), host=f"{this_host()}-2", shards="0/2"))
    assert health(fresh) == 1
    capsys.readouterr()
