"""Bot processes and their liveness: one row per run (``processes``), read by the
outbox's leases and by ``wolfhowl health`` (bot.features.ops.health).

A process registers itself at start-up under a name (the host and its shards unless
configured; one live process per name), with its host and shards, and beats a heartbeat
every ``HEARTBEAT`` seconds while it runs; a beat while it is connected to Discord also
renews ``connected_at``, which is what the health check reads. A lease (``outbox.leased_by``) names its holder, so a lease is free at once, not when it
runs out, when its holder:

* stopped (a clean stop marks it so), or
* was replaced: a process that registers under a name marks the older ones of that name
  stopped (a restart, after a crash that could not say so), or
* is silent: its heartbeat is older than ``STALE`` seconds (a crash on another host,
  seen by any other process).

Two live processes never hold the same lease: a claim skips the rows leased to a live
process other than the caller, as before."""

from __future__ import annotations

import os
import socket
from datetime import datetime, timedelta

from bot.db.models import Process
from bot.db.repos import processes as processes_repo
from bot.db.session import Database

HEARTBEAT = 10.0  # seconds between beats
STALE = 3 * HEARTBEAT  # a heartbeat older than this: the process is gone
KEPT = timedelta(days=1)  # how long a stopped process's row is kept


def this_host() -> str:
    """This machine's (or container's) hostname: a process's ``host``, and the one
    ``wolfhowl health`` looks for unless told to accept any."""
    return socket.gethostname()


def default_name(shards: str = "") -> str:
    """The name a process gets unless configured: its host, and the shards it serves."""
    return f"{this_host()}{':' + shards if shards else ''}"[:200]


async def register(db: Database, name: str, *, shards: str = "", host: str | None = None) -> int:
    """Record this process as running under ``name`` on ``host`` (this one unless given),
    serving ``shards`` ("" unsharded); the older processes of that name are over (one
    live process per name), their leases free at once. Its id."""
    now = db.now()
    async with db.transaction() as s:
        await processes_repo.stop_named(s, name, now)
        await processes_repo.delete_stopped_before(s, now - KEPT)  # long over: nothing refers to them
        row = Process(
            name=name[:200], host=(host or this_host())[:255], shards=shards[:255], pid=os.getpid(), started_at=now, heartbeat_at=now
        )
        s.add(row)
        await s.flush()
        return int(row.id)


async def heartbeat(db: Database, process_id: int, connected_since: datetime | None = None) -> bool:
    """This process is alive, and connected to Discord since ``connected_since`` (None:
    not connected now). False when it was marked over meanwhile (a process of the same
    name started: a misconfiguration, two processes under one name)."""
    now = db.now()
    async with db.transaction() as s:
        return await processes_repo.beat(s, process_id, now, connected_since)


async def stopped(db: Database, process_id: int) -> None:
    """This process closes: it is over, and what it still holds is due at once."""
    now = db.now()
    async with db.transaction() as s:
        await processes_repo.stop(s, process_id, now)


async def live_processes(db: Database) -> list[tuple[int, str, datetime]]:
    """The processes running now as the database sees them: id, name, last heartbeat."""
    now = db.now()
    async with db.read() as s:
        return await processes_repo.live(s, now, timedelta(seconds=STALE))
