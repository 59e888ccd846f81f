"""A deadline shared by many games, delivered under Discord's global rate limit.

    .venv/bin/python bench/deadline_burst.py [--games 1000] [--players 6] [--per-server 250]
                                             [--database URL | --postgres [SERVER]] [--json]

``--games`` running games (``--players`` each, spread over servers of ``--per-server``
games, as Discord caps a server at 500 channels) are set up through the service on a
temporary SQLite database (or ``--database``, or with ``--postgres`` a scratch PostgreSQL
database dropped after), their start's messages taken as delivered long ago and each
player's DM channel known, as in a slow game some days in. Then the real bot starts in a
process of its own (``split_bot.py``) against the local emulator, which stays in this
process with its global limit of 50 requests a second switched on, as Discord's; the
bot's clock jumps past the Day deadline all the games share and the bot closes them and
delivers what that produced.

Printed: the start-up time from the bot process's start to ready and to the end of the
start-up check of the live games (in the background, after ready); for the deadline, the
messages delivered, the REST requests the bot made, the time from the deadline to the
last message, the bound (requests ÷ 50: no bot can do better under the global limit) and
the ratio to it, the bound for the messages alone (messages ÷ 50), and the responses of
429 (global ones apart), the time until every game's phase had closed; the bot process's
CPU time from the deadline to the last message, per delivered message and as a share of
a core, its SQL statements per message, and its resident memory (before the deadline,
after, and at its peak). The harness's own CPU share over the same stretch is printed
too: near a full core, the emulator (not the bot) was the limit.
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

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot_load import pg_drop, pg_scratch
from split_bot import collector_off, spawn_bot
from sqlalchemy import func, insert, select, update

from bot.core.effects import games_to_reconcile
from bot.core.policy import Standing
from bot.core.types import GameSettings, UserRef
from bot.db.migrate import upgrade
from bot.db.models import DmChannel, Game, OutboxMessage
from bot.db.session import Database
from bot.discord.config import DiscordConfig
from bot.features.lobby.games import create_game, join_game, start_game
from bot.sandbox.play_table import GameClock
from discord_emulator import Emulator

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
        info = await create_game(
            db, guild_id=guild.id, channel_id=channel.id, moderator=UserRef(mod.id, mod.username), settings=settings
        )
        seated = []
        for p in range(players):
            user = emu.create_user(f"p{g}-{p}")
            emu.add_member(guild, user)
            await join_game(db, info.id, UserRef(user.id, user.username), Standing.member_of(user.id, info.guild_id, (info.channel_id,)))
            seated.append(user)
        await start_game(db, info.id)
        rows = [{"user_id": u.id, "channel_id": emu.dm_channel(u).id, "created_at": db.now()} for u in [mod, *seated]]
        async with db.transaction() as s:
            await s.execute(insert(DmChannel), rows)
    async with db.transaction() as s:  # delivered long ago, Discord's side in line
        await s.execute(update(OutboxMessage).where(OutboxMessage.status == "pending").values(status="sent"))
        await s.execute(update(Game).values(effects_due=None))
    return len(servers)


async def until(check: Any, timeout: float, what: str, step: float = 0.05) -> float:
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
    try:
        await upgrade(url)
        db = Database(url, clock=GameClock())
        async with Emulator() as emu:
            setup_started = time.perf_counter()
            servers = await set_up(emu, db, args.games, args.players, args.per_server)
            setup_s = time.perf_counter() - setup_started
            emu.ratelimits.global_limit = GLOBAL_LIMIT
            config = DiscordConfig(
                database_url=url, token=emu.token, migrate_on_start=False, scheduler_max_sleep=30.0,
                dispatch_interval=2.0, sync_commands=False, log_level="WARNING",
            )  # fmt: skip
            started = time.perf_counter()
            bot = await spawn_bot(emu.api_url, emu.gateway_url, url, config, timeout=900)
            await bot.resynced()
            await until(lambda: no_games_to_reconcile(db), 600, "the start-up check")
            check_s = time.perf_counter() - started
            async with db.read() as s:
                before = int(await s.scalar(select(func.coalesce(func.max(OutboxMessage.id), 0))) or 0)
            mark = len(emu.requests)
            at_deadline = await bot.mark()
            harness_cpu = time.process_time()
            deadline = time.perf_counter()
            await bot.skip(DAY + 1)

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

            with collector_off():
                last = await until(all_out, 3600, "the deadline's messages")
            after = await bot.mark()
            elapsed = last - deadline
            harness_cpu_s = time.process_time() - harness_cpu
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
            await bot.stop()
        await db.dispose()
    finally:
        if tmp:
            shutil.rmtree(tmp, ignore_errors=True)
    requests = len(burst)
    bound = requests / GLOBAL_LIMIT
    cpu_s = after["cpu_s"] - at_deadline["cpu_s"]
    return {
        "database": "postgresql" if url.startswith("postgresql") else "sqlite",
        "games": args.games,
        "players": args.players,
        "servers": servers,
        "setup_s": round(setup_s, 1),
        "ready_s": round(bot.started_s, 2),
        "startup_check_s": round(check_s, 2),
        "messages": messages,
        "requests": requests,
        "elapsed_s": round(elapsed, 2),
        "closed_s": round(closed[0] - deadline, 2),
        "bound_s": round(bound, 2),
        "ratio": round(elapsed / bound, 3) if bound else None,
        "messages_bound_s": round(messages / GLOBAL_LIMIT, 2),
        "responses_429": sum(1 for r in burst if r.status == 429),
        "global_429": sum(1 for r in burst if r.status == 429 and (r.response or {}).get("global")),
        "bot_cpu_s": round(cpu_s, 2),
        "bot_cpu_ms_per_message": round(cpu_s * 1000 / messages, 2) if messages else None,
        "bot_cpu_share": round(cpu_s / max(after["wall_s"] - at_deadline["wall_s"], 1e-9), 3),
        "bot_sql_per_message": round((after["statements"] - at_deadline["statements"]) / messages, 2) if messages else None,
        "bot_rss_before_mb": round(at_deadline["rss_mb"], 1),
        "bot_rss_after_mb": round(after["rss_mb"], 1),
        "bot_peak_rss_mb": round(bot.usage.get("peak_rss_mb", after["peak_rss_mb"]), 1),
        "harness_cpu_share": round(harness_cpu_s / max(elapsed, 1e-9), 3),
    }


async def no_games_to_reconcile(db: Database) -> bool:
    return not await games_to_reconcile(db)


def main() -> None:
    from bot import features

    features.load()  # every feature's handlers, as the bot's start does
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--players", type=int, default=6)
    parser.add_argument("--per-server", type=int, default=250, help="games per server (Discord: 500 channels at most)")
    parser.add_argument("--database", default=None, help="a database URL (default: a temporary SQLite file)")
    parser.add_argument(
        "--postgres",
        metavar="SERVER",
        nargs="?",
        const="postgresql://postgres@127.0.0.1:5432/test",
        help="a scratch PostgreSQL database on this server (default 127.0.0.1:5432), dropped after",
    )
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    logging.basicConfig(level=logging.WARNING)
    scratch = None
    if args.postgres:
        scratch = asyncio.run(pg_scratch(args.postgres))
        args.database = scratch[1]
    try:
        result = asyncio.run(run(args))
    finally:
        if scratch is not None:
            asyncio.run(pg_drop(*scratch))
    if args.json:
        print(json.dumps(result))
        return
    r = result
    print(f"{r['games']} games of {r['players']} in {r['servers']} servers, {r['database']} (set up in {r['setup_s']} s)")
    print(f"start-up: bot process ready in {r['ready_s']} s; check of the live games done {r['startup_check_s']} s after its start")
    print(
        f"deadline: {r['messages']} messages, {r['requests']} requests in {r['elapsed_s']} s; "
        f"bound {r['bound_s']} s (requests / 50), ratio {r['ratio']}; messages / 50 = {r['messages_bound_s']} s"
    )
    print(f"the games' phases all closed {r['closed_s']} s after the deadline")
    print(
        f"bot process: CPU {r['bot_cpu_s']} s ({r['bot_cpu_ms_per_message']} ms a message, {r['bot_cpu_share']:.0%} of a core), "
        f"{r['bot_sql_per_message']} SQL statements a message; RSS {r['bot_rss_before_mb']} → {r['bot_rss_after_mb']} MB, "
        f"peak {r['bot_peak_rss_mb']} MB"
    )
    print(f"harness (emulator): {r['harness_cpu_share']:.0%} of a core meanwhile")
    print(f"429 responses: {r['responses_429']} (global: {r['global_429']})")


if __name__ == "__main__":
    main()
