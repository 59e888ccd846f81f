"""`wolfhowl run` as an operator runs it: a separate process, settings from the
environment, migrations at start, pointed at the local emulator; it answers a command and
stops cleanly on SIGTERM (what `docker stop`, systemd and Kubernetes send) or SIGINT."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from pathlib import Path

import pytest

from bot.sandbox import Emulator
from tests.bot.conftest import reply_text

ROOT = Path(__file__).resolve().parents[2]


async def until(condition, what: str, timeout: float = 60.0) -> None:
    """Wait for ``condition()`` to hold (checked often), failing with ``what`` after ``timeout``."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not condition():
        if loop.time() > end:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.05)


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
async def test_the_bot_process_serves_then_stops_cleanly_on_a_signal(tmp_path: Path, sig: signal.Signals):
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
            "WOLFHOWL_CONFIG": str(tmp_path / "absent.toml"),
        }
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot.cli", "run", cwd=ROOT, env=env,
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
        )  # fmt: skip
        try:
            await until(lambda: any(c.identified for c in emu.connections) or proc.returncode is not None, "READY")
            assert proc.returncode is None, (await proc.stderr.read()).decode()  # type: ignore[union-attr]
            await until(lambda: len(emu.registered_commands()) > 0, "the commands to be registered")
            answer = await emu.slash(alice, "help", guild=guild)
            await asyncio.wait_for(answer.wait(), 30)
            assert "狼嚎酒馆" in reply_text(answer)
            proc.send_signal(sig)
            code = await asyncio.wait_for(proc.wait(), 30)
        finally:
            if proc.returncode is None:
                proc.kill()
                await proc.wait()
        log = (await proc.stderr.read()).decode()  # type: ignore[union-attr]
        assert code == 0, log
        assert f"{sig.name} received: closing" in log
        assert "Traceback" not in log
        assert emu.token not in log
        assert (tmp_path / "bot.sqlite3").exists()  # migrated at start
        assert emu.server_errors == []
