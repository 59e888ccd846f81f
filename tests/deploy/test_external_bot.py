"""``python -m bot.sandbox.external``, the check of a deployed bot (a container) against the
local Discord: here the bot is ``wolfhowl run`` in a process of its own, stopped with
SIGTERM and started again mid-game, as ``docker stop`` / ``docker start`` would."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


async def start_bot(settings: dict[str, str], folder: Path) -> asyncio.subprocess.Process:
    (folder / "config.toml").write_text("")  # every setting from the environment
    env = {
        **os.environ,
        **settings,
        "WOLFHOWL_CONFIG": str(folder / "config.toml"),
        "WOLFHOWL_DATABASE_URL": f"sqlite+aiosqlite:///{folder / 'bot.sqlite3'}",
    }
    return await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot.cli", "run", cwd=ROOT, env=env,
        stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.DEVNULL,
    )  # fmt: skip


async def stop(bot: asyncio.subprocess.Process) -> int:
    bot.send_signal(signal.SIGTERM)
    return await asyncio.wait_for(bot.wait(), 30)


async def test_a_bot_in_another_process_plays_a_whole_game_across_a_restart(tmp_path: Path) -> None:
    harness = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot.sandbox.external", "--port", "0", "--restart", "--timeout", "60",
        cwd=ROOT, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT,
    )  # fmt: skip
    assert harness.stdout is not None
    out: list[str] = []
    bots: list[asyncio.subprocess.Process] = []

    async def until(text: str) -> None:
        while not any(text in line for line in out):
            line = (await asyncio.wait_for(harness.stdout.readline(), 90)).decode()
            assert line, "".join(out)
            out.append(line)

    try:
        await until("WOLFHOWL_GATEWAY_URL=")
        settings = dict(line.strip().split("=", 1) for line in out if line.startswith("WOLFHOWL_"))
        bots.append(await start_bot(settings, tmp_path))
        await until("stop the bot now")
        assert await stop(bots[-1]) == 0
        bots.append(await start_bot(settings, tmp_path))
        await until("the bot connected again")
        out.append((await asyncio.wait_for(harness.stdout.read(), 120)).decode())
        assert await asyncio.wait_for(harness.wait(), 30) == 0, "".join(out)
        assert await stop(bots[-1]) == 0  # Discord (the harness) gone: it stops all the same
    finally:
        for process in [harness, *bots]:
            if process.returncode is None:
                process.kill()
                await process.wait()
    text = "".join(out)
    assert "character sheets delivered by DM to all 6 players" in text
    assert "the scoreboard came with its chart" in text and text.rstrip().endswith("OK")
