"""Live and recent games at a glance, for an operator (``wolfhowl games``): where each
game is (server and channel ids), how far it is (status, round, phase, deadline) and
whether messages are waiting in the outbox. Nothing secret: no class, faction or score."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from bot.db.repos import ops as ops_repo
from bot.db.session import Database


@dataclass(frozen=True, slots=True)
class GameLine:
    id: int
    guild_id: int | None  # None: a practice game
    channel_id: int
    status: str  # lobby, running, paused, over, cancelled
    round: int
    phase: str | None
    deadline: datetime | None
    paused_remaining: int | None
    players: int
    waiting: int  # outbox messages not yet delivered (posts and DMs)
    oldest_waiting: datetime | None
    created_at: datetime
    ended_at: datetime | None
    end_reason: str | None


async def games_overview(db: Database, *, recent_days: float = 7) -> list[GameLine]:
    """Every live game, and those that ended or were cancelled within ``recent_days``;
    newest first."""
    since = db.now() - timedelta(days=recent_days)
    async with db.read() as s:
        games = await ops_repo.live_and_recent_games(s, since)
        ids = [g.id for g in games]
        waiting = await ops_repo.waiting_by_game(s, ids)
        players = await ops_repo.players_by_game(s, ids)
    return [
        GameLine(
            id=g.id, guild_id=g.guild_id, channel_id=g.channel_id, status=g.status, round=g.round, phase=g.phase,
            deadline=g.phase_deadline, paused_remaining=g.paused_remaining, players=int(players.get(g.id, 0)),
            waiting=int(waiting.get(g.id, (0, None))[0]), oldest_waiting=waiting.get(g.id, (0, None))[1],
            created_at=g.created_at, ended_at=g.ended_at, end_reason=g.end_reason,
        )
        for g in games
    ]
