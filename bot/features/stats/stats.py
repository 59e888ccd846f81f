"""``/stats``: a player's record, read from the finished games' records only.

Nothing here reads a live game: the figures come from ``seat_records`` (written in the
transaction that ends a game) and ``player_standings`` (the ratings, moved in that same
transaction), so no number can change while a game the player is in is running.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass, field
from datetime import datetime

from sqlalchemy.ext.asyncio import AsyncSession

from bot.core.types import check_id
from bot.db.models import PlayerProfile
from bot.db.repos import stats as stats_repo
from bot.db.session import Database
from bot.features.records.reliability import Reliability, reliability_of
from bot.features.seasons.seasons import SeasonInfo
from bot.features.stats.errors import NoRecordsError, ProfileHiddenError
from bot.features.stats.leaderboard import season_places

# A win rate's 95% interval is shown from this many games on (fewer say too little).
INTERVAL_MIN_GAMES = 5
RECENT_GAMES = 5  # listed as "last games"
FORM_GAMES = 20  # drawn as the form chart


@dataclass(frozen=True)
class Tally:
    games: int = 0
    wins: int = 0

    @property
    def rate(self) -> float:
        return self.wins / self.games if self.games else 0.0


@dataclass(frozen=True)
class RecentGame:
    game_id: int
    ended_at: datetime
    class_id: str
    faction: str
    result: str
    fate: str


@dataclass(frozen=True)
class PlayerStats:
    user_id: int
    guild_id: int | None  # None: every server
    games: int
    wins: int
    interval: tuple[float, float] | None
    survived: int
    kills: int
    teamkills: int
    steals: int
    grails: int
    favourite_class: str | None
    rating: float | None
    by_faction: dict[str, Tally] = field(default_factory=dict)
    by_class: dict[str, Tally] = field(default_factory=dict)
    recent: list[RecentGame] = field(default_factory=list)
    form: list[str] = field(default_factory=list)  # results, oldest first
    # Phases sent of those asked over the last games (bot.features.records.reliability).
    reliability: Reliability = field(default_factory=Reliability)
    # The server's seasons the player played in, the latest first (one server only).
    seasons: list[PlayerSeason] = field(default_factory=list)

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0


def wilson(wins: int, games: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a win rate (95% with the default ``z``)."""
    if games <= 0:
        return (0.0, 1.0)
    p = wins / games
    denom = 1 + z * z / games
    centre = (p + z * z / (2 * games)) / denom
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


async def is_hidden(session: AsyncSession, user_id: int) -> bool:
    profile = await session.get(PlayerProfile, user_id)
    return bool(profile and profile.hidden)


async def player_stats(
    db: Database, viewer_id: int, user_id: int, guild_id: int | None, *, name: str = ""
) -> PlayerStats:
    """``user_id``'s stats in ``guild_id`` (None: every server), as ``viewer_id`` may see
    them: a hidden profile asked by someone else is ProfileHiddenError; a player with no
    finished game there NoRecordsError (``name`` words both)."""
    check_id(viewer_id, "user")
    check_id(user_id, "user")
    async with db.read() as s:
        hidden, rating, groups = await _groups(s, user_id, guild_id)
        if not groups:
            hidden = await is_hidden(s, user_id)
        if viewer_id != user_id and hidden:
            raise ProfileHiddenError(name=name)
        if not groups:
            raise NoRecordsError(name=name)
        recent = await _recent(s, user_id, guild_id)
        reliability = await reliability_of(s, user_id, guild_id)
        seasons = [] if guild_id is None else await player_seasons(s, user_id, guild_id)
    found = from_groups(user_id, guild_id, groups, recent, rating, reliability)
    return dataclasses.replace(found, seasons=seasons)


@dataclass(frozen=True)
class PlayerSeason:
    """A player's part in one season: games, wins, rating and place on its board (None
    while their profile is hidden), and the awards they won in it (once ended)."""

    season: SeasonInfo
    games: int
    wins: int
    rating: float
    rank: int | None
    awards: tuple[str, ...]


async def player_seasons(s: AsyncSession, user_id: int, guild_id: int) -> list[PlayerSeason]:
    """The seasons of the server the player played in, the latest first."""
    rows = await stats_repo.season_standings_of(s, user_id, guild_id)
    places = await season_places(s, guild_id, user_id) if rows else {}
    out = []
    for standing, season in rows:
        won = tuple(a["key"] for a in (season.summary or {}).get("awards", []) if user_id in (a.get("users") or []))
        out.append(PlayerSeason(SeasonInfo.of(season), standing.games, standing.wins, standing.rating, places.get(season.id), won))
    return out


@dataclass(frozen=True)
class Group:
    """One player's counted records of one faction and class, added up."""

    faction: str
    class_id: str
    games: int
    wins: int
    survived: int
    kills: int
    teamkills: int
    steals: int
    grails: int


async def _groups(s: AsyncSession, user_id: int, guild_id: int | None) -> tuple[bool, float | None, list[Group]]:
    """The player's records added up by faction and class, in the database: a few dozen
    rows however many games (a regular has thousands); with, in the same statement,
    whether the profile is hidden and the rating in ``guild_id`` (nothing found when the
    player has no record there)."""
    rows = await stats_repo.records_by_faction_and_class(s, user_id, guild_id)
    groups = [Group(f, c, *(int(x or 0) for x in rest)) for _, _, f, c, *rest in rows]
    return (bool(rows[0][0]), rows[0][1], groups) if rows else (False, None, [])


async def _recent(s: AsyncSession, user_id: int, guild_id: int | None) -> list[RecentGame]:
    """The player's last games (as many as the form chart draws), newest first."""
    rows = await stats_repo.last_games(s, user_id, guild_id, max(FORM_GAMES, RECENT_GAMES))
    return [RecentGame(*row) for row in rows]


def from_groups(
    user_id: int, guild_id: int | None, groups: list[Group], recent: list[RecentGame], rating: float | None,
    reliability: Reliability | None = None,
) -> PlayerStats:
    """The stats from the records added up (``_groups``) and the last games, newest
    first (and the reliability read beside them)."""
    games = sum(g.games for g in groups)
    wins = sum(g.wins for g in groups)
    by_faction: dict[str, Tally] = {}
    by_class: dict[str, Tally] = {}
    for g in groups:
        for book, key in ((by_faction, g.faction), (by_class, g.class_id)):
            t = book.get(key, Tally())
            book[key] = Tally(t.games + g.games, t.wins + g.wins)
    favourite = min(by_class, key=lambda c: (-by_class[c].games, c)) if by_class else None
    return PlayerStats(
        user_id=user_id,
        guild_id=guild_id,
        games=games,
        wins=wins,
        interval=wilson(wins, games) if games >= INTERVAL_MIN_GAMES else None,
        survived=sum(g.survived for g in groups),
        kills=sum(g.kills for g in groups),
        teamkills=sum(g.teamkills for g in groups),
        steals=sum(g.steals for g in groups),
        grails=sum(g.grails for g in groups),
        favourite_class=favourite,
        rating=rating,
        by_faction=by_faction,
        by_class=dict(sorted(by_class.items())),
        recent=recent[:RECENT_GAMES],
        form=[r.result for r in reversed(recent[:FORM_GAMES])],
        reliability=reliability or Reliability(),
    )

