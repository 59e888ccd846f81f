"""Ratings: OpenSkill's Plackett–Luce model, a game's factions as the teams.

At each game's end (``rate_game``, in the transaction that writes its records) every
rated seat's standing in the server moves: factions are ranked by their final score,
equal scores tie (a shared win is a tie at the top). A seat counts when a user held it
to the end of the game or of their life in it (not a replaced holder, not a forgotten
user, not a bot seat). ``rebuild_standings`` replays every record from scratch, in the
order the games ended, and must land on the same numbers (floats are stored as doubles
on both databases, so the live path reads back exactly what it wrote).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache

from openskill.models import PlackettLuce, PlackettLuceRating
from sqlalchemy import delete, select
from sqlalchemy.ext.asyncio import AsyncSession

from bot.db.models import GameRecord, PlayerStanding, SeatRecord
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


def _row(guild_id: int, user_id: int, st: Standing) -> PlayerStanding:
    m = model()
    mu = st.mu if st.mu is not None else m.mu
    sigma = st.sigma if st.sigma is not None else m.sigma
    return PlayerStanding(
        guild_id=guild_id, user_id=user_id, games=st.games, wins=st.wins, win_rate=st.wins / st.games,
        mu=mu, sigma=sigma, rating=shown(mu, sigma), last_game_id=st.last_game_id,
    )


async def rate_game(session: AsyncSession, game: GameRecord, seats: Sequence[SeatRecord]) -> dict[int, RatingChange]:
    """Update the standings of the game's rated seats (inside the end's transaction);
    each rated player's shown rating before and after (empty: nobody was rated)."""
    seats = rated_seats(seats)
    if not seats:
        return {}
    ids = [s.user_id for s in seats if s.user_id is not None]
    stored = {
        r.user_id: r
        for r in (
            await session.execute(
                # Locked: a player removed from one game may be in another of this server
                # that ends at the same moment; the second end then reads the first's numbers.
                select(PlayerStanding)
                .where(PlayerStanding.guild_id == game.guild_id, PlayerStanding.user_id.in_(ids))
                .with_for_update()
            )
        ).scalars()
    }
    standings = {
        uid: Standing(r.games, r.wins, r.mu, r.sigma, r.last_game_id) for uid, r in stored.items()
    }
    rated = play(game, seats, standings)
    changes: dict[int, RatingChange] = {}
    for uid in ids:
        new = _row(game.guild_id, uid, standings[uid])
        old = stored.get(uid)
        before = None if old is None else old.rating
        if old is None:
            session.add(new)
        else:
            for column in ("games", "wins", "win_rate", "mu", "sigma", "rating", "last_game_id"):
                setattr(old, column, getattr(new, column))
        if rated:
            changes[uid] = (before, new.rating)
    await session.flush()
    return changes


async def replay_all(session: AsyncSession, guild_ids: Sequence[int] | None = None) -> dict[tuple[int, int], Standing]:
    """Every standing computed from the records alone, games in the order they ended."""
    q = select(GameRecord).order_by(GameRecord.ended_at, GameRecord.game_id)
    s = select(SeatRecord).order_by(SeatRecord.game_id, SeatRecord.seat, SeatRecord.id)
    if guild_ids is not None:
        q = q.where(GameRecord.guild_id.in_(guild_ids))
        s = s.where(SeatRecord.guild_id.in_(guild_ids))
    by_game: dict[int, list[SeatRecord]] = {}
    for seat in (await session.execute(s)).scalars():
        by_game.setdefault(seat.game_id, []).append(seat)
    books: dict[int, dict[int, Standing]] = {}
    for game in (await session.execute(q)).scalars():
        play(game, rated_seats(by_game.get(game.game_id, [])), books.setdefault(game.guild_id, {}))
    return {(g, u): st for g, book in books.items() for u, st in book.items()}


async def rebuild_standings(session: AsyncSession, guild_ids: Sequence[int] | None = None) -> int:
    """Replace the standings (of ``guild_ids``, or all) by a replay of the records;
    returns how many standings there are now."""
    replayed = await replay_all(session, guild_ids)
    stmt = delete(PlayerStanding)
    if guild_ids is not None:
        stmt = stmt.where(PlayerStanding.guild_id.in_(guild_ids))
    await session.execute(stmt)
    session.add_all(_row(g, u, st) for (g, u), st in replayed.items())
    await session.flush()
    return len(replayed)


async def rebuild(db: Database) -> int:
    """``wolfhowl db ratings --rebuild``: every standing from scratch, in one transaction."""
    async with db.transaction() as s:
        return await rebuild_standings(s)





async def stored_matches_replay(db: Database) -> list[tuple[int, int]]:
    """The (server, user) standings that differ from a replay of the records (empty when
    every stored number is the replay's)."""
    async with db.read() as s:
        replayed = {k: _row(k[0], k[1], st) for k, st in (await replay_all(s)).items()}
        stored = {(r.guild_id, r.user_id): r for r in (await s.execute(select(PlayerStanding))).scalars()}
    columns = ("games", "wins", "win_rate", "mu", "sigma", "rating", "last_game_id")
    return sorted(
        k
        for k in replayed.keys() | stored.keys()
        if k not in replayed or k not in stored or any(getattr(replayed[k], c) != getattr(stored[k], c) for c in columns)
    )
