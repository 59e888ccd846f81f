"""The bot under load: K games at once on the local Discord emulator.

    .venv/bin/python bench/bot_load.py [--games 1,10,100] [--players 6] [--window 60]
                                       [--rounds 1] [--database URL | --postgres [SERVER]]
                                       [--split-process] [--deployed-intervals] [--json]
                                       [--command NAME] [--metrics]

For each K (each in a fresh process, so the memory figures are its own) the real bot
runs on a temporary SQLite database (or ``--database``) against the emulator, with K
tables of scripted players in one server. Every game is opened, then played for
``--rounds`` rounds: in each phase every living player takes their turn at a random
moment within ``--window`` seconds (slash commands, autocomplete, the order panel, as in
``wolfhowl demo``); then the clock jumps past the deadline of all K games at once and the
bot's scheduler closes them.

Printed per K: interactions and the offered rate; acknowledgement latency (dispatch to
the bot's first response: what decides "This interaction failed" after 3 s) and answer
latency (to the final reply), p50 and p99; unanswered interactions; the time from the
deadline to the last message delivered (worst phase), and how many messages that was;
peak resident memory of the process (bot, emulator and players together) and CPU time.
The JSON adds, over the players' turns, the bot's CPU, SQL statements, units of work
(writing and reading) and requests to Discord per interaction.

The bot polls as in the sandbox (its scheduler every 0.25 s, its outbox every 1 s), and
those background passes count in the CPU per interaction; ``--deployed-intervals`` runs it
at a deployed bot's defaults, so the figure is the interactions' own.

By default everything shares one process and one event loop: the figures are for the
bot *and* the emulator *and* the players on one core, so they overstate the bot's own
cost. With ``--split-process`` the bot runs in a process of its own (``split_bot.py``)
and talks to the emulator over its ports: peak RSS and CPU are then the bot process's
alone (the harness's CPU is in the JSON as ``harness_cpu_s``), and the bot no longer
waits behind the players for the event loop.

``--command help`` replaces each player's turn with three ``/help`` (any command the
player may send with no options): an interaction that asks nothing of the game, so its
CPU is the floor under every turn's, what discord.py, the transport and the bot's
answering cost before a game is read (the games are opened and closed as usual).

``--metrics`` measures what the Prometheus metrics cost (docs/operations.md#metrics): for
each K, four runs, metrics off, on, off, on, each in a fresh process; in an "on" run the
bot serves /metrics (``metrics_port``) and a scraper fetches it every 15 s from start to
end, as the shipped Prometheus configuration does. Printed: each run's row, then the CPU
per interaction of each run and the on/off ratio of each pair and of their sums. Every
run's JSON says ``metrics``: ``on`` or ``off`` (and, on, the scrapes made).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import logging
import random
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.sandbox import play_reader as reader
from bot.sandbox.people import Stats
from bot.sandbox.play_game import NEXT_PHASE, GameOptions, TableGame
from bot.sandbox.play_table import GameClock, TableSpec, Tavern

PHASE_HOURS = 3600
SCRAPE_EVERY = 15.0  # seconds, as deploy/prometheus/prometheus.yml scrapes


def pct(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def open_all(tables: list[TableGame], at_once: int = 8) -> None:
    """Open the games a few at a time (setting up is not what is measured)."""
    gate = asyncio.Semaphore(at_once)
    # Created one after the other so that game n always gets the n-th seed.
    for g in tables:
        created = await g.moderator.create(**g.options.lobby_options())
        if created.error:
            raise RuntimeError(created.text)
        g.game_id = g.moderator.game_id

    async def join_and_start(g: TableGame) -> None:
        async with gate:
            lobby = await g.wait_post(
                lambda m: f"wh:join:{g.game_id}" in m.custom_ids(), "the lobby"
            )
            for p in g.players:
                await p.join(lobby)
                p.game_id = g.game_id
            await g.moderator.start()

    await asyncio.gather(*(join_and_start(g) for g in tables))


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def scraper(port: int, scrapes: list[dict[str, float]]) -> None:
    """Fetch the bot's /metrics every ``SCRAPE_EVERY`` seconds, as Prometheus would,
    until cancelled; each scrape's wall time and size into ``scrapes``."""
    import aiohttp

    async with aiohttp.ClientSession() as session:
        while True:
            t0 = time.perf_counter()
            try:
                async with session.get(f"http://127.0.0.1:{port}/metrics", timeout=aiohttp.ClientTimeout(total=10)) as r:
                    body = await r.read()
                    scrapes.append({"ms": (time.perf_counter() - t0) * 1000, "bytes": len(body), "status": r.status})
            except (aiohttp.ClientError, TimeoutError):
                scrapes.append({"ms": (time.perf_counter() - t0) * 1000, "bytes": 0, "status": 0})
            await asyncio.sleep(SCRAPE_EVERY)


def bot_options(args: argparse.Namespace) -> dict[str, Any]:
    """The bot's settings for this run: its polling (:func:`intervals`) and, with
    ``--metrics-run``, its metrics on a free port or off (else as the environment says)."""
    options = intervals(args)
    if args.metrics_run == "on":
        options["metrics_port"] = free_port()
    elif args.metrics_run == "off":
        options["metrics_port"] = None
    return options


def intervals(args: argparse.Namespace) -> dict[str, Any]:
    """The bot's polling: the sandbox's (scheduler every 0.25 s, outbox every 1 s), or
    with ``--deployed-intervals`` the defaults a deployed bot runs with."""
    if not args.deployed_intervals:
        return {}
    from bot.discord.config import DiscordConfig

    return {name: DiscordConfig.model_fields[name].default for name in ("scheduler_max_sleep", "dispatch_interval")}


async def measure(args: argparse.Namespace) -> dict[str, Any]:
    logging.basicConfig(level=logging.ERROR)
    rng = random.Random(args.seed)
    clock = GameClock(1.0)
    cpu0, wall0 = time.process_time(), time.perf_counter()
    from bot.discord.config import DiscordConfig

    options = bot_options(args)
    metrics_port = DiscordConfig(**options).metrics_port
    scrapes: list[dict[str, float]] = []
    if args.split_process:
        from split_bot import SplitTavern

        venue: Tavern = SplitTavern(database_url=args.database, seed=args.seed, profile=args.profile, bot_options=options)
    else:
        venue = Tavern(database_url=args.database, clock=clock, seed=args.seed, bot_options=options)
    async with venue as tavern:
        scraping = asyncio.create_task(scraper(metrics_port, scrapes)) if metrics_port is not None else None
        setup = Stats()
        options = GameOptions(
            day="1h", dusk="1h", morning="1h", advance="deadline", phase_timeout=600
        )
        tables = []
        for i in range(args.games):
            seating = tavern.seat_table(
                TableSpec(players=args.players, name_prefix=f"g{i}-"), f"table-{i}"
            )
            tables.append(TableGame(tavern, seating, options, seed=f"{args.seed}-{i}", stats=setup))
        await open_all(tables)
        live = [g for g in tables if await g.next_phase(1, "day")]
        stats = Stats()
        for g in tables:
            for p in [*g.players, g.moderator]:
                p.stats = stats
                p.answer_timeout = 300.0  # measure every answer, however late
        deadlines: list[dict[str, float]] = []
        turn_requests = 0  # requests the bot made to Discord during the players' turns
        round_no, phase = 1, "day"
        phase_started = time.perf_counter()
        while live and round_no <= args.rounds:

            async def turn(p: Any, delay: float, r: int = round_no, ph: str = phase) -> None:
                await asyncio.sleep(delay)
                if args.command:
                    for _ in range(3):
                        await p.command(args.command)
                else:
                    await p.turn(ph, r)

            if args.split_process:
                await tavern.bot.mark()
            requests_before = len(tavern.emu.requests)
            await asyncio.gather(
                *(
                    turn(p, rng.uniform(0, args.window))
                    for g in live
                    for p in g.players
                    if p.alive and not p.over
                )
            )
            turn_requests += len(tavern.emu.requests) - requests_before
            if args.split_process:
                await tavern.bot.mark()
            # The deadline of every live game passes at once.
            before = len(tavern.emu.messages)
            t0_wall, t0 = time.time(), time.perf_counter()
            if args.split_process:
                await tavern.bot.skip(PHASE_HOURS + 60)
            else:
                clock.skip(PHASE_HOURS + 60)
                tavern.bot.wake_scheduler()
            nxt_phase = NEXT_PHASE[phase]
            nxt_round = round_no + (nxt_phase == "day")
            still = []
            for g in live:
                if await g.next_phase(nxt_round, nxt_phase):
                    still.append(g)
            await tavern.drained(timeout=600)
            new = [m for m in tavern.emu.messages[before:] if m.interaction_id is None]
            stamps = [m.timestamp.timestamp() for m in new] or [t0_wall]
            deadlines.append(
                {
                    "first": min(stamps) - t0_wall,
                    "seconds": max(stamps) - t0_wall,
                    "messages": len(new),
                    "waited": time.perf_counter() - t0,
                }
            )
            live, round_no, phase = still, nxt_round, nxt_phase
        played = time.perf_counter() - phase_started
        over = sum(
            1
            for g in tables
            if any(reader.is_game_over(m) for m in tavern.public(g.seating.channel))
        )
        errors = len(tavern.emu.server_errors)
        if scraping is not None:
            scraping.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await scraping
    # Percentiles over every interaction: one never acknowledged counts as infinitely late.
    acks = stats.ack + [float("inf")] * stats.failed
    own = {
        "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
        "cpu_s": time.process_time() - cpu0,
    }
    bot_usage = getattr(venue, "bot_usage", None) or own
    # The stretches between marks are the players' turns: the bot's cost per interaction.
    marks = bot_usage.get("marks", [])
    spans = list(zip(marks[::2], marks[1::2], strict=False))
    turn_cpu = sum(b["cpu_s"] - a["cpu_s"] for a, b in spans)
    turn_sql = sum(b["statements"] - a["statements"] for a, b in spans)
    turn_units = {kind: sum(b.get(kind, 0) - a.get(kind, 0) for a, b in spans) for kind in ("writing_units", "reading_units")}
    per = max(stats.interactions, 1)
    return {
        "games": args.games,
        "players": args.players,
        "window": args.window,
        "interactions": stats.interactions,
        "command": args.command,
        "by_kind": dict(sorted(stats.by_kind.items())),
        "offered_per_s": stats.interactions / played if played else 0.0,
        "ack_p50_ms": pct(acks, 0.50) * 1000,
        "ack_p99_ms": pct(acks, 0.99) * 1000,
        "answer_p50_ms": pct(stats.final, 0.50) * 1000,
        "answer_p99_ms": pct(stats.final, 0.99) * 1000,
        "unanswered": stats.failed,
        "late": stats.late,
        "refused": len(stats.refusals),
        "deadline_to_first_s": max((d["first"] for d in deadlines), default=0.0),
        "deadline_to_last_s": max((d["seconds"] for d in deadlines), default=0.0),
        "deadline_messages": max((int(d["messages"]) for d in deadlines), default=0),
        "deadline_median_s": statistics.median([d["seconds"] for d in deadlines])
        if deadlines
        else 0.0,
        "games_over": over,
        "peak_rss_mb": bot_usage["peak_rss_mb"],
        "cpu_s": bot_usage["cpu_s"],
        "cpu_ms_per_interaction": turn_cpu * 1000 / per if spans else None,
        "sql_per_interaction": turn_sql / per if spans else None,
        "writing_units_per_interaction": turn_units["writing_units"] / per if spans else None,
        "reading_units_per_interaction": turn_units["reading_units"] / per if spans else None,
        "requests_per_interaction": turn_requests / per,
        "bot_marks": marks,
        "split_process": bool(args.split_process),
        "intervals": intervals(args) or "sandbox",
        "metrics": "on" if metrics_port is not None else "off",
        "scrapes": len(scrapes),
        "scrape_ms_max": max((x["ms"] for x in scrapes), default=None),
        "scrape_bytes": max((int(x["bytes"]) for x in scrapes), default=None),
        "scrapes_failed": sum(1 for x in scrapes if x["status"] != 200),
        "harness_cpu_s": own["cpu_s"] if args.split_process else None,
        "harness_peak_rss_mb": own["peak_rss_mb"] if args.split_process else None,
        "wall_s": time.perf_counter() - wall0,
        "emulator_errors": errors,
    }


HEADER = (
    f"{'games':>5} {'players':>7} {'window':>6} {'interactions':>12} {'offered/s':>9} {'ack p50':>8} {'ack p99':>8} "
    f"{'not acked':>9} {'answer p50':>10} {'answer p99':>10} {'deadline→first':>14} {'→last msg':>9} {'msgs':>5} "
    f"{'peak RSS':>8} {'CPU s':>6} {'CPU/int':>8} {'SQL/int':>7}"
)


def ms(value: float) -> str:
    return ">3s" if value == float("inf") else f"{value:.0f}ms"


def row(r: dict[str, Any]) -> str:
    return (
        f"{r['games']:>5} {r['games'] * r['players']:>7} {r['window']:>5.0f}s {r['interactions']:>12} "
        f"{r['offered_per_s']:>9.1f} {ms(r['ack_p50_ms']):>8} {ms(r['ack_p99_ms']):>8} {r['unanswered']:>9} "
        f"{r['answer_p50_ms']:>8.0f}ms {r['answer_p99_ms']:>8.0f}ms {r['deadline_to_first_s']:>13.2f}s "
        f"{r['deadline_to_last_s']:>8.2f}s {r['deadline_messages']:>5} {r['peak_rss_mb']:>6.0f}MB {r['cpu_s']:>6.0f} "
        + (f"{r['cpu_ms_per_interaction']:>6.1f}ms {r['sql_per_interaction']:>7.1f}" if r["cpu_ms_per_interaction"] is not None else f"{'-':>8} {'-':>7}")
    )


async def pg_scratch(server: str) -> tuple[str, str]:
    """(maintenance URL, URL of a new empty database) on ``server``."""
    import uuid

    import asyncpg

    name = f"wolfhowl_bench_{uuid.uuid4().hex[:10]}"
    conn = await asyncpg.connect(server, timeout=10)
    try:
        await conn.execute(f'CREATE DATABASE "{name}"')
    finally:
        await conn.close()
    return server, server.rsplit("/", 1)[0] + f"/{name}"


async def pg_drop(server: str, url: str) -> None:
    import asyncpg

    conn = await asyncpg.connect(server, timeout=10)
    try:
        await conn.execute(f'DROP DATABASE IF EXISTS "{url.rsplit("/", 1)[1]}" WITH (FORCE)')
    finally:
        await conn.close()


def run_child(cmd: list[str], postgres: str | None) -> subprocess.CompletedProcess[str]:
    """Run a bench's child process, on a scratch PostgreSQL database of ``postgres`` (made
    before, dropped after) when given."""
    scratch = asyncio.run(pg_scratch(postgres)) if postgres else None
    try:
        return subprocess.run([*cmd, *(["--database", scratch[1]] if scratch else [])], capture_output=True, text=True)
    finally:
        if scratch is not None:
            asyncio.run(pg_drop(*scratch))


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--games", default="1,10,100", help="comma-separated K values (default 1,10,100)"
    )
    parser.add_argument("--players", type=int, default=6, help="players per game (default 6)")
    parser.add_argument(
        "--window", type=float, default=60.0, help="seconds over which a phase's turns are spread"
    )
    parser.add_argument("--rounds", type=int, default=1, help="rounds played per game (default 1)")
    parser.add_argument("--seed", default="load")
    parser.add_argument("--database", help="database URL (default: a temporary SQLite file per K)")
    parser.add_argument(
        "--postgres",
        metavar="SERVER",
        nargs="?",
        const="postgresql://postgres@127.0.0.1:5432/test",
        help="a scratch PostgreSQL database per K on this server (default 127.0.0.1:5432), dropped after",
    )
    parser.add_argument(
        "--json", action="store_true", help="print one JSON object per K instead of the table"
    )
    parser.add_argument(
        "--split-process",
        action="store_true",
        help="run the bot in its own process (RSS and CPU are then the bot's alone)",
    )
    parser.add_argument(
        "--profile",
        metavar="FILE",
        help="with --split-process: cProfile the bot during the first round's turns into FILE",
    )
    parser.add_argument(
        "--deployed-intervals",
        action="store_true",
        help="the bot polls at its deployed defaults (scheduler_max_sleep, dispatch_interval), not the sandbox's 0.25 s and 1 s",
    )
    parser.add_argument(
        "--command",
        metavar="NAME",
        help="each player sends /NAME three times instead of their turn (the floor: --command help)",
    )
    parser.add_argument(
        "--metrics",
        action="store_true",
        help="for each K, four runs with the Prometheus metrics off, on, off, on (scraped every 15 s when on); prints the on/off ratio",
    )
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--metrics-run", choices=("on", "off"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        args.games = int(args.games)
        print(json.dumps(asyncio.run(measure(args))))
        return 0
    if not args.json:
        print(HEADER, flush=True)
    for k in (int(x) for x in args.games.split(",")):
        runs: list[dict[str, Any]] = []
        for variant in ("off", "on", "off", "on") if args.metrics else (None,):
            result = child_run(args, k, variant)
            if result is None:
                return 1
            runs.append(result)
            print(json.dumps(result) if args.json else row(result), flush=True)
        if args.metrics:
            print(metrics_summary(runs), file=sys.stderr if args.json else sys.stdout, flush=True)
    return 0


def child_run(args: argparse.Namespace, k: int, metrics_run: str | None) -> dict[str, Any] | None:
    """One K in a fresh process (``metrics_run``: the metrics "on" or "off", or as the
    environment says); its JSON, or None when it failed (said on stderr)."""
    cmd = [sys.executable, __file__, "--child", "--games", str(k), "--players", str(args.players),
           "--window", str(args.window), "--rounds", str(args.rounds), "--seed", args.seed]  # fmt: skip
    if args.split_process:
        cmd.append("--split-process")
    if args.deployed_intervals:
        cmd.append("--deployed-intervals")
    if args.profile:
        cmd += ["--profile", str(Path(args.profile).resolve())]
    if args.command:
        cmd += ["--command", args.command]
    if metrics_run:
        cmd += ["--metrics-run", metrics_run]
    if args.database and not args.postgres:
        cmd += ["--database", args.database]
    out = run_child(cmd, args.postgres)
    if out.returncode != 0:
        print(f"K={k}: failed\n{out.stderr[-2000:]}", file=sys.stderr)
        return None
    result: dict[str, Any] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


def metrics_summary(runs: list[dict[str, Any]]) -> str:
    """The bot's CPU per interaction of the off, on, off, on runs and the on/off ratio of
    each pair (off then on) and of their sums."""
    cpu = [r["cpu_ms_per_interaction"] for r in runs]
    if any(c is None for c in cpu):
        return "metrics: no CPU per interaction (run with --split-process)"
    off, on = cpu[0::2], cpu[1::2]
    pairs = " / ".join(f"{b / a:.3f}" for a, b in zip(off, on, strict=True))
    scrapes = [r["scrapes"] for r in runs if r["metrics"] == "on"]
    return (
        f"metrics: CPU per interaction off {' / '.join(f'{c:.2f}' for c in off)} ms, "
        f"on {' / '.join(f'{c:.2f}' for c in on)} ms (scrapes {' / '.join(map(str, scrapes))}); "
        f"on/off per pair {pairs}, overall {sum(on) / sum(off):.3f}"
    )

if __name__ == "__main__":
    sys.exit(main())
