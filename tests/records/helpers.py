"""What the records tests compare: every record and standing as plain tuples."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select

from bot.db.models import GameRecord, PlayerStanding, SeatRecord
from bot.db.session import Database
from bot.features.stats.stats import (
    FORM_GAMES,
    RECENT_GAMES,
    Group,
    PlayerStats,
    RecentGame,
    from_groups,
)

SEAT_COLUMNS = (
    "game_id", "guild_id", "user_id", "name", "ai", "seat", "class_id", "faction", "result", "fate",
    "kills", "teamkills", "steals", "grails", "rounds", "faction_score", "ended_at",
    "phases_asked", "phases_sent", "phases_abandoned",
)
GAME_COLUMNS = (
    "game_id", "guild_id", "channel_id", "language", "players", "rounds", "winners", "scores", "end_reason",
    "seed", "started_at", "ended_at",
)
STANDING_COLUMNS = ("guild_id", "user_id", "games", "wins", "win_rate", "mu", "sigma", "rating", "last_game_id")


async def snapshot(db: Database) -> dict[str, Any]:
    """Every record and standing, in a stable order (row ids left out)."""
    async with db.read() as s:
        seats = (await s.execute(select(SeatRecord))).scalars().all()
        games = (await s.execute(select(GameRecord))).scalars().all()
        standings = (await s.execute(select(PlayerStanding))).scalars().all()
    return {
        "seats": sorted((tuple(getattr(r, c) for c in SEAT_COLUMNS) for r in seats), key=repr),
        "games": sorted((tuple(getattr(r, c) for c in GAME_COLUMNS) for r in games), key=repr),
        "standings": sorted(tuple(getattr(r, c) for c in STANDING_COLUMNS) for r in standings),
    }


def summarise(user_id: int, guild_id: int | None, rows: list[SeatRecord], rating: float | None) -> PlayerStats:
    """The stats of one player's counted records (newest first) added up here, in
    Python, where ``player_stats`` adds them up in the database: the tests' reference."""
    groups: dict[tuple[str, str], list[SeatRecord]] = {}
    for r in rows:
        groups.setdefault((r.faction, r.class_id), []).append(r)
    added = [
        Group(
            faction, class_id, len(rs), sum(r.result != "loss" for r in rs), sum(r.fate == "survived" for r in rs),
            sum(r.kills for r in rs), sum(r.teamkills for r in rs), sum(r.steals for r in rs), sum(r.grails for r in rs),
        )
        for (faction, class_id), rs in groups.items()
    ]  # fmt: skip
    recent = [RecentGame(r.game_id, r.ended_at, r.class_id, r.faction, r.result, r.fate) for r in rows[: max(FORM_GAMES, RECENT_GAMES)]]
    return from_groups(user_id, guild_id, added, recent, rating)
