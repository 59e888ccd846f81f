"""``wolfhowl run`` killed with SIGKILL again and again over a whole game, and started again
each time, against the local Discord.

    .venv/bin/python -m tests.deploy.kill_loop [--kills 100] [--seed 1] [--players 6]

The emulator and a table of scripted players run here; the bot is ``python -m bot.cli run``
in a process of its own on a temporary SQLite database. The moments of the kills are drawn
from the seed, as a count of the bot's requests to Discord since it last started (1 to
``--every``, default 30): a point in its work, wherever that falls (a phase being closed,
its news going out, a command being answered), not a time. After each kill a new process
is started at once and the players and the moderator go on (an interaction the dead bot
never answered is one Discord shows as failed: a player goes on without it, the moderator
closes the phase again until it is closed).

At the end: the game is over; nothing waits in the outbox and no Discord message was
recorded as two rows' delivery; no nonce created two messages; every submission stored
for a phase that was closed is among the inputs its close counted (the game log); nobody
is left muted; the game's log replays exactly (``verify``). Printed: the kills survived, the messages checked, the seconds taken.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import signal
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.sandbox.play_game import NEXT_PHASE, GameOptions, TableGame
from bot.sandbox.play_table import TableSpec, Tavern
from discord_emulator import permissions as perm

ROOT = Path(__file__).resolve().parents[2]


@dataclass
class KillReport:
    kills: int
    starts: int
    over: bool
    messages: int
    problems: list[str] = field(default_factory=list)
    seconds: float = 0.0


class ProcessTavern(Tavern):
    """A :class:`Tavern` whose bot is ``wolfhowl run`` in a process of its own; ``db`` is a
    handle of our own on its database (the god's view)."""

    def __init__(self, folder: Path, **kwargs: Any) -> None:
        super().__init__(database_url=f"sqlite+aiosqlite:///{folder / 'bot.sqlite3'}", **kwargs)
        self.folder = folder
        self.process: asyncio.subprocess.Process | None = None
        (folder / "config.toml").write_text("")

    def identified(self) -> int:
        return sum(c.identified for c in self.emu.connections)

    async def start_bot(self, timeout: float = 60.0) -> None:
        from bot.db.session import Database

        before = self.identified()
        env = {
            **os.environ,
            "WOLFHOWL_TOKEN": self.emu.token,
            "WOLFHOWL_API_BASE": self.emu.api_url,
            "WOLFHOWL_GATEWAY_URL": self.emu.gateway_url,
            "WOLFHOWL_CONFIG": str(self.folder / "config.toml"),
            "WOLFHOWL_DATABASE_URL": self.database_url,
            "WOLFHOWL_DISPATCH_INTERVAL": "0.2",
            "WOLFHOWL_SCHEDULER_MAX_SLEEP": "1",
            "WOLFHOWL_GUILD_READY_TIMEOUT": "0.5",  # the local Discord's servers come at once
        }
        self.process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot.cli", "run", cwd=ROOT, env=env,
            stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.DEVNULL,
        )  # fmt: skip
        if self.db is None:
            self.db = Database(self.database_url)
        await self.watcher.until(
            lambda: self.identified() > before and self.emu.registered_commands(), timeout, "the bot to connect"
        )
        self.starts += 1

    async def stop_bot(self, *, crash: bool = False) -> None:
        process, self.process = self.process, None
        if process is None or process.returncode is not None:
            return
        process.send_signal(signal.SIGKILL if crash else signal.SIGTERM)
        await asyncio.wait_for(process.wait(), 30)

    async def drained(self, timeout: float = 30.0) -> None:
        from bot.core.effects import games_to_reconcile
        from bot.core.outbox import pending_count

        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while await pending_count(self.db) or await games_to_reconcile(self.db):
            if loop.time() > end:
                raise TimeoutError("the outbox did not drain")
            await asyncio.sleep(0.1)

    async def __aexit__(self, *exc: object) -> None:
        try:
            await super().__aexit__(*exc)
        finally:
            if self.db is not None:
                await self.db.dispose()


async def killer(tavern: ProcessTavern, rng: random.Random, kills: int, every: int, done: asyncio.Event, count: list[int]) -> None:
    """Kill the bot after a drawn number of its requests, start it again; ``kills`` times."""
    while count[0] < kills and not done.is_set():
        base = len(tavern.emu.requests)
        wanted = base + rng.randint(1, every)
        while len(tavern.emu.requests) < wanted and not done.is_set():
            await asyncio.sleep(0.005)
        if done.is_set():
            return
        await tavern.stop_bot(crash=True)
        count[0] += 1
        await tavern.start_bot()


async def play(tavern: ProcessTavern, game: TableGame) -> bool:
    """Every living player plays each phase (what a dead bot never answered is lost, as on
    Discord), then the moderator closes it, again and again until it is closed. Whether
    the game ended."""
    from bot.features.lobby.games import get_game

    round_no, phase = 1, "day"
    while round_no <= game.options.max_rounds:
        if not await game.next_phase(round_no, phase):
            return True
        await game.play_phase(round_no, phase)
        for _ in range(100):
            info = await get_game(tavern.db, game.game_id)
            if info.status in ("over", "cancelled") or (info.round, info.phase) != (round_no, phase):
                break
            await game.moderator.command("phase advance", timeout=5.0)
        phase = NEXT_PHASE[phase]
        round_no += phase == "day"
    return False


async def receipts_kept(tavern: ProcessTavern, game: TableGame) -> list[str]:
    """Every submission stored as the phase closed it: compared with what each phase's
    advance step took as its inputs (a phase never closed is left out)."""
    from sqlalchemy import select

    from bot.db.models import GameStep, Submission

    problems = []
    async with tavern.db.read() as s:
        steps = (await s.execute(select(GameStep).where(GameStep.game_id == game.game_id, GameStep.kind == "advance"))).scalars().all()
        subs = (await s.execute(select(Submission).where(Submission.game_id == game.game_id))).scalars().all()
    closed = {(st.round, st.phase): st.inputs for st in steps}
    for sub in subs:
        inputs = closed.get((sub.round, sub.phase))
        if inputs is None:
            continue
        if sub.payload not in (inputs.get("submissions") or {}).get(str(sub.seat), []):
            problems.append(f"round {sub.round} {sub.phase}: seat {sub.seat}'s {sub.kind} is not in the closed phase's inputs")
    return problems


async def run_kill_loop(kills: int, seed: int, players: int = 6, every: int = 30) -> KillReport:
    from sqlalchemy import func, select

    from bot.db.models import OutboxMessage
    from bot.features.lobby.games import get_game
    from bot.features.replay.export import export_game
    from bot.features.replay.verify import verify_log

    t0 = time.perf_counter()
    rng = random.Random(f"kill-{seed}")
    with tempfile.TemporaryDirectory(prefix="wolfhowl-kill-") as tmp:
        async with ProcessTavern(Path(tmp), seed=f"kill-{seed}", emulator_options={"port": 0}) as tavern:
            seating = tavern.seat_table(TableSpec(players=players))
            game = TableGame(tavern, seating, GameOptions(day="1h", dusk="1h", morning="1h", quiet_dead=True, advance="by hand", phase_timeout=120), seed=str(seed))
            await game.open()
            done, count = asyncio.Event(), [0]
            task = asyncio.create_task(killer(tavern, rng, kills, every, done, count))
            try:
                over = await play(tavern, game)
            finally:
                done.set()
                await task
            await tavern.drained(60)
            problems: list[str] = []
            async with tavern.db.read() as s:
                waiting = (await s.execute(select(func.count()).where(OutboxMessage.status == "pending"))).scalar_one()
                ids = [i for i in (await s.execute(select(OutboxMessage.discord_message_id))).scalars() if i is not None]
            if waiting:
                problems.append(f"{waiting} messages still waiting")
            twice = [i for i, c in Counter(ids).items() if c > 1]
            if twice:
                problems.append(f"Discord messages recorded for two rows: {twice}")
            nonces = Counter(m.nonce for m in tavern.emu.messages if getattr(m, "nonce", None) and m.author.id == tavern.emu.bot_user.id)
            if any(c > 1 for c in nonces.values()):
                problems.append(f"nonces that created two messages: {[n for n, c in nonces.items() if c > 1]}")
            problems += await receipts_kept(tavern, game)
            muted = [u.username for u in seating.players if not tavern.emu.permissions_of(u, seating.channel) & perm.SEND_MESSAGES]
            if muted:
                problems.append(f"still muted after the end: {muted}")
            info = await get_game(tavern.db, game.game_id)
            if info.status == "over":
                verdict = verify_log(await export_game(tavern.db, game.game_id))
                if not verdict.ok:
                    problems.append(f"verify: {verdict.summary()}")
            return KillReport(count[0], tavern.starts, over, len(ids), problems, time.perf_counter() - t0)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--kills", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--players", type=int, default=6)
    parser.add_argument("--every", type=int, default=30, help="a kill after 1 to this many of the bot's requests")
    args = parser.parse_args()
    r = asyncio.run(run_kill_loop(args.kills, args.seed, args.players, args.every))
    print(f"kills survived: {r.kills} ({r.starts} starts); game over: {r.over}; messages checked: {r.messages}; {r.seconds:.0f} s")
    for p in r.problems:
        print("PROBLEM:", p)
    return 0 if r.over and not r.problems else 1


if __name__ == "__main__":
    sys.exit(main())
