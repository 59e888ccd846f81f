"""`wolfhowl run` as an operator runs it: a separate process, settings from the
environment, migrations at start, pointed at the local emulator; it answers a command and
stops cleanly on SIGTERM (what `docker stop`, systemd and Kubernetes send) or SIGINT."""

from __future__ import annotations

import asyncio
import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from discord_emulator import Emulator
from tests.bot.conftest import reply_text

ROOT = Path(__file__).resolve().parents[2]



def empty_config(folder: Path) -> Path:
    """A configuration file of its own (empty: every setting from the environment), so
    that a config.toml where the tests run is not read."""
    path = folder / "config.toml"
    path.write_text("")
    return path

async def until(condition, what: str, timeout: float = 60.0) -> None:
    """Wait for ``condition()`` to hold (checked often), failing with ``what`` after ``timeout``."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not condition():
        if loop.time() > end:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.05)


def pid_namespaces() -> str | None:
    """Why a new PID namespace cannot be made here (None when it can)."""
    if not sys.platform.startswith("linux") or shutil.which("unshare") is None:
        return "no unshare(1) on this system"
    done = subprocess.run(["unshare", "--pid", "--fork", "true"], capture_output=True, text=True)
    return None if done.returncode == 0 else f"unshare --pid is not permitted here: {done.stderr.strip()}"


def signalled_pid(proc: asyncio.subprocess.Process, as_pid1: bool) -> int:
    """The bot's own process: the child of unshare(1) when it runs as PID 1 of a new
    PID namespace, as the Docker image's CMD does."""
    if not as_pid1:
        return proc.pid
    child = int(Path(f"/proc/{proc.pid}/task/{proc.pid}/children").read_text().split()[0])
    nspid = Path(f"/proc/{child}/status").read_text().split("NSpid:")[1].split("\n")[0].split()
    assert nspid[-1] == "1", nspid
    return child


@pytest.mark.parametrize(
    ("sig", "as_pid1"),
    [(signal.SIGTERM, False), (signal.SIGINT, False), (signal.SIGTERM, True)],
    ids=["SIGTERM", "SIGINT", "SIGTERM-as-PID-1"],
)
async def test_the_bot_process_serves_then_stops_cleanly_on_a_signal(tmp_path: Path, sig: signal.Signals, as_pid1: bool):
    """As PID 1 the kernel drops a signal the process has no handler for, so this is what
    `docker stop` meets in the image (CMD `wolfhowl run`)."""
    if as_pid1 and (why := pid_namespaces()):
        print(f"SKIPPED: {why}")
        pytest.skip(why)
    async with Emulator(heartbeat_interval=1.0) as emu:
        owner = emu.create_user("owner")
        guild = emu.create_guild("Wolf Howl Tavern", owner=owner, channels=("tavern",))
        alice = emu.create_user("alice", locale="zh-CN")
        emu.add_member(guild, alice)
        env = {
            **os.environ,
            "WOLFHOWL_TOKEN": emu.token,
            "WOLFHOWL_API_BASE": emu.api_url,
            "WOLFHOWL_GATEWAY_URL": emu.gateway_url,
            "WOLFHOWL_DATABASE_URL": f"sqlite+aiosqlite:///{tmp_path / 'bot.sqlite3'}",
            "WOLFHOWL_CONFIG": str(empty_config(tmp_path)),
        }
        prefix = ["unshare", "--pid", "--fork", "--kill-child"] if as_pid1 else []
        proc = await asyncio.create_subprocess_exec(
            *prefix, sys.executable, "-m", "bot.cli", "run", cwd=ROOT, env=env,
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
        )  # fmt: skip
        try:
            await until(lambda: any(c.identified for c in emu.connections) or proc.returncode is not None, "READY")
            assert proc.returncode is None, (await proc.stderr.read()).decode()  # type: ignore[union-attr]
            await until(lambda: len(emu.registered_commands()) > 0, "the commands to be registered")
            answer = await emu.slash(alice, "help", guild=guild)
            await asyncio.wait_for(answer.wait(), 30)
            assert "狼嚎酒馆" in reply_text(answer)
            os.kill(signalled_pid(proc, as_pid1), sig)
            code = await asyncio.wait_for(proc.wait(), 30)
        finally:
            if proc.returncode is None:
                proc.kill()
                await proc.wait()
        log = (await proc.stderr.read()).decode()  # type: ignore[union-attr]
        assert code == 0, log
        assert f"{sig.name} received: closing" in log
        assert "Traceback" not in log and "WARNING" not in log  # a clean start says nothing alarming
        assert emu.token not in log
        assert (tmp_path / "bot.sqlite3").exists()  # migrated at start
        # Which database, and the revisions it went from and to, said at start-up.
        assert f"database: SQLite file {(tmp_path / 'bot.sqlite3').resolve()}: upgraded from empty to " in log
        assert emu.server_errors == []


async def test_an_unreachable_database_is_said_to_be_the_database(tmp_path: Path):
    """Discord answers, the PostgreSQL server is not there: the bot says the database
    cannot be used, naming it without its password, and exits 1."""
    async with Emulator(heartbeat_interval=1.0) as emu:
        env = {
            **os.environ,
            "WOLFHOWL_TOKEN": emu.token,
            "WOLFHOWL_API_BASE": emu.api_url,
            "WOLFHOWL_GATEWAY_URL": emu.gateway_url,
            "WOLFHOWL_DATABASE_URL": "postgresql://wolf:hunter2@127.0.0.1:9/wolfhowl",
            "WOLFHOWL_CONFIG": str(empty_config(tmp_path)),
        }
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot.cli", "run", cwd=ROOT, env=env, stderr=asyncio.subprocess.PIPE,
        )  # fmt: skip
        try:
            code = await asyncio.wait_for(proc.wait(), 60)
        finally:
            if proc.returncode is None:
                proc.kill()
                await proc.wait()
        log = (await proc.stderr.read()).decode()  # type: ignore[union-attr]
    assert code == 1, log
    assert "the database cannot be used (PostgreSQL database wolfhowl on 127.0.0.1:9 as wolf)" in log, log
    assert "hunter2" not in log and "cannot connect" not in log and "Traceback" not in log


async def test_a_stop_while_discord_does_not_answer_the_login_is_clean(tmp_path: Path):
    """`docker stop` while Discord hangs at start-up: the login request in flight is cut
    short, and that is no error."""
    stalled: list[asyncio.StreamWriter] = []

    async def never_answer(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        stalled.append(writer)

    server = await asyncio.start_server(never_answer, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    env = {
        **os.environ,
        "WOLFHOWL_TOKEN": "stalled.login.token",
        "WOLFHOWL_API_BASE": f"http://127.0.0.1:{port}/api/v10",
        "WOLFHOWL_GATEWAY_URL": f"ws://127.0.0.1:{port}/",
        "WOLFHOWL_DATABASE_URL": f"sqlite+aiosqlite:///{tmp_path / 'bot.sqlite3'}",
        "WOLFHOWL_CONFIG": str(empty_config(tmp_path)),
    }
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot.cli", "run", cwd=ROOT, env=env, stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    try:
        await until(lambda: bool(stalled) or proc.returncode is not None, "the login request")
        proc.send_signal(signal.SIGTERM)
        code = await asyncio.wait_for(proc.wait(), 30)
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
        for writer in stalled:
            writer.close()
        server.close()
    log = (await proc.stderr.read()).decode()  # type: ignore[union-attr]
    assert code == 0, log
    assert "SIGTERM received: closing" in log and "stopped while not connected to Discord" in log
    assert "Traceback" not in log
