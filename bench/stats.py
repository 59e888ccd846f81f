"""/stats and /leaderboard against a community's worth of records.

    .venv/bin/python bench/stats.py [--games 10000] [--players 2000] [--queries 300]
                                    [--seasons 4] [--sqlite] [--postgres [SERVER]] [--json]

Builds a scratch database (a temporary SQLite file, and/or a scratch PostgreSQL database
on SERVER, default 127.0.0.1:5432, dropped after) migrated to head, with ``--games``
finished games in one server among ``--players`` players (6 to 15 seats a game, some
players far busier than others, as on a real server): their ``games`` rows, game and seat
records, the games split in order among ``--seasons`` seasons (the last one open), and
the standings, all-time and per season, replayed from those records with OpenSkill, as
``wolfhowl db ratings --rebuild`` does. Then times, on a warm connection pool:

* ``stats``: ``bot.features.stats.stats.player_stats`` for a random player, in this server
  (with their seasons, ranked on each season's board);
* ``stats_all``: the same over every server;
* ``leaderboard``: ``bot.features.stats.leaderboard.leaderboard`` for a random sort and page,
  with the caller's own row (a random player);
* ``leaderboard_season``: the same on a random season's board;
* ``stats_chart``: rendering a /stats chart (matplotlib, no database), for scale.

and prints p50 and p99 in milliseconds for each. Without ``--sqlite``/``--postgres`` it
runs both (PostgreSQL skipped, saying why, when no server answers).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sqlalchemy import insert

from bench.bot_load import pg_drop, pg_scratch
from bot.db.migrate import upgrade
from bot.db.models import Game, GameRecord, Season, SeasonGame, SeatRecord, User
from bot.db.session import Database
from bot.features.records.ratings import rebuild_standings
from bot.features.stats.leaderboard import SORTS, leaderboard
from bot.features.stats.stats import player_stats
from engine.classes import catalogue

GUILD = 5000
CHANNEL = 6000
FACTIONS = ("lawful", "neutral", "chaotic")
FATES = ("survived", "killed", "voted_out", "killed", "survived", "removed")
START = datetime(2025, 1, 1, tzinfo=UTC)


def synthetic(games: int, players: int, seed: str) -> tuple[list[dict[str, Any]], list[dict[str, Any]], list[dict[str, Any]]]:
    """Rows for ``games``, ``game_records`` and ``seat_records``."""
    rng = random.Random(seed)
    classes = sorted(catalogue())
    users = list(range(1, players + 1))
    weights = [1 / (i ** 0.6) for i in users]  # a few regulars, many occasional players
    game_rows, record_rows, seat_rows = [], [], []
    for g in range(1, games + 1):
        ended = START + timedelta(hours=g)
        n = rng.randint(6, 15)
        seated: set[int] = set()
        while len(seated) < n:
            seated.update(rng.choices(users, weights, k=n - len(seated)))
        scores = {f: rng.randint(0, 22) for f in FACTIONS}
        top = max(scores.values())
        winners = [f for f in FACTIONS if scores[f] == top]
        game_rows.append({
            "id": g, "guild_id": GUILD, "channel_id": CHANNEL, "active_channel_id": None, "moderator_id": 1,
            "settings": {}, "language": "en-US", "secret_seed": f"bench-{g}", "seed_sha256": "0" * 64, "status": "over",
            "phase": "over", "round": rng.randint(2, 8), "state": None, "version": 1, "notice_seq": 0,
            "end_reason": "score", "created_at": ended - timedelta(days=2), "started_at": ended - timedelta(days=2),
            "ended_at": ended,
        })  # fmt: skip
        record_rows.append({
            "game_id": g, "guild_id": GUILD, "channel_id": CHANNEL, "language": "en-US", "players": n,
            "rounds": game_rows[-1]["round"], "winners": winners, "scores": scores, "end_reason": "score",
            "seed": f"bench-{g}", "started_at": ended - timedelta(days=2), "ended_at": ended,
        })  # fmt: skip
        for seat, user in enumerate(sorted(seated), start=1):
            faction = FACTIONS[seat % 3]
            result = "loss" if faction not in winners else "shared" if len(winners) > 1 else "win"
            seat_rows.append({
                "game_id": g, "guild_id": GUILD, "user_id": user, "name": f"player{user}", "ai": False, "seat": seat,
                "class_id": rng.choice(classes), "faction": faction, "result": result, "fate": rng.choice(FATES),
                "kills": rng.randint(0, 2), "teamkills": int(rng.random() < 0.05), "steals": rng.randint(0, 1),
                "grails": rng.randint(0, 2), "rounds": rng.randint(1, 8), "faction_score": scores[faction],
                "ended_at": ended,
            })  # fmt: skip
    return game_rows, record_rows, seat_rows


def season_rows(games: int, seasons: int) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Rows for ``seasons`` (the games split in order among them, the last one open) and
    ``season_games``."""
    per = max(1, games // max(1, seasons))
    rows, counted = [], []
    for n in range(1, seasons + 1):
        first, last = (n - 1) * per + 1, games if n == seasons else n * per
        is_open = n == seasons
        rows.append({
            "id": n, "guild_id": GUILD, "number": n, "name": f"Season {n}", "language": "en-US",
            "open_guild_id": GUILD if is_open else None, "started_at": START + timedelta(hours=first - 1), "started_by": 1,
            "ended_at": None if is_open else START + timedelta(hours=last, minutes=30), "ended_by": None if is_open else 1,
            "summary": None,
        })  # fmt: skip
        counted += [{"game_id": g, "season_id": n} for g in range(first, last + 1)]
    return rows, counted


async def build(url: str, games: int, players: int, seed: str, seasons: int = 0) -> float:
    """Migrate and fill the database; returns the seconds the standings' replay took."""
    await upgrade(url)
    game_rows, record_rows, seat_rows = synthetic(games, players, seed)
    seasons_, counted = season_rows(games, seasons) if seasons else ([], [])
    db = Database(url)
    try:
        async with db.transaction() as s:
            now = datetime.now(UTC)
            await s.execute(insert(User), [{"id": u, "display_name": f"player{u}", "locale": None, "created_at": now, "updated_at": now} for u in range(1, players + 1)])
            for table, rows in ((Game, game_rows), (GameRecord, record_rows), (SeatRecord, seat_rows), (Season, seasons_), (SeasonGame, counted)):
                for i in range(0, len(rows), 2000):
                    await s.execute(insert(table), rows[i : i + 2000])
        started = time.perf_counter()
        async with db.transaction() as s:
            await rebuild_standings(s)
        return time.perf_counter() - started
    finally:
        await db.dispose()


async def timed(n: int, call: Callable[[], Awaitable[Any]]) -> list[float]:
    out = []
    for _ in range(n):
        started = time.perf_counter()
        await call()
        out.append((time.perf_counter() - started) * 1000)
    return out


def percentiles(ms: list[float]) -> dict[str, float]:
    ordered = sorted(ms)
    return {"p50_ms": round(statistics.median(ordered), 2), "p99_ms": round(ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))], 2)}


async def measure(url: str, backend: str, args: argparse.Namespace) -> dict[str, Any]:
    replay_s = await build(url, args.games, args.players, args.seed, args.seasons)
    rng = random.Random(args.seed)
    db = Database(url)
    try:
        pages = {sort: (await leaderboard(db, GUILD, sort, 1, min_games=5)).pages for sort in SORTS}
        standing = [s for s in SORTS if s != "predictions"]
        season_pages = {
            (n, sort): (await leaderboard(db, GUILD, sort, 1, min_games=5, season=n)).pages
            for n in range(1, args.seasons + 1) for sort in standing
        }

        async def season_board() -> Any:
            n, sort = rng.randint(1, args.seasons), rng.choice(standing)
            page = rng.randint(1, season_pages[n, sort])
            return await leaderboard(db, GUILD, sort, page, min_games=5, viewer_id=rng.randint(1, args.players), season=n)

        async def stats(everywhere: bool = False) -> Any:
            user = rng.randint(1, args.players)
            return await player_stats(db, user, user, None if everywhere else GUILD)

        async def board() -> Any:
            sort = rng.choice(SORTS)
            page = rng.randint(1, pages[sort])
            return await leaderboard(db, GUILD, sort, page, min_games=5, viewer_id=rng.randint(1, args.players))

        for _ in range(20):  # warm the pool and the caches
            await stats()
            await board()
        row: dict[str, Any] = {"backend": backend, "games": args.games, "players": args.players, "queries": args.queries}
        row["replay_s"] = round(replay_s, 2)
        row["stats"] = percentiles(await timed(args.queries, stats))
        row["stats_all"] = percentiles(await timed(args.queries, lambda: stats(True)))
        row["leaderboard"] = percentiles(await timed(args.queries, board))
        row["seasons"] = args.seasons
        if args.seasons:
            row["leaderboard_season"] = percentiles(await timed(args.queries, season_board))
        if args.chart:
            from bot.features.stats.look import chart_png

            sample = await stats()
            row["stats_chart"] = percentiles(await timed(max(10, args.queries // 10), lambda: asyncio.sleep(0, chart_png(sample, "zh-CN"))))
        return row
    finally:
        await db.dispose()


def show(row: dict[str, Any]) -> str:
    parts = [
        f"{row['backend']:<10} {row['games']} games, {row['players']} players, {row['seasons']} seasons, {row['queries']} queries each;"
        f" ratings replayed in {row['replay_s']} s"
    ]
    for key in ("stats", "stats_all", "leaderboard", "leaderboard_season", "stats_chart"):
        if key in row:
            parts.append(f"  {key:<18} p50 {row[key]['p50_ms']:>7.2f} ms   p99 {row[key]['p99_ms']:>7.2f} ms")
    return "\n".join(parts)


def main() -> int:
    from bot import features

    features.load()  # every feature's handlers, as the bot's start does
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--players", type=int, default=2_000)
    parser.add_argument("--queries", type=int, default=300, help="timed calls of each kind (default 300)")
    parser.add_argument("--seed", default="stats-bench")
    parser.add_argument("--seasons", type=int, default=4, help="seasons the games are split among, the last one open (default 4; 0: none)")
    parser.add_argument("--sqlite", action="store_true", help="run on a temporary SQLite file")
    parser.add_argument("--postgres", metavar="SERVER", nargs="?", const="postgresql://postgres@127.0.0.1:5432/test",
                        help="run on a scratch PostgreSQL database on this server (default 127.0.0.1:5432)")  # fmt: skip
    parser.add_argument("--no-chart", dest="chart", action="store_false", help="do not time the chart's drawing")
    parser.add_argument("--json", action="store_true", help="one JSON object per backend")
    args = parser.parse_args()
    both = not args.sqlite and not args.postgres
    rows = []
    if args.sqlite or both:
        with tempfile.TemporaryDirectory(prefix="wolfhowl-stats-bench-") as tmp:
            rows.append(asyncio.run(measure(f"sqlite+aiosqlite:///{tmp}/bench.sqlite3", "sqlite", args)))
            print(json.dumps(rows[-1]) if args.json else show(rows[-1]), flush=True)
    if args.postgres or both:
        server = args.postgres or "postgresql://postgres@127.0.0.1:5432/test"
        try:
            scratch = asyncio.run(pg_scratch(server))
        except Exception as exc:  # no server: say so (both backends were asked for by default)
            if args.postgres:
                raise
            print(f"postgresql skipped: {exc}", file=sys.stderr)
            return 0
        try:
            rows.append(asyncio.run(measure(scratch[1], "postgresql", args)))
            print(json.dumps(rows[-1]) if args.json else show(rows[-1]), flush=True)
        finally:
            asyncio.run(pg_drop(scratch[0], scratch[1]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
