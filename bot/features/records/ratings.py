"""Ratings: OpenSkill's Plackett–Luce model, a game's factions as the teams.

At each game's end (``rate_game``, in the transaction that writes its records) every
rated seat's standing in the server moves: factions are ranked by their final score,
equal scores tie (a shared win is a tie at the top). A seat counts when a user held it
to the end of the game or of their life in it (not a replaced holder, not a forgotten
user, not a bot seat). ``rebuild_standings`` replays every record from scratch, in the
order the games ended, and must land on the same numbers (floats are stored as doubles
on both databases, so the live path reads back exactly what it wrote).

A game counted in a season (``bot.features.seasons.seasons``) moves the players' standings in that
season too, by the same game. A player's first game of a season starts them from their
all-time rating as it stood before that game, the mean kept and the uncertainty widened
(:func:`season_start`): ``sigma' = min(sigma0, sqrt(sigma**2 + tau**2))`` with
``sigma0 = 25/3`` (a newcomer's) and ``tau = sigma0 / 2``, so a veteran's season rating
moves faster than their all-time one at first, and nobody starts above where they stand.
"""

from __future__ import annotations

import math
from collections.abc import AsyncIterator, Iterable, Sequence
from dataclasses import dataclass, replace
from functools import cache
from typing import Any

from openskill.models import PlackettLuce, PlackettLuceRating
from sqlalchemy.ext.asyncio import AsyncSession

from bot.db.models import GameRecord, PlayerStanding, SeasonStanding, SeatRecord
from bot.db.repos import records as records_repo
from bot.db.session import Database


@dataclass
class Standing:
    games: int = 0
    wins: int = 0
    mu: float | None = None
    sigma: float | None = None
    last_game_id: int = 0


@cache
def model() -> PlackettLuce:
    return PlackettLuce()


def counts(seat: SeatRecord) -> bool:
    """Whether a seat record counts for a player's games, wins and rating."""
    return seat.user_id is not None and not seat.ai and seat.fate != "replaced"


def rated_seats(seats: Iterable[SeatRecord]) -> list[SeatRecord]:
    return [s for s in seats if counts(s)]


# A player's shown rating before and after one game (before: None for their first rated game).
RatingChange = tuple[float | None, float]


def play(game: GameRecord, seats: Sequence[SeatRecord], standings: dict[int, Standing]) -> bool:
    """Move ``standings`` (user id -> standing in the game's server, updated in place,
    new players added) by one finished game. False when it was counted, not rated (one
    faction only among the rated seats)."""
    m = model()
    for seat in seats:
        assert seat.user_id is not None
        st = standings.setdefault(seat.user_id, Standing())
        st.games += 1
        st.wins += seat.result != "loss"
        st.last_game_id = game.game_id
    teams: dict[str, list[SeatRecord]] = {}
    for seat in seats:
        teams.setdefault(seat.faction, []).append(seat)
    if len(teams) < 2:
        return False  # nobody to be ranked against: counted, not rated
    order = sorted(teams)
    scores = {f: int(game.scores.get(f, 0)) for f in order}
    ranks: list[float] = [1.0 + sum(1 for g in order if scores[g] > scores[f]) for f in order]

    def rating(user_id: int) -> PlackettLuceRating:
        st = standings[user_id]
        return m.rating() if st.mu is None or st.sigma is None else m.rating(mu=st.mu, sigma=st.sigma)

    before = [[rating(s.user_id) for s in teams[f] if s.user_id is not None] for f in order]
    after = m.rate(before, ranks=ranks)
    for f, team in zip(order, after, strict=True):
        for seat, r in zip(teams[f], team, strict=True):
            assert seat.user_id is not None
            standings[seat.user_id].mu, standings[seat.user_id].sigma = float(r.mu), float(r.sigma)
    return True


def shown(mu: float, sigma: float) -> float:
    """The rating shown and ranked: OpenSkill's conservative ordinal, mu - 3 sigma."""
    return mu - 3 * sigma


def season_tau() -> float:
    """How much uncertainty a season adds to a player's all-time rating: half a
    newcomer's (``sigma0 / 2``)."""
    return model().sigma / 2


def season_start(all_time: Standing | None) -> Standing:
    """A player's standing at their first game of a season, from their all-time one just
    before it: no games yet, the same mean, ``sigma' = min(sigma0, hypot(sigma, tau))``
    (a newcomer to the server starts as anywhere: OpenSkill's default)."""
    if all_time is None or all_time.mu is None or all_time.sigma is None:
        return Standing()
    return Standing(mu=all_time.mu, sigma=min(model().sigma, math.hypot(all_time.sigma, season_tau())))


COLUMNS = ("games", "wins", "win_rate", "mu", "sigma", "rating", "last_game_id")


def _values(st: Standing) -> dict[str, Any]:
    m = model()
    mu = st.mu if st.mu is not None else m.mu
    sigma = st.sigma if st.sigma is not None else m.sigma
    return {"games": st.games, "wins": st.wins, "win_rate": st.wins / st.games, "mu": mu, "sigma": sigma,
            "rating": shown(mu, sigma), "last_game_id": st.last_game_id}  # fmt: skip


def _row(guild_id: int, user_id: int, st: Standing) -> PlayerStanding:
    return PlayerStanding(guild_id=guild_id, user_id=user_id, **_values(st))


def _season_row(season_id: int, guild_id: int, user_id: int, st: Standing) -> SeasonStanding:
    return SeasonStanding(season_id=season_id, guild_id=guild_id, user_id=user_id, **_values(st))


def _standing(row: PlayerStanding | SeasonStanding) -> Standing:
    return Standing(row.games, row.wins, row.mu, row.sigma, row.last_game_id)


def _store(session: AsyncSession, stored: PlayerStanding | SeasonStanding | None, new: PlayerStanding | SeasonStanding) -> None:
    if stored is None:
        session.add(new)
    else:
        for column in COLUMNS:
            setattr(stored, column, getattr(new, column))


async def rate_game(
    session: AsyncSession, game: GameRecord, seats: Sequence[SeatRecord], season_id: int | None = None
) -> dict[int, RatingChange]:
    """Update the standings of the game's rated seats (inside the end's transaction), in
    the server and, with ``season_id``, in that season; each rated player's shown
    all-time rating before and after (empty: nobody was rated)."""
    seats = rated_seats(seats)
    if not seats:
        return {}
    ids = [s.user_id for s in seats if s.user_id is not None]
    # Locked: a player removed from one game may be in another of this server that ends
    # at the same moment; the second end then reads the first's numbers.
    stored = await records_repo.locked_standings(session, game.guild_id, ids)
    standings = {uid: _standing(r) for uid, r in stored.items()}
    if season_id is not None:
        await _rate_in_season(session, game, seats, season_id, standings)
    rated = play(game, seats, standings)
    changes: dict[int, RatingChange] = {}
    for uid in ids:
        new = _row(game.guild_id, uid, standings[uid])
        old = stored.get(uid)
        before = None if old is None else old.rating
        _store(session, old, new)
        if rated:
            changes[uid] = (before, new.rating)
    await session.flush()
    return changes


async def _rate_in_season(
    session: AsyncSession, game: GameRecord, seats: Sequence[SeatRecord], season_id: int, all_time: dict[int, Standing]
) -> None:
    """The season's standings moved by the game; a player new to the season starts from
    ``all_time`` (their standing before this game)."""
    ids = [s.user_id for s in seats if s.user_id is not None]
    stored = await records_repo.locked_season_standings(session, season_id, ids)
    book = {uid: _standing(r) for uid, r in stored.items()}
    for uid in ids:
        if uid not in book:
            book[uid] = season_start(all_time.get(uid))
    play(game, seats, book)
    for uid in ids:
        _store(session, stored.get(uid), _season_row(season_id, game.guild_id, uid, book[uid]))


@dataclass
class Books:
    """Every standing replayed from the records: in each server (``(guild, user)``) and in
    each season (``(season, user)``, with the season's server in ``season_guild``)."""

    all_time: dict[tuple[int, int], Standing]
    seasons: dict[tuple[int, int], Standing]
    season_guild: dict[int, int]


async def _games(session: AsyncSession, guild_ids: Sequence[int] | None) -> AsyncIterator[tuple[GameRecord, list[SeatRecord], int | None]]:
    """The finished games in the order they ended, each with its rated seats and season."""
    by_game: dict[int, list[SeatRecord]] = {}
    for seat in await records_repo.seat_records_in_order(session, guild_ids):
        by_game.setdefault(seat.game_id, []).append(seat)
    for game, season_id in await records_repo.game_records_in_order(session, guild_ids):
        yield game, rated_seats(by_game.get(game.game_id, [])), season_id


async def replay_books(session: AsyncSession, guild_ids: Sequence[int] | None = None) -> Books:
    """Every standing, all-time and per season, computed from the records alone, games
    in the order they ended (each season's first game of a player starting them as
    :func:`season_start` says, from the all-time standing the replay has reached)."""
    books: dict[int, dict[int, Standing]] = {}
    seasons: dict[int, dict[int, Standing]] = {}
    season_guild: dict[int, int] = {}
    async for game, seats, season_id in _games(session, guild_ids):
        book = books.setdefault(game.guild_id, {})
        if season_id is not None and seats:
            season = seasons.setdefault(season_id, {})
            season_guild[season_id] = game.guild_id
            for seat in seats:
                assert seat.user_id is not None
                if seat.user_id not in season:
                    season[seat.user_id] = season_start(replace(book[seat.user_id]) if seat.user_id in book else None)
            play(game, seats, season)
        play(game, seats, book)
    return Books(
        {(g, u): st for g, book in books.items() for u, st in book.items()},
        {(season_id, u): st for season_id, book in seasons.items() for u, st in book.items()},
        season_guild,
    )


async def replay_all(session: AsyncSession, guild_ids: Sequence[int] | None = None) -> dict[tuple[int, int], Standing]:
    """Every all-time standing computed from the records alone."""
    return (await replay_books(session, guild_ids)).all_time


async def rebuild_standings(session: AsyncSession, guild_ids: Sequence[int] | None = None) -> int:
    """Replace the standings (of ``guild_ids``, or all), all-time and per season, by a
    replay of the records; returns how many all-time standings there are now."""
    replayed = await replay_books(session, guild_ids)
    await records_repo.delete_standings(session, guild_ids)
    session.add_all(_row(g, u, st) for (g, u), st in replayed.all_time.items())
    session.add_all(_season_row(season, replayed.season_guild[season], u, st) for (season, u), st in replayed.seasons.items())
    await session.flush()
    return len(replayed.all_time)


async def rebuild(db: Database) -> int:
    """``wolfhowl db ratings --rebuild``: every standing from scratch, in one transaction."""
    async with db.transaction() as s:
        return await rebuild_standings(s)





async def stored_matches_replay(db: Database) -> list[tuple[int, int]]:
    """The (server, user) whose standings, all-time or in a season, differ from a replay
    of the records (empty when every stored number is the replay's)."""
    async with db.read() as s:
        books = await replay_books(s)
        replayed: dict[tuple[int, int, int], PlayerStanding | SeasonStanding] = {
            (g, 0, u): _row(g, u, st) for (g, u), st in books.all_time.items()
        }
        replayed |= {(books.season_guild[n], n, u): _season_row(n, books.season_guild[n], u, st) for (n, u), st in books.seasons.items()}
        stored: dict[tuple[int, int, int], PlayerStanding | SeasonStanding] = {
            (r.guild_id, 0, r.user_id): r for r in await records_repo.all_standings(s)
        }
        stored |= {(r.guild_id, r.season_id, r.user_id): r for r in await records_repo.all_season_standings(s)}
    return sorted(
        {
            (k[0], k[2])
            for k in replayed.keys() | stored.keys()
            if k not in replayed or k not in stored or any(getattr(replayed[k], c) != getattr(stored[k], c) for c in COLUMNS)
        }
    )
