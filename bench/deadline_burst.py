"""A deadline shared by many games, delivered under Discord's global rate limit.

    .venv/bin/python bench/deadline_burst.py [--games 1000] [--players 6] [--per-server 250]
                                             [--database URL] [--json]

``--games`` running games (``--players`` each, spread over servers of ``--per-server``
games, as Discord caps a server at 500 channels) are set up through the service on a
temporary SQLite database (or ``--database``), their start's messages taken as delivered
long ago and each player's DM channel known, as in a slow game some days in. Then the
real bot starts against the local emulator with its global limit of 50 requests a second
switched on, as Discord's; the clock jumps past the Day deadline all the games share and
the bot closes them and delivers what that produced.

Printed: the start-up time to ready and to the end of the start-up check of the live
games (in the background, after ready); for the deadline, the messages delivered, the
REST requests the bot made, the time from the deadline to the last message, the bound
(requests ÷ 50: no bot can do better under the global limit) and the ratio to it, the
bound for the messages alone (messages ÷ 50), and the responses of 429 (global ones
apart), the time until every game's phase had closed, and the CPU time of the process
meanwhile. Everything runs in one process (bot, emulator, one core), so the figures
include the emulator's own work.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sqlalchemy import func, insert, select, update

import bot.service as service
from bot.db.migrate import upgrade
from bot.db.models import DmChannel, Game, OutboxMessage
from bot.db.session import Database
from bot.discord.client import WolfBot
from bot.discord.config import DiscordConfig
from bot.sandbox.play_table import GameClock
from bot.service.types import GameSettings, UserRef
from discord_emulator import Emulator
from discord_emulator.ready import start_until_ready

DAY = 3600
GLOBAL_LIMIT = 50


async def set_up(emu: Emulator, db: Database, games: int, players: int, per_server: int) -> int:
    """The games, started, their start delivered; the number of servers."""
    servers = []
    for g in range(games):
        if g % per_server == 0:
            servers.append(emu.create_guild(f"Tavern {len(servers) + 1}", channels=("general",)))
        guild = servers[-1]
        channel = emu.ctx.guild_ops.create_channel(guild, f"table-{g}")
        mod = emu.create_user(f"gm{g}")
        emu.add_member(guild, mod)
        settings = GameSettings(day_seconds=DAY, reminder_lead_seconds=0)
        info = await service.create_game(
            db, guild_id=guild.id, channel_id=channel.id, moderator=UserRef(mod.id, mod.username), settings=settings
        )
        seated = []
        for p in range(players):
            user = emu.create_user(f"p{g}-{p}")
            emu.add_member(guild, user)
            await service.join_game(db, info.id, UserRef(user.id, user.username))
            seated.append(user)
        await service.start_game(db, info.id)
        rows = [{"user_id": u.id, "channel_id": emu.dm_channel(u).id, "created_at": db.now()} for u in [mod, *seated]]
        async with db.transaction() as s:
            await s.execute(insert(DmChannel), rows)
    async with db.transaction() as s:  # delivered long ago, Discord's side in line
        await s.execute(update(OutboxMessage).where(OutboxMessage.status == "pending").values(status="sent"))
        await s.execute(update(Game).values(effects_due=None))
    return len(servers)


async def until(check: Any, timeout: float, what: str, step: float = 0.02) -> float:
    """Poll ``check`` until true; the moment it was (perf_counter)."""
    give_up = time.perf_counter() + timeout
    while time.perf_counter() < give_up:
        if await check():
            return time.perf_counter()
        await asyncio.sleep(step)
    raise TimeoutError(what)


async def run(args: argparse.Namespace) -> dict[str, Any]:
    tmp = None
    url = args.database
    if url is None:
        tmp = tempfile.mkdtemp(prefix="wolfhowl-burst-")
        url = f"sqlite+aiosqlite:///{tmp}/burst.sqlite3"
    clock = GameClock()
    try:
        await upgrade(url)
        db = Database(url, clock=clock)
        async with Emulator() as emu:
            with emu.patch_discord():
                setup_started = time.perf_counter()
                servers = await set_up(emu, db, args.games, args.players, args.per_server)
                setup_s = time.perf_counter() - setup_started
                emu.ratelimits.global_limit = GLOBAL_LIMIT
                config = DiscordConfig(
                    database_url=url, token=emu.token, migrate_on_start=False, scheduler_max_sleep=30.0,
                    dispatch_interval=2.0, sync_commands=False, log_level="WARNING",
                )  # fmt: skip
                started = time.perf_counter()
                bot = WolfBot(config, db=db)
                task = await start_until_ready(bot, emu.token, timeout=300)
                ready_s = time.perf_counter() - started

                async def checked() -> bool:
                    resync = [t for t in bot._tasks if t.get_name() == "wolfhowl-resync"]
                    return bool(resync) and all(t.done() for t in resync) and not await service.games_to_reconcile(db)

                check_s = await until(checked, 600, "the start-up check") - started
                async with db.read() as s:
                    before = int(await s.scalar(select(func.coalesce(func.max(OutboxMessage.id), 0))) or 0)
                mark = len(emu.requests)
                clock.skip(DAY + 1)
                cpu_before = time.process_time()
                deadline = time.perf_counter()
                bot.wake_scheduler()

                closed: list[float] = []

                async def all_out() -> bool:
                    async with db.read() as s:
                        open_days = await s.scalar(select(func.count()).where(Game.status == "running", Game.phase == "day"))
                        waiting = await s.scalar(
                            select(func.count()).where(OutboxMessage.id > before, OutboxMessage.status == "pending")
                        )
                    if open_days == 0 and not closed:
                        closed.append(time.perf_counter())
                    return open_days == 0 and waiting == 0

                last = await until(all_out, 3600, "the deadline's messages")
                elapsed = last - deadline
                cpu_s = time.process_time() - cpu_before
                async with db.read() as s:
                    messages = int(
                        await s.scalar(
                            select(func.count()).where(
                                OutboxMessage.id > before, OutboxMessage.status.in_(("sent", "inbox", "failed"))
                            )
                        )
                        or 0
                    )
                burst = emu.requests[mark:]
                await bot.close()
                await asyncio.wait_for(task, 30)
        await db.dispose()
    finally:
        if tmp:
            shutil.rmtree(tmp, ignore_errors=True)
    requests = len(burst)
    bound = requests / GLOBAL_LIMIT
    return {
        "database": "postgresql" if url.startswith("postgresql") else "sqlite",
        "games": args.games,
        "players": args.players,
        "servers": servers,
        "setup_s": round(setup_s, 1),
        "ready_s": round(ready_s, 2),
        "startup_check_s": round(check_s, 2),
        "messages": messages,
        "requests": requests,
        "elapsed_s": round(elapsed, 2),
        "closed_s": round(closed[0] - deadline, 2),
        "cpu_s": round(cpu_s, 1),
        "bound_s": round(bound, 2),
        "ratio": round(elapsed / bound, 3) if bound else None,
        "messages_bound_s": round(messages / GLOBAL_LIMIT, 2),
        "responses_429": sum(1 for r in burst if r.status == 429),
        "global_429": sum(1 for r in burst if r.status == 429 and (r.response or {}).get("global")),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--players", type=int, default=6)
    parser.add_argument("--per-server", type=int, default=250, help="games per server (Discord: 500 channels at most)")
    parser.add_argument("--database", default=None, help="a database URL (default: a temporary SQLite file)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    logging.basicConfig(level=logging.WARNING)
    result = asyncio.run(run(args))
    if args.json:
        print(json.dumps(result))
        return
    print(f"{result['games']} games of {result['players']} in {result['servers']} servers, {result['database']} (set up in {result['setup_s']} s)")
    print(f"start-up: ready in {result['ready_s']} s; check of the live games done {result['startup_check_s']} s after the start")
    print(
        f"deadline: {result['messages']} messages, {result['requests']} requests in {result['elapsed_s']} s; "
        f"bound {result['bound_s']} s (requests / 50), ratio {result['ratio']}; messages / 50 = {result['messages_bound_s']} s"
    )
    print(f"the games' phases all closed {result['closed_s']} s after the deadline; CPU {result['cpu_s']} s (bot and emulator)")
    print(f"429 responses: {result['responses_429']} (global: {result['global_429']})")


if __name__ == "__main__":
    main()
