"""How long a restarted bot takes to deliver again after a crash.

    .venv/bin/python bench/restart_gap.py [--runs 3] [--database URL]

Each run: the real bot on the local Discord emulator (real clock), a game of six opened
and started; the moderator closes the Day, and the bot is killed (its tasks cancelled,
its database connections dropped, nothing said to the database) as soon as the first
message of that step is out, the rest of the batch leased to it. A new bot is started
at once on the same database. Printed per run: seconds from the restart to the new
process ready (connected), and to the first message it delivers; then the median.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.sandbox.play_game import GameOptions, TableGame
from bot.sandbox.play_table import TableSpec, Tavern

OPTIONS = GameOptions(day="1h", dusk="1h", morning="1h")


async def one_run(database_url: str | None, seed: str) -> tuple[float, float]:
    async with Tavern(database_url=database_url, seed=seed) as tavern:
        seating = tavern.seat_table(TableSpec(players=6), channel_name=f"t{seed}")
        game = TableGame(tavern, seating, OPTIONS, seed=seed)
        await game.open()
        assert await game.next_phase(1, "day")
        await game.play_phase(1, "day", game.players)
        await tavern.drained()
        bot_id = tavern.emu.bot_user.id
        before = len(tavern.emu.messages)
        assert not (await game.moderator.advance()).error

        def ours_since(n: int) -> int:
            return sum(1 for m in tavern.emu.messages[n:] if m.author.id == bot_id and m.interaction_id is None)

        await tavern.emu.wait_for(lambda: ours_since(before) or None, 30, "the first message of the step")
        await tavern.stop_bot(crash=True)
        after_crash = len(tavern.emu.messages)
        t0 = time.perf_counter()
        await tavern.start_bot()
        ready = time.perf_counter() - t0
        await tavern.emu.wait_for(lambda: ours_since(after_crash) or None, 180, "the first message after the restart")
        first = time.perf_counter() - t0
        await tavern.drained(120)
        return ready, first


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--database", default=None, help="a database URL (default: a temporary SQLite file per run)")
    args = parser.parse_args()
    firsts = []
    for i in range(args.runs):
        ready, first = await one_run(args.database, f"gap{i}")
        firsts.append(first)
        print(f"run {i + 1}: ready after {ready:.2f} s, first message delivered after {first:.2f} s", flush=True)
    print(f"median time from the restart to the first message delivered: {statistics.median(firsts):.2f} s")


if __name__ == "__main__":
    asyncio.run(main())
