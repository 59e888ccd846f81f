"""The bot in its own process, for the benches that measure the bot alone.

:func:`spawn_bot` starts a child process (``python bench/split_bot.py``) that runs the
unmodified :class:`bot.discord.client.WolfBot` against an emulator over its real HTTP and
websocket ports, on a given database, and returns a :class:`RemoteBot`, the harness's
handle on it. :class:`SplitTavern` is a :class:`bot.sandbox.play_table.Tavern` whose bot
is such a process (``bench/bot_load.py --split-process``, ``bench/scale.py``);
``bench/deadline_burst.py`` spawns one beside its own emulator. The emulator and the
scripted players stay in the harness process, so the child's CPU time and memory are the
bot's own, and the bot never waits behind the harness for an event loop.

The harness talks to the child over its stdin, one command a line: ``skip SECONDS``
(move the bot's game clock on, then wake its scheduler), ``wake`` (wake its outbox
dispatcher), ``mark`` (note the CPU time, SQL statements, units of work and resident memory so far and
answer them as one JSON line: the figures between two marks are a measured stretch; with
``--profile FILE`` each odd mark starts cProfile and each even one stops it, and the statistics of every stretch so far go
to FILE), ``resynced`` (answer ``resynced`` once the bot's start-up check of the live
games has finished), ``stop`` (close the bot; the child then prints its own resource
usage, with the marks, as one JSON line and exits). The child prints ``ready`` once the
bot is connected.

Two logs for finding where the time goes, each named by an environment variable:
``WOLFHOWL_BENCH_SQL_LOG`` (every SQL statement the bot sends, one a line, and a
comment line where each unit of work begins, reading or writing, and ends) and
``WOLFHOWL_BENCH_WRITER_LOG`` (one line per writing unit of work: when it asked, how long
it waited for SQLite's one writer, how long it held it, how long of that it waited for a
pooled connection, how many connections were lent out then, and its callers).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import logging
import os
import resource
import sys
import threading
import time
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.sandbox.play_table import GameClock, Tavern, seeded_games


class RemoteBot:
    """The harness's handle on the bot process: what the benchmarks ask of ``tavern.bot``.
    ``started_s``: from the process's start to the bot's ``ready`` (imports included)."""

    def __init__(self, proc: asyncio.subprocess.Process, started_s: float) -> None:
        self.proc = proc
        self.started_s = started_s
        self.usage: dict[str, Any] = {}

    async def _say(self, line: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(f"{line}\n".encode())
        await self.proc.stdin.drain()

    async def _answer(self, timeout: float) -> bytes:
        assert self.proc.stdout is not None
        return (await asyncio.wait_for(self.proc.stdout.readline(), timeout)).strip()

    def wake_dispatcher(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(b"wake\n")

    async def mark(self) -> dict[str, Any]:
        """The bot's CPU time, SQL statements and memory so far (see the module docstring)."""
        await self._say("mark")
        return dict(json.loads(await self._answer(60)))

    async def resynced(self, timeout: float = 3600) -> None:
        """Wait until the bot's start-up check of the live games has finished."""
        await self._say("resynced")
        answer = await self._answer(timeout)
        if answer != b"resynced":
            raise RuntimeError(f"the bot process answered {answer!r}")

    async def skip(self, seconds: float) -> None:
        """Move the bot's clock on by ``seconds`` and wake its scheduler."""
        await self._say(f"skip {seconds}")

    async def stop(self) -> None:
        await self._say("stop")
        assert self.proc.stdout is not None
        out = await asyncio.wait_for(self.proc.stdout.read(), 60)
        await self.proc.wait()
        lines = out.decode().strip().splitlines()
        if lines:
            self.usage = json.loads(lines[-1])


async def spawn_bot(
    api_url: str,
    gateway_url: str,
    database_url: str,
    config: Any,
    *,
    seed: str | None = None,
    profile: str | None = None,
    timeout: float = 60.0,
) -> RemoteBot:
    """Start the bot process with ``config`` (a :class:`bot.discord.config.DiscordConfig`)
    on ``database_url`` against the emulator at ``api_url``/``gateway_url``; returns once
    it is ready."""
    cmd = [sys.executable, __file__, "--api", api_url, "--gateway", gateway_url,
           "--database", database_url, "--config", json.dumps(config.model_dump(mode="json"))]  # fmt: skip
    if seed is not None:
        cmd += ["--seed", seed]
    if profile is not None:
        cmd += ["--profile", profile]
    t0 = time.perf_counter()
    proc = await asyncio.create_subprocess_exec(*cmd, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE)
    assert proc.stdout is not None
    line = await asyncio.wait_for(proc.stdout.readline(), timeout)
    if line.strip() != b"ready":
        raise RuntimeError(f"the bot process did not start ({line!r})")
    return RemoteBot(proc, time.perf_counter() - t0)


@contextlib.contextmanager
def collector_off() -> Iterator[None]:
    """No pass of the garbage collector in the harness while a stretch is measured: a full
    one walks the emulator's whole world (every member, channel and message) and stopped
    the harness for half a second at 1,000 games, in the middle of a burst. The harness is
    not what is measured; the bot's process keeps its collector."""
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


class SharedClock(GameClock):
    """The harness's copy of the bot process's :class:`GameClock`: both read real time
    from about the same start, and :meth:`skip` moves both (the bot's by a ``skip``
    line), so what the harness reads of the bot's deadlines (``Practiser`` waiting out a
    Dusk's grace) is on the bot's clock."""

    def __init__(self, speed: float = 1.0) -> None:
        super().__init__(speed)
        self.remote: RemoteBot | None = None

    def skip(self, seconds: float) -> datetime:
        if self.remote is not None:
            assert self.remote.proc.stdin is not None
            self.remote.proc.stdin.write(f"skip {seconds}\n".encode())
        return super().skip(seconds)


class SplitTavern(Tavern):
    """A Tavern whose bot runs in a child process (see the module docstring); with a
    :class:`SharedClock` as ``clock``, the harness reads the bot's time and moves it."""

    def __init__(self, *, seed: str | None = None, profile: str | None = None, **kwargs: Any) -> None:
        super().__init__(seed=seed, **kwargs)
        self.remote: RemoteBot | None = None
        self.profile = profile

    async def start_bot(self, timeout: float = 60.0) -> None:
        from bot.db.session import Database

        assert self.remote is None, "the bot is already running"
        self.remote = await spawn_bot(
            self.emu.api_url, self.emu.gateway_url, self.database_url, self.config(),
            seed=self.seed, profile=self.profile, timeout=timeout,
        )  # fmt: skip
        self.bot = self.remote
        if isinstance(self.clock, SharedClock):
            self.clock.remote = self.remote
        # The harness's own handle, to see when the outbox has drained.
        self.db = Database(self.database_url, clock=self.clock) if self.clock else Database(self.database_url)
        self.starts += 1

    async def stop_bot(self) -> None:
        if self.remote is None:
            return
        remote, db = self.remote, self.db
        self.remote = self.bot = self.db = None
        if isinstance(self.clock, SharedClock):
            self.clock.remote = None
        try:
            await remote.stop()
        finally:
            self.bot_usage = remote.usage
            if db is not None:
                await db.dispose()


# -- the bot process ----------------------------------------------------------------


def count_statements(db: Any) -> list[int]:
    """A three-item list counting from now on: the SQL statements ``db`` sends (BEGIN
    too), and the writing and the reading units of work begun."""
    from sqlalchemy import event

    count = [0, 0, 0]
    log = open(os.environ["WOLFHOWL_BENCH_SQL_LOG"], "w") if os.environ.get("WOLFHOWL_BENCH_SQL_LOG") else None  # noqa: SIM115

    def counted(statement: str) -> None:
        count[0] += 1
        if log is not None:
            log.write(" ".join(statement.split())[:150] + "\n")

    @event.listens_for(db.engine.sync_engine, "before_cursor_execute")
    def _executed(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        if not statement.startswith("BEGIN"):
            counted(statement)

    @event.listens_for(db.engine.sync_engine, "begin")
    def _unit_begins(conn: Any) -> None:
        options = conn.get_execution_options()  # a read: in autocommit (bot.db.session)
        mode = options.get("sqlite_begin", "IMMEDIATE")
        reading = mode is None or options.get("isolation_level") == "AUTOCOMMIT"
        count[2 if reading else 1] += 1
        if log is not None:
            log.write(f"-- a {'reading' if reading else 'writing'} unit begins\n")
        if db.dialect == "sqlite" and not reading:  # its BEGIN is ours (bot.db.session), not counted above
            counted(f"BEGIN {mode}")

    if log is not None:

        @event.listens_for(db.engine.sync_engine, "commit")
        @event.listens_for(db.engine.sync_engine, "rollback")
        def _unit_ends(conn: Any) -> None:
            log.write("-- it ends\n")

    return count


def log_writers(db: Any, path: str) -> None:
    """Write a line per writing unit of work of ``db`` to ``path``: when it asked, how long
    it waited for the writer, how long it held it (``conn``: of which waiting for a pooled
    connection and its BEGIN; ``pooled``: the connections lent out as it asked for one),
    and who asked (the calling functions). The unit of work asks for its connection at
    once, which it would have done at its first statement."""
    import traceback

    out = open(path, "w")  # noqa: SIM115
    transaction = db.transaction

    @contextlib.asynccontextmanager
    async def timed() -> Any:
        asked = time.perf_counter()
        who = ">".join(f.name for f in traceback.extract_stack(limit=6)[:-2])
        held, conn, busy = None, 0.0, -1
        try:
            async with transaction() as session:
                held = time.perf_counter()
                busy = db.engine.pool.checkedout()
                await session.connection()
                conn = time.perf_counter() - held
                yield session
        finally:
            end = time.perf_counter()
            wait = (held or end) - asked
            out.write(f"{asked:.3f} wait={wait * 1000:.1f}ms hold={(end - (held or end)) * 1000:.1f}ms conn={conn * 1000:.1f}ms pooled={busy} {who}\n")
            out.flush()

    db.transaction = timed


async def serve(args: argparse.Namespace) -> dict[str, Any]:
    from bot.db.session import Database
    from bot.discord.client import WolfBot
    from bot.discord.config import DiscordConfig
    from bot.discord.endpoints import point_discord_to
    from discord_emulator.ready import start_until_ready

    point_discord_to(args.api, args.gateway)
    config = DiscordConfig(**json.loads(args.config))
    clock = GameClock(1.0)
    cpu0 = time.process_time()
    with seeded_games(args.seed):
        db = Database(args.database, clock=clock)
        statements = count_statements(db)
        if os.environ.get("WOLFHOWL_BENCH_WRITER_LOG"):
            log_writers(db, os.environ["WOLFHOWL_BENCH_WRITER_LOG"])
        bot = WolfBot(config, db=db)
        t0 = time.perf_counter()
        task = await start_until_ready(bot, config.token, timeout=900)
        ready_s = time.perf_counter() - t0
        print("ready", flush=True)
        marks: list[dict[str, float]] = []
        profiler = None
        loop = asyncio.get_running_loop()
        reader = asyncio.StreamReader()
        await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
        while line := (await reader.readline()).decode().split():
            if line[0] == "skip":
                clock.skip(float(line[1]))
                bot.wake_scheduler()
            elif line[0] == "wake":
                bot.wake_dispatcher()
            elif line[0] == "mark":
                marks.append({"cpu_s": time.process_time(), "main_thread_cpu_s": time.thread_time(), "threads": [t.name for t in threading.enumerate()], "statements": statements[0], "writing_units": statements[1], "reading_units": statements[2], "wall_s": time.perf_counter(), "rss_mb": rss_mb(), "peak_rss_mb": peak_rss_mb(marks)})
                print(json.dumps(marks[-1]), flush=True)
                if args.profile and len(marks) % 2 == 1:
                    if profiler is None:
                        import cProfile

                        profiler = cProfile.Profile(time.thread_time)  # CPU, not waits for a core
                    profiler.enable()
                elif profiler is not None:
                    profiler.disable()
                    profiler.dump_stats(args.profile)
            elif line[0] == "resynced":
                await resynced(bot)
                print("resynced", flush=True)
            elif line[0] == "stop":
                break
        usage = {
            "cpu_s": time.process_time() - cpu0,
            "peak_rss_mb": peak_rss_mb(marks),
            "rss_mb": rss_mb(),
            "ready_s": ready_s,
            "marks": marks,
        }
        logging.getLogger("sqlalchemy.pool").setLevel(logging.CRITICAL)
        await bot.close()
        with contextlib.suppress(Exception, asyncio.CancelledError):
            await asyncio.wait_for(task, 10)
    return usage


async def resynced(bot: Any, step: float = 0.05) -> None:
    """Until the bot's start-up check of the live games (its ``wolfhowl-resync`` task,
    started at its first ready) has finished."""
    def done() -> bool:
        checks = [t for t in bot._tasks if t.get_name() == "wolfhowl-resync"]
        return bool(checks) and all(t.done() for t in checks)

    while not done():
        await asyncio.sleep(step)


def peak_rss_mb(marks: list[dict[str, Any]]) -> float:
    """The process's highest resident memory so far (Linux), in MB: the kernel's high-water
    mark, or what a mark or now read if higher (the two are counted apart and can differ
    by a page or two)."""
    return max([resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, rss_mb(), *(m["rss_mb"] for m in marks)])


def rss_mb() -> float:
    """The process's resident memory now (Linux), in MB."""
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * resource.getpagesize() / 2**20


def run_as_deployed(main: Any, kind: str) -> Any:
    """Run the bot on the event loop ``wolfhowl run`` would (``bot.event_loop``), or on
    asyncio's in a revision from before that module, as such a revision ran."""
    try:
        from bot import event_loop
    except ImportError:
        return asyncio.run(main)
    return event_loop.run(main, kind)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--api", required=True)
    parser.add_argument("--gateway", required=True)
    parser.add_argument("--database", required=True)
    parser.add_argument("--config", required=True, help="DiscordConfig fields as JSON")
    parser.add_argument("--seed")
    parser.add_argument("--profile", help="cProfile the stretches between marks (first to second, third to fourth, ...) into this file")
    args = parser.parse_args()
    logging.basicConfig(level=logging.ERROR)
    print(json.dumps(run_as_deployed(serve(args), json.loads(args.config).get("event_loop", "auto"))), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
