"""Many live slow games in one bot process: memory, start-up, and a burst of interactions.

    .venv/bin/python bench/scale.py [--games 1000,10000] [--seconds 60] [--rate 100]
                                    [--players 6] [--per-server 490]
                                    [--postgres [SERVER]] [--no-global-limit]
                                    [--idle SECONDS] [--profile FILE] [--json]

For each number of games (each in a fresh process, on a fresh database: a temporary
SQLite file, or with ``--postgres`` a scratch PostgreSQL database dropped after) the
local Discord gets that many game channels spread over servers of ``--per-server``
channels (Discord caps a server at 500), each with ``--players`` members. The database
gets as many running slow games (phases of a day, the service's defaults, so all of them
idle): the first is opened, joined and started through the service; the others are
copies of its rows (game, players, game log, users, delivered outbox) under their own
ids, inserted in bulk, as if each had been started the same way. Then the real bot starts
in a process of its own (``split_bot.py``) with the emulator's global rate limit of 50
requests a second on (as Discord; ``--no-global-limit`` turns it off).

Once the bot is ready and the first game's messages are out, players of random games send
``--rate`` interactions a second for ``--seconds`` seconds, open loop (``open_loop.py``:
each at its moment, whether or not the previous ones are answered): half ``/grail`` (a
submission), a quarter ``/me``, a quarter ``/orders`` (the panel), half of them in the
game's channel and half by DM. The players keep no waiter each: the emulator stamps each
interaction's acknowledgement and final answer, read after the burst, so the harness's
cost per interaction does not grow with the interactions pending, and its garbage
collector is off during the burst (``split_bot.collector_off``).

Printed per run: the games and servers, the time to seed them, the bot's start-up time to
ready (from the process's start: connected, every server received) and until it is quiet
(its start-up work on the live games done: below a tenth of a core for three seconds, when
the burst starts), its resident memory once quiet and after the
burst, the rate of interactions the harness achieved and its own share of a core,
acknowledgement p50/p99 (dispatch to the emulator's receipt of the bot's first response;
Discord shows "This interaction failed" after 3 s) and how many were never acknowledged,
the bot's CPU milliseconds and SQL statements per interaction over the burst. Under the
row: whether the bot never became quiet (it was given two minutes), its share of a core
over ``--idle`` seconds (default 10) once quiet, before the burst (the work an idle bot
does, which should not grow with the live games), and the final answers' p50/p99 per
command (a write, ``/grail``, queues on SQLite's one writer; ``/me`` and ``/orders`` read). When the
harness fell behind (it achieved under 95% of the rate, its starts came late, or it was
near a full core: ``Offered.fell_behind``) the run says so under its row (and in the
JSON's ``harness_fell_behind``): its latencies are then not the bot's alone. With several
sizes, the memory each further idle game costs (the slope of the resident memory once
ready). ``--profile FILE`` writes a cProfile of the bot over the burst (``python -m pstats
FILE``).
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import logging
import os
import random
import shutil
import sys
import tempfile
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot_load import ms, pct, run_child
from open_loop import Offered, open_loop
from split_bot import SplitTavern, collector_off

from bot.core.policy import Standing
from bot.sandbox import play_reader as reader


@dataclass
class Table:
    guild: Any
    channel: Any
    users: list[Any]


class ScaleTavern(SplitTavern):
    """The emulator with no bot yet: the world and the games are made first, then the
    bot starts on them (:meth:`start_bot`). The bot polls as deployed (the scheduler at
    most every 30 s, the outbox every 2 s), not as the sandbox's quick tests do (every
    half second and every second), so that an idle bot's work is what it would be."""

    def __init__(self, **kwargs: Any) -> None:
        from bot.discord.config import DiscordConfig

        deployed = {name: DiscordConfig.model_fields[name].default for name in ("scheduler_max_sleep", "dispatch_interval")}
        super().__init__(bot_options=deployed, **kwargs)

    async def __aenter__(self) -> ScaleTavern:
        await self.emu.start()
        self._stack.enter_context(self.emu.patch_discord())
        self.owner = self.emu.create_user("owner")
        return self


def build_world(tavern: ScaleTavern, games: int, players: int, per_server: int) -> list[Table]:
    """``games`` channels over servers of ``per_server`` channels, each with ``players``
    members of their own."""
    emu, tables, guild = tavern.emu, [], None
    for i in range(games):
        if i % per_server == 0:
            guild = emu.create_guild(f"Tavern {i // per_server + 1}", owner=tavern.owner, channels=("general",))
        channel = emu.create_text_channel(guild, f"table-{i}")
        users = [emu.create_user(f"g{i}-p{j}") for j in range(players)]
        for user in users:
            emu.add_member(guild, user)
        tables.append(Table(guild, channel, users))
    return tables


async def seed(url: str, tables: list[Table], owner: Any) -> int:
    """Migrate the database, start the first table's game through the service and copy
    it to every other table; the first game's id."""
    from bot.core.types import UserRef
    from bot.db.migrate import upgrade
    from bot.db.session import Database
    from bot.features.lobby.games import create_game, join_game, start_game

    await upgrade(url)
    db = Database(url)
    try:
        first = tables[0]
        info = await create_game(
            db, guild_id=first.guild.id, channel_id=first.channel.id, moderator=UserRef(owner.id, "owner", "en-US")
        )
        for user in first.users:
            await join_game(db, info.id, UserRef(user.id, user.username, "en-US"), Standing.member_of(user.id, info.guild_id, (info.channel_id,)))
        await start_game(db, info.id)
        await copy_game(db, info.id, tables)
    finally:
        await db.dispose()
    return info.id


async def copy_game(db: Any, game_id: int, tables: list[Table], batch: int = 250) -> None:
    """The rows of ``game_id`` (at ``tables[0]``) again for each further table, under new
    ids, its outbox as delivered and its Discord side reconciled."""
    from sqlalchemy import func, insert, select

    from bot.db.models import Game, GamePlayer, GameStep, OutboxMessage, User

    def rows(result: Any) -> list[dict[str, Any]]:
        return [dict(r) for r in result.mappings()]

    async with db.engine.begin() as conn:
        game = rows(await conn.execute(select(Game.__table__).where(Game.id == game_id)))[0]
        players = rows(await conn.execute(select(GamePlayer.__table__).where(GamePlayer.game_id == game_id)))
        steps = rows(await conn.execute(select(GameStep.__table__).where(GameStep.game_id == game_id)))
        outbox = rows(await conn.execute(select(OutboxMessage.__table__).where(OutboxMessage.game_id == game_id)))
        users = rows(await conn.execute(select(User.__table__).where(User.id.in_([p["user_id"] for p in players]))))
        next_id = {
            model: int((await conn.execute(select(func.max(model.id)))).scalar_one() or 0) + 1
            for model in (Game, GamePlayer, GameStep, OutboxMessage)
        }
    first = tables[0]
    now = datetime.now(UTC)
    for start in range(1, len(tables), batch):
        new: dict[Any, list[dict[str, Any]]] = {User: [], Game: [], GamePlayer: [], GameStep: [], OutboxMessage: []}
        for i in range(start, min(len(tables), start + batch)):
            t = tables[i]
            gid = next_id[Game] + i - 1
            ids = {a.id: b.id for a, b in zip(first.users, t.users, strict=True)} | {first.channel.id: t.channel.id}
            new[Game].append(game | {"id": gid, "guild_id": t.guild.id, "channel_id": t.channel.id, "active_channel_id": t.channel.id, "effects_due": None})
            new[User] += [u | {"id": ids[u["id"]], "display_name": f"g{i}-{u['display_name']}"} for u in users]
            for n, p in enumerate(players):
                uid = ids.get(p["user_id"], p["user_id"])
                active = None if p["active_user_id"] is None else uid
                new[GamePlayer].append(p | {"id": next_id[GamePlayer] + (i - 1) * len(players) + n, "game_id": gid, "user_id": uid, "active_user_id": active})
            for n, s in enumerate(steps):
                new[GameStep].append(s | {"id": next_id[GameStep] + (i - 1) * len(steps) + n, "game_id": gid})
            for n, m in enumerate(outbox):
                key = f"{m['idempotency_key']}:copy{i}"
                recipient = ids.get(m["recipient_id"], m["recipient_id"])
                oid = next_id[OutboxMessage] + (i - 1) * len(outbox) + n
                delivered = {"status": "sent", "sent_at": now, "leased_by": None}
                new[OutboxMessage].append(m | {"id": oid, "game_id": gid, "idempotency_key": key, "recipient_id": recipient} | delivered)
        async with db.engine.begin() as conn:
            for model, values in new.items():
                if values:
                    await conn.execute(insert(model.__table__), values)
    if db.dialect == "postgresql":  # the sequences past the ids given above
        async with db.engine.begin() as conn:
            for model in (Game, GamePlayer, GameStep, OutboxMessage):
                table = model.__tablename__
                await conn.exec_driver_sql(f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), (SELECT max(id) FROM {table}))")


def cpu_seconds(pid: int) -> float:
    """A process's CPU time so far (Linux)."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def quiet(pid: int, *, below: float = 0.1, timeout: float = 120.0) -> bool:
    """Wait until the process uses less than ``below`` of a core over each of three
    seconds in a row (the bot's start-up work on the live games is done), or at most
    ``timeout`` seconds; whether it was quiet."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    before, calm = cpu_seconds(pid), 0
    while loop.time() < end and calm < 3:  # three quiet seconds in a row
        await asyncio.sleep(1.0)
        now = cpu_seconds(pid)
        calm = calm + 1 if now - before < below else 0
        before = now
    return calm >= 3


async def idle_share(pid: int, seconds: float) -> float:
    """The process's share of a core over ``seconds`` with nothing asked of it."""
    loop = asyncio.get_running_loop()
    cpu0, t0 = cpu_seconds(pid), loop.time()
    await asyncio.sleep(seconds)
    return (cpu_seconds(pid) - cpu0) / max(loop.time() - t0, 1e-9)


async def burst(
    tavern: ScaleTavern, tables: list[Table], rate: float, seconds: float, rng: random.Random
) -> tuple[Offered, list[Any], list[str]]:
    """``rate`` interactions a second for ``seconds`` seconds from players of random
    games (see the module docstring), open loop; then waits up to a minute for every
    answer. The players keep no waiter each: the emulator stamps each interaction's
    acknowledgement and answer, read once the burst is over. Returns the command of
    each interaction beside it."""

    kinds: list[str] = []  # the command of each interaction, in the order started

    async def one(_k: int) -> Any:
        t = rng.choice(tables)
        user = rng.choice(t.users)
        where = {"dm": True} if rng.random() < 0.5 else {"channel": t.channel}
        roll = rng.random()
        kinds.append("grail" if roll < 0.5 else "me" if roll < 0.75 else "orders")
        if roll < 0.5:
            return await tavern.emu.slash(user, "grail", {"number": rng.randint(1, 100)}, **where)
        return await tavern.emu.slash(user, kinds[-1], **where)

    with collector_off():
        offered, results = await open_loop(rate, seconds, one)
        waiting, give_up = list(results), time.perf_counter() + 60.0
        while waiting and time.perf_counter() < give_up:
            await asyncio.sleep(0.25)
            waiting = [r for r in waiting if not (r.is_final() or r.failed)]
    return offered, results, kinds


def answers(results: list[Any]) -> dict[str, Any]:
    """Acknowledgement and answer percentiles (one never acknowledged counts as
    infinitely late), and the bot's refusals among the answers."""
    acks = [r.ack_seconds if r.acknowledged else float("inf") for r in results]
    final = [r.answer_seconds for r in results if r.answer_seconds is not None]
    refusals = []
    for r in results:
        shown = [m for m in [r.message, *r.followups] if m is not None]
        if any(reader.is_error(m) for m in shown):
            refusals.append(" ".join(reader.message_text(m) for m in shown))
    return {
        "ack_p50_ms": pct(acks, 0.50) * 1000,
        "ack_p99_ms": pct(acks, 0.99) * 1000,
        "answer_p50_ms": pct(final, 0.50) * 1000,
        "answer_p99_ms": pct(final, 0.99) * 1000,
        "not_acked": sum(1 for r in results if not r.acknowledged),
        "not_answered": len(results) - len(final),
        "refused": len(refusals),
        "refusals": sorted({text[:120] for text in refusals})[:5],
    }


def answers_by_command(results: list[Any], kinds: list[str]) -> dict[str, dict[str, float]]:
    """Per command, the final answers' p50 and p99 in ms: a write (``/grail``) waits for
    SQLite's one writer, the reads (``/me``, ``/orders``) do not."""
    out = {}
    for kind in sorted(set(kinds)):
        final = [r.answer_seconds for r, k in zip(results, kinds, strict=True) if k == kind and r.answer_seconds is not None]
        out[kind] = {"p50_ms": pct(final, 0.50) * 1000, "p99_ms": pct(final, 0.99) * 1000}
    return out


async def measure(args: argparse.Namespace) -> dict[str, Any]:
    logging.basicConfig(level=logging.ERROR)
    rng = random.Random(args.seed)
    tmp = None
    url = args.database
    if url is None:
        tmp = Path(tempfile.mkdtemp(prefix="wolfhowl-scale-"))
        url = f"sqlite+aiosqlite:///{tmp / 'wolfhowl.sqlite3'}"
    try:
        tavern = ScaleTavern(database_url=url, seed=args.seed, profile=args.profile)
        async with tavern:
            if not args.no_global_limit:
                tavern.emu.ratelimits.global_limit = 50
            t0 = time.perf_counter()
            tables = build_world(tavern, args.games, args.players, args.per_server)
            world_s = time.perf_counter() - t0
            t0 = time.perf_counter()
            await seed(url, tables, tavern.owner)
            seed_s = time.perf_counter() - t0
            t0 = time.perf_counter()
            await tavern.start_bot(timeout=900)
            started_s = time.perf_counter() - t0
            await tavern.drained(timeout=600)  # the first game's messages
            assert tavern.remote is not None
            was_quiet = await quiet(tavern.remote.proc.pid)  # the start-up checks of the live games
            settled_s = time.perf_counter() - t0
            idle = await idle_share(tavern.remote.proc.pid, args.idle) if args.idle > 0 else None
            a = await tavern.bot.mark()
            offered, results, kinds = await burst(tavern, tables, args.rate, args.seconds, rng)
            b = await tavern.bot.mark()
        usage = tavern.bot_usage
    finally:
        if tmp is not None:
            shutil.rmtree(tmp, ignore_errors=True)
    per = max(len(results), 1)
    return {
        "games": args.games,
        "servers": -(-args.games // args.per_server),
        "players": args.players,
        "world_s": world_s,
        "seed_s": seed_s,
        "ready_s": usage["ready_s"],
        "start_s": started_s,
        "settled_s": settled_s,
        "quiet": was_quiet,
        "idle_s": args.idle,
        "idle_cpu_share": idle,
        "rss_ready_mb": a["rss_mb"],
        "rss_after_mb": b["rss_mb"],
        "peak_rss_mb": usage["peak_rss_mb"],
        "interactions": len(results),
        "rate": args.rate,
        "seconds": args.seconds,
        **answers(results),
        "answer_by_command": answers_by_command(results, kinds),
        "cpu_ms_per_interaction": (b["cpu_s"] - a["cpu_s"]) * 1000 / per,
        "bot_cpu_share": (b["cpu_s"] - a["cpu_s"]) / max(b["wall_s"] - a["wall_s"], 1e-9),
        "sql_per_interaction": (b["statements"] - a["statements"]) / per,
        "achieved_rate": offered.achieved_rate,
        "start_lag_p99_ms": offered.lag(0.99) * 1000,
        "harness_cpu_share": offered.cpu_share,
        "harness_fell_behind": offered.fell_behind(),
        "global_limit": not args.no_global_limit,
    }


HEADER = (
    f"{'games':>6} {'servers':>7} {'seed':>6} {'ready':>6} {'quiet':>7} {'RSS ready':>9} {'RSS after':>9} "
    f"{'interactions':>12} {'achieved/s':>10} {'harness':>7} {'ack p50':>8} {'ack p99':>8} {'not acked':>9} {'refused':>7} "
    f"{'CPU/int':>8} {'bot CPU':>7} {'SQL/int':>7}"
)


def row(r: dict[str, Any]) -> str:
    line = (
        f"{r['games']:>6} {r['servers']:>7} {r['seed_s']:>5.0f}s {r['start_s']:>5.1f}s {r['settled_s']:>6.1f}s "
        f"{r['rss_ready_mb']:>7.0f}MB {r['rss_after_mb']:>7.0f}MB {r['interactions']:>12} {r['achieved_rate']:>10.1f} "
        f"{r['harness_cpu_share']:>7.0%} {ms(r['ack_p50_ms']):>8} {ms(r['ack_p99_ms']):>8} {r['not_acked']:>9} {r['refused']:>7} "
        f"{r['cpu_ms_per_interaction']:>6.1f}ms {r['bot_cpu_share']:>6.0%} {r['sql_per_interaction']:>7.1f}"
    )
    if not r["quiet"]:
        line += "\n  the bot never stayed below a tenth of a core for three seconds before the burst"
    if r["idle_cpu_share"] is not None:
        line += f"\n  the bot idle for {r['idle_s']:.0f} s after that: {r['idle_cpu_share']:.1%} of a core"
    by = r["answer_by_command"]
    line += "\n  answers p50/p99: " + ", ".join(f"/{k} {ms(v['p50_ms'])}/{ms(v['p99_ms'])}" for k, v in by.items())
    if r["harness_fell_behind"]:
        line += f"\n  the harness fell behind ({'; '.join(r['harness_fell_behind'])}): these latencies are not the bot's alone"
    return line


def main() -> int:
    from bot import features

    features.load()  # every feature's handlers, as the bot's start does
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", default="1000,10000", help="comma-separated numbers of live games (default 1000,10000)")
    parser.add_argument("--seconds", type=float, default=60.0, help="length of the burst (default 60)")
    parser.add_argument("--rate", type=float, default=100.0, help="interactions a second in the burst (default 100)")
    parser.add_argument("--players", type=int, default=6, help="players per game (default 6)")
    parser.add_argument("--per-server", type=int, default=490, help="game channels per server (at most 499; default 490)")
    parser.add_argument("--idle", type=float, default=10.0, help="seconds of the quiet bot measured before the burst (default 10)")
    parser.add_argument("--seed", default="scale")
    parser.add_argument("--database", help=argparse.SUPPRESS)
    parser.add_argument(
        "--postgres",
        metavar="SERVER",
        nargs="?",
        const="postgresql://postgres@127.0.0.1:5432/test",
        help="a scratch PostgreSQL database per run on this server (default 127.0.0.1:5432), dropped after",
    )
    parser.add_argument("--no-global-limit", action="store_true", help="the emulator's global limit of 50 requests a second off")
    parser.add_argument("--profile", metavar="FILE", help="cProfile the bot over the burst into FILE")
    parser.add_argument("--json", action="store_true", help="one JSON object per run instead of the table")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if not 1 <= args.per_server <= 499:
        parser.error("--per-server: 1 to 499 (a server holds at most 500 channels, one is #general)")
    if args.child:
        args.games = int(args.games)
        print(json.dumps(asyncio.run(measure(args))))
        return 0
    if not args.json:
        print(HEADER, flush=True)
    results = []
    for k in (int(x) for x in args.games.split(",")):
        cmd = [sys.executable, __file__, "--child", "--games", str(k), "--seconds", str(args.seconds), "--rate", str(args.rate),
               "--players", str(args.players), "--per-server", str(args.per_server), "--seed", args.seed, "--idle", str(args.idle)]  # fmt: skip
        if args.no_global_limit:
            cmd.append("--no-global-limit")
        if args.profile:
            cmd += ["--profile", str(Path(args.profile).resolve())]
        out = run_child(cmd, args.postgres)
        if out.returncode != 0:
            print(f"{k} games: failed\n{out.stderr[-3000:]}", file=sys.stderr)
            return 1
        result = json.loads(out.stdout.strip().splitlines()[-1])
        results.append(result)
        print(json.dumps(result) if args.json else row(result), flush=True)
    if len(results) > 1 and not args.json:
        for a, b in itertools.pairwise(results):
            per_game = (b["rss_ready_mb"] - a["rss_ready_mb"]) * 1024 / max(b["games"] - a["games"], 1)
            print(f"resident memory once ready, {a['games']} → {b['games']} games: {per_game:.1f} KB per further idle game")
    return 0


if __name__ == "__main__":
    sys.exit(main())
