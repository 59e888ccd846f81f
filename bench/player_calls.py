"""The service calls of a player's interaction, one at a time, in one process.

    .venv/bin/python bench/player_calls.py [URL] [--calls 400]

URL: a database (default: a temporary SQLite file). One six-player game is started and
each call below is made ``--calls`` times after a warm-up; printed per call: CPU time
(the process's, so aiosqlite's thread too) and wall time, in ms.

- ``view_here``: ``player_view`` of the channel's game, what a command reads first (the
  request's table: the game found, its state and the caller's seat read once);
- ``grail``: ``handle`` of a whole grail number (``SendSubmission``);
- ``grail+view``: a panel's grail form: the submission and the player's view the panel is
  redrawn from (the receipt's);
- ``require_open``: ``require_open_for``, the grail button's check before the form.

No Discord: what is left of an interaction's CPU beyond these is discord.py, aiohttp and
the bot's background loops (``bench/bot_load.py`` measures it all together).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.core.policy import Standing
from bot.core.types import GameSettings, UserRef
from bot.core.views import player_view, require_open_for
from bot.db.migrate import upgrade
from bot.db.session import Database
from bot.features.lobby.games import create_game, join_game, start_game
from bot.features.play.commands import SendSubmission, handle

PLAYERS = 6


async def measure(url: str, calls: int) -> dict[str, tuple[float, float]]:
    await upgrade(url)
    db = Database(url)
    try:
        info = await create_game(db, guild_id=1, channel_id=2, moderator=UserRef(99, "gm"), settings=GameSettings(day_seconds=3600))
        for p in range(PLAYERS):
            await join_game(db, info.id, UserRef(100 + p, f"p{p}"), Standing.member_of(100 + p, info.guild_id, (info.channel_id,)))
        await start_game(db, info.id)

        def grail(i: int) -> Awaitable[Any]:
            payload = {"kind": "grail", "number": 1 + i % 100}
            return handle(db, SendSubmission(payload), 100 + i % PLAYERS, game_id=info.id, round_no=1)

        async def grail_and_view(i: int) -> None:
            receipt = await grail(i)
            assert receipt.view is not None and receipt.view.sent["grail"]["number"] == 1 + i % 100

        runs: dict[str, Callable[[int], Awaitable[Any]]] = {
            "view_here": lambda i: player_view(db, 100 + i % PLAYERS, channel_id=info.channel_id),
            "grail": grail,
            "grail+view": grail_and_view,
            "require_open": lambda i: require_open_for(db, 100 + i % PLAYERS, info.id, 1, "day"),
        }
        figures = {}
        for name, run in runs.items():
            for i in range(50):
                await run(i)
            cpu, wall = time.process_time(), time.perf_counter()
            for i in range(calls):
                await run(i)
            figures[name] = (1000 * (time.process_time() - cpu) / calls, 1000 * (time.perf_counter() - wall) / calls)
        return figures
    finally:
        await db.dispose()


def main() -> int:
    from bot import features

    features.load()  # every feature's handlers, as the bot's start does
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("url", nargs="?", help="database URL (default: a temporary SQLite file)")
    parser.add_argument("--calls", type=int, default=400)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        url = args.url or f"sqlite:///{folder}/bench.db"
        for name, (cpu, wall) in asyncio.run(measure(url, args.calls)).items():
            print(f"{name:14} cpu {cpu:.2f} ms  wall {wall:.2f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
