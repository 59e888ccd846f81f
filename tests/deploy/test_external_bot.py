"""``python -m bot.cli.external``, the check of a deployed bot (a container) against the
local Discord: here the bot is ``wolfhowl run`` in a process of its own, stopped with
SIGTERM and started again mid-game, as ``docker stop`` / ``docker start`` would, or killed
with SIGKILL (a crash) and started again."""

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


async def play_across_a_restart(folder: Path, *, kill: bool = False) -> str:
    """The harness's game against ``wolfhowl run`` in a process of its own, stopped once
    Dusk 1 has opened (SIGTERM, or SIGKILL with ``kill``) and started again; its output."""
    harness = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot.cli.external", "--port", "0", "--restart", "--timeout", "60",
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
        bots.append(await start_bot(settings, folder))
        await until("stop the bot now")
        if kill:
            bots[-1].kill()
            assert await asyncio.wait_for(bots[-1].wait(), 30) == -signal.SIGKILL
        else:
            assert await stop(bots[-1]) == 0
        bots.append(await start_bot(settings, folder))
        await until("the bot connected again")
        out.append((await asyncio.wait_for(harness.stdout.read(), 120)).decode())
        assert await asyncio.wait_for(harness.wait(), 30) == 0, "".join(out)
        assert await stop(bots[-1]) == 0  # Discord (the harness) gone: it stops all the same
    finally:
        for process in [harness, *bots]:
            if process.returncode is None:
                process.kill()
                await process.wait()
    return "".join(out)


async def test_a_bot_in_another_process_plays_a_whole_game_across_a_restart(tmp_path: Path) -> None:
    text = await play_across_a_restart(tmp_path)
    assert "character sheets delivered by DM to all 6 players" in text
    assert "the scoreboard came with its chart" in text and text.rstrip().endswith("OK")
    assert "every player's ending delivered by DM (6)" in text


async def test_a_bot_killed_with_sigkill_mid_game_goes_on_and_its_database_adds_up(tmp_path: Path) -> None:
    """SIGKILL, not SIGTERM: nothing closes cleanly, the process row stays as it was. The
    next process (same name) takes over, the game is played to its end, every message was
    delivered once (none left waiting, no Discord message recorded for two rows), and the
    game's log replays exactly."""
    from sqlalchemy import func, select

    from bot.db.models import Game, OutboxMessage
    from bot.db.session import Database
    from bot.features.replay.export import export_game
    from bot.features.replay.verify import verify_log

    text = await play_across_a_restart(tmp_path, kill=True)
    assert text.rstrip().endswith("OK"), text
    async with Database(f"sqlite+aiosqlite:///{tmp_path / 'bot.sqlite3'}") as db, db.read() as s:
        waiting = (await s.execute(select(func.count()).where(OutboxMessage.status == "pending"))).scalar_one()
        ids = [i for i in (await s.execute(select(OutboxMessage.discord_message_id))).scalars() if i is not None]
        [game_id] = (await s.execute(select(Game.id).where(Game.status == "over"))).scalars()
    assert waiting == 0 and ids and len(ids) == len(set(ids))
    async with Database(f"sqlite+aiosqlite:///{tmp_path / 'bot.sqlite3'}") as db:
        report = verify_log(await export_game(db, game_id))
    assert report.ok, report.summary()
