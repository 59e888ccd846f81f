"""Seasons: a server's year of games, in numbered stretches a moderator opens and closes
(``/mod season start|end``).

Which games count: a game counts in the season that is open when it ends (the moment
its records are written, ``records.write_records``), whenever it started. A game that
started before a season ended and finishes after counts in the next season if one is
open by then, else in none; a season's end does not wait for the games still running.
Nothing about a live game moves a season: only a game's end does, as for every record.

A season's standings (``season_standings``) move with its games' ends, beside the
all-time ones (``bot.features.records.ratings``, which says how a player's season rating starts).
At its end the season's summary is computed once from the records and kept
(``seasons.summary``): the games and players it counted, the top of its board and its
awards (``bot.features.seasons.awards``); it is posted, through the outbox, in the channel
the season was ended from, in the season's language.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from bot.core.errors import BadArgumentError, ServiceError
from bot.core.messages import SeasonEnded
from bot.core.outbox import post_in_channel
from bot.core.types import UserRef, check_id
from bot.db import repositories as repo
from bot.db.models import Season, SeasonGame
from bot.db.repos import seasons as seasons_repo
from bot.db.session import Database
from bot.features.seasons.awards import Award, awards

MAX_NAME = 60
MAX_SEASON = 10_000  # the highest season number a command takes
TOP = 3  # the board's top in the summary


class SeasonOpenError(ServiceError):
    """``/mod season start`` while a season is open."""

    key = "error.season_open"


class NoSeasonOpenError(ServiceError):
    """``/mod season end`` with no season open."""

    key = "error.no_season_open"


class UnknownSeasonError(ServiceError):
    """A season number the server does not have."""

    key = "error.unknown_season"


@dataclass(frozen=True)
class SeasonInfo:
    id: int
    guild_id: int
    number: int
    name: str | None
    language: str
    started_at: datetime
    ended_at: datetime | None

    @property
    def open(self) -> bool:
        return self.ended_at is None

    @classmethod
    def of(cls, row: Season) -> SeasonInfo:
        return cls(row.id, row.guild_id, row.number, row.name, row.language, row.started_at, row.ended_at)


@dataclass(frozen=True)
class Summary:
    """A season's summary: what its end post shows and ``/stats`` reads back."""

    season: SeasonInfo
    games: int
    players: int
    top: list[dict[str, Any]]  # {"user", "rating", "games", "wins"}
    awards: list[Award]

    def to_json(self) -> dict[str, Any]:
        return {"games": self.games, "players": self.players, "top": self.top, "awards": [a.to_json() for a in self.awards]}


def clean_name(name: Any) -> str | None:
    """A season's name as typed: spaces collapsed, at most ``MAX_NAME`` characters, no
    line breaks; empty is none."""
    if name is None:
        return None
    if not isinstance(name, str):
        raise BadArgumentError(field="name", reason="text")
    text = " ".join(name.split())
    if len(text) > MAX_NAME:
        raise BadArgumentError(field="name", reason=f"at most {MAX_NAME} characters")
    return text or None


async def open_season(s: AsyncSession, guild_id: int) -> Season | None:
    return await seasons_repo.open_season(s, guild_id)


async def count_in_open_season(s: AsyncSession, game_id: int, guild_id: int, ended_at: datetime) -> int | None:
    """Count a game whose records are being written in its server's open season (inside
    the end's transaction); the season's id, or None when none is open or the game ended
    before it opened (a record written late, by ``wolfhowl db backfill``)."""
    season = await open_season(s, guild_id)
    if season is None or ended_at < season.started_at:
        return None
    s.add(SeasonGame(game_id=game_id, season_id=season.id))
    return season.id


async def start_season(db: Database, guild_id: int, by: UserRef, name: Any = None, language: str = "en-US") -> SeasonInfo:
    """Open the server's next season (numbered after its last), named or not; refused
    while one is open (two moderators at once: the second is refused by the database's
    one-open-season constraint)."""
    check_id(guild_id, "guild")
    by = by.checked()
    name = clean_name(name)
    try:
        async with db.transaction() as s:
            current = await open_season(s, guild_id)
            if current is not None:
                raise SeasonOpenError(number=current.number)
            last = await seasons_repo.last_number(s, guild_id)
            row = Season(
                guild_id=guild_id, number=(last or 0) + 1, name=name, language=language, open_guild_id=guild_id,
                started_at=db.now(), started_by=by.id,
            )  # fmt: skip
            s.add(row)
            await s.flush()
            return SeasonInfo.of(row)
    except IntegrityError:
        async with db.read() as s:
            current = await open_season(s, guild_id)
        raise SeasonOpenError(number=current.number if current else "?") from None


async def end_season(db: Database, guild_id: int, by: UserRef, channel_id: int) -> Summary:
    """Close the server's open season: its summary computed from its games' records and
    kept, and posted (through the outbox) in ``channel_id``. Games still running count
    in whatever season is open when they end."""
    check_id(guild_id, "guild")
    check_id(channel_id, "channel")
    by = by.checked()
    async with db.transaction() as s:
        season = await open_season(s, guild_id)
        if season is None:
            raise NoSeasonOpenError()
        season.open_guild_id = None
        season.ended_at = db.now()
        season.ended_by = by.id
        summary = await _summary(s, season)
        season.summary = summary.to_json()
        names = await repo.display_names(s, {u for a in summary.awards for u in a.users} | {int(r["user"]) for r in summary.top})
        message = SeasonEnded(
            number=season.number,
            name=season.name,
            started_at=season.started_at.isoformat(),
            ended_at=season.ended_at.isoformat(),
            games=summary.games,
            players=summary.players,
            top=[{"name": names.get(int(r["user"])), **{k: v for k, v in r.items() if k != "user"}} for r in summary.top],
            awards=[{"key": a.key, "names": [names.get(u) for u in a.users], "value": a.value, "out_of": a.out_of} for a in summary.awards],
        )
        post_in_channel(s, f"season{season.id}:end:channel:{channel_id}", channel_id, season.language, message, db.now())
        return summary


async def _summary(s: AsyncSession, season: Season) -> Summary:
    seats = await seasons_repo.season_seat_records(s, season.id)
    games = await seasons_repo.season_games(s, season.id)
    hidden = frozenset(await repo.hidden_users(s, {seat.user_id for seat in seats if seat.user_id is not None}))
    board = await seasons_repo.season_board(s, season.id)
    shown = [r for r in board if r.user_id not in hidden]
    top = [{"user": r.user_id, "rating": r.rating, "games": r.games, "wins": r.wins} for r in shown[:TOP]]
    players = len({seat.user_id for seat in seats if seat.user_id is not None and not seat.ai})
    return Summary(SeasonInfo.of(season), games, players, top, awards(seats, hidden))


async def seasons_of(db: Database, guild_id: int) -> list[SeasonInfo]:
    """The server's seasons, the latest first."""
    check_id(guild_id, "guild")
    async with db.read() as s:
        return [SeasonInfo.of(r) for r in await seasons_repo.seasons_latest_first(s, guild_id)]


async def season_numbered(s: AsyncSession, guild_id: int, number: Any) -> Season:
    """The server's season ``number`` (0: the open one, else the latest); UnknownSeasonError
    when it has none such."""
    if not isinstance(number, int) or isinstance(number, bool) or not 0 <= number <= MAX_SEASON:
        raise BadArgumentError(field="season", reason="a season number")
    found = await seasons_repo.season_numbered(s, guild_id, number)
    if found is None:
        raise UnknownSeasonError(number=number)
    return found


async def forget_in_summaries(s: AsyncSession, user_id: int) -> None:
    """A forgotten player leaves the kept summaries: their awards and place on the top
    are kept, without them."""
    for season in await seasons_repo.summarised_seasons(s):
        summary = dict(season.summary or {})
        awards_ = [{**a, "users": [u for u in a.get("users", []) if u != user_id]} for a in summary.get("awards", [])]
        top = [r for r in summary.get("top", []) if r.get("user") != user_id]
        if awards_ != summary.get("awards", []) or top != summary.get("top", []):
            season.summary = {**summary, "awards": awards_, "top": top}
