"""/stats adds a player's records up in the database (by faction and class) and reads
only their last games: the figures are exactly those of the records themselves, in one
server or all, leaving out what does not count (an AI seat, a seat left by replacement)."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

from sqlalchemy import insert, select

from bot.db.models import Game, GameRecord, SeatRecord, User
from bot.db.session import Database
from bot.features.records.ratings import counts
from bot.features.stats.stats import player_stats
from engine.classes import catalogue
from tests.records.helpers import summarise

START = datetime(2026, 1, 1, tzinfo=UTC)


async def _fill(db: Database) -> None:
    rng = random.Random("stats-reads")
    classes = sorted(catalogue())
    now = datetime.now(UTC)
    games, records, seats = [], [], []
    for g in range(1, 61):
        guild = 1 if g % 4 else 2
        ended = START + timedelta(hours=g // 2)  # two games end at each hour: ties by game id
        games.append({
            "id": g, "guild_id": guild, "channel_id": 10, "active_channel_id": None, "moderator_id": 1, "settings": {},
            "language": "en-US", "secret_seed": f"s-{g}", "seed_sha256": "0" * 64, "status": "over", "phase": "over",
            "round": 3, "state": None, "version": 1, "notice_seq": 0, "end_reason": "score", "created_at": ended,
            "started_at": ended, "ended_at": ended,
        })  # fmt: skip
        records.append({
            "game_id": g, "guild_id": guild, "channel_id": 10, "language": "en-US", "players": 6, "rounds": 3,
            "winners": ["lawful"], "scores": {}, "end_reason": "score", "seed": f"s-{g}", "started_at": ended, "ended_at": ended,
        })  # fmt: skip
        for seat in range(1, 7):
            user = {1: 7, 2: 8, 3: 9}.get(seat) if rng.random() < 0.8 else None  # one seat each a game
            seats.append({
                "game_id": g, "guild_id": guild, "user_id": user, "name": "x", "ai": user is None,
                "seat": seat, "class_id": rng.choice(classes), "faction": rng.choice(("lawful", "neutral", "chaotic")),
                "result": rng.choice(("win", "loss", "shared", "loss")), "fate": rng.choice(("survived", "killed", "replaced", "voted_out")),
                "kills": rng.randint(0, 2), "teamkills": int(rng.random() < 0.2), "steals": rng.randint(0, 1),
                "grails": rng.randint(0, 3), "rounds": 3, "faction_score": 9, "ended_at": ended,
            })  # fmt: skip
    async with db.transaction() as s:
        await s.execute(insert(User), [{"id": u, "display_name": f"u{u}", "locale": None, "created_at": now, "updated_at": now} for u in (1, 7, 8, 9)])
        for table, rows in ((Game, games), (GameRecord, records), (SeatRecord, seats)):
            await s.execute(insert(table), rows)


async def test_the_stats_added_up_in_the_database_are_those_of_the_records(db: Database) -> None:
    await _fill(db)
    async with db.read() as s:
        every = list((await s.execute(select(SeatRecord).order_by(SeatRecord.ended_at.desc(), SeatRecord.game_id.desc()))).scalars())
    for user in (7, 8):
        for guild in (1, 2, None):
            mine = [r for r in every if r.user_id == user and (guild is None or r.guild_id == guild) and counts(r)]
            assert len(mine) > 5 and len(mine) < len([r for r in every if r.user_id == user])
            got = await player_stats(db, user, user, guild)
            want = summarise(user, guild, mine, got.rating)
            assert got == want, (user, guild)


async def test_each_leaderboard_page_and_the_callers_place_follow_the_order(db: Database) -> None:
    """Ties on the sort's first figure, hidden profiles and the win rate's minimum: the
    pages, counted and read in one statement, and the caller's place, counted beside
    their row, are those of the whole board sorted in memory."""
    from bot.db.models import PlayerProfile, PlayerStanding
    from bot.features.stats.leaderboard import ORDERS, PAGE_SIZE, leaderboard

    rng = random.Random("board")
    now = datetime.now(UTC)
    users = list(range(100, 137))
    standings = []
    for u in users:
        games = rng.randint(1, 12)
        wins = rng.randint(0, games)
        standings.append({"guild_id": 1, "user_id": u, "games": games, "wins": wins, "win_rate": wins / games,
                          "mu": 25.0, "sigma": 8.0, "rating": float(rng.randint(-3, 3)), "last_game_id": 1})  # fmt: skip
    hidden = set(users[::7])
    async with db.transaction() as s:
        await s.execute(insert(User), [{"id": u, "display_name": f"u{u}", "locale": None, "created_at": now, "updated_at": now} for u in users])
        await s.execute(insert(PlayerStanding), standings)
        await s.execute(insert(PlayerProfile), [{"user_id": u, "hidden": u in hidden, "updated_at": now} for u in sorted(set(users[::3]) | hidden)])
    for sort in ORDERS:  # the standings' orders (the predictions board: tests/service/test_predictions.py)
        shown = [r for r in standings if r["user_id"] not in hidden and (sort != "win_rate" or r["games"] >= 5)]
        for column, desc in reversed(ORDERS[sort]):  # stable sorts, the last key first
            shown.sort(key=lambda r, c=column: r[c], reverse=desc)
        order = [r["user_id"] for r in shown]
        pages = -(-len(order) // PAGE_SIZE)
        for page in range(1, pages + 1):
            viewer = users[(page * 5) % len(users)]
            board = await leaderboard(db, 1, sort, page, min_games=5, viewer_id=viewer)
            assert (board.total, board.pages) == (len(order), pages)
            assert [r.user_id for r in board.rows] == order[(page - 1) * PAGE_SIZE : page * PAGE_SIZE]
            assert [r.rank for r in board.rows] == list(range((page - 1) * PAGE_SIZE + 1, (page - 1) * PAGE_SIZE + 1 + len(board.rows)))
            if viewer in order and viewer not in [r.user_id for r in board.rows]:
                assert board.own is not None and board.own.rank == order.index(viewer) + 1, (sort, page, viewer)
            else:
                assert board.own is None
