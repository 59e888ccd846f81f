"""``wolfhowl db backfill``: records and ratings for the games that ended before records
were kept, from each game's stored final state and game log, exactly as the end would
have written them; and the reliability figures (``bot.features.records.reliability``) of records
written before those were kept, where the game counted its misses, and their
identification figures (guesses sent and confirmed, read from the game log). Idempotent: a game
with a record is left alone, a record with its figures too, and a run that writes
nothing changes nothing."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from sqlalchemy.ext.asyncio import AsyncSession

from bot.db.models import Game
from bot.db.repos import records as records_repo
from bot.db.session import Database
from bot.features.records.ratings import rebuild_standings
from bot.features.records.records import fill_guesses, fill_reliability, write_records


@dataclass(frozen=True)
class Backfilled:
    """What a backfill wrote: the games given their records, the seat records given
    their reliability figures and their identification figures."""

    games: int
    reliability: int
    guesses: int = 0


async def backfill(db: Database) -> int:
    """Write the missing records (one transaction per game, in the order they ended),
    then replay the standings of the servers concerned; returns how many games got
    their records. The reliability figures: :func:`backfill_all`."""
    return (await backfill_all(db)).games


async def backfill_all(db: Database) -> Backfilled:
    """The missing records (:func:`backfill`), then the missing reliability figures (one
    transaction per game)."""
    async with db.read() as s:
        missing = await records_repo.games_without_records(s)
    guilds: set[int] = set()
    written = 0
    for game_id in missing:
        async with db.transaction() as s:
            game = await s.get(Game, game_id)
            if game is not None and game.guild_id is not None and await write_records(s, game) is not None:
                guilds.add(game.guild_id)
                written += 1
    if guilds:
        # Games written here may have ended before ones already rated: replay in order.
        async with db.transaction() as s:
            await rebuild_standings(s, sorted(guilds))
    reliability = await _fill(db, records_repo.games_missing_reliability, fill_reliability)
    guesses = await _fill(db, records_repo.games_missing_guesses, fill_guesses)
    return Backfilled(written, reliability, guesses)


async def _fill(
    db: Database, missing: Callable[[AsyncSession], Awaitable[list[int]]], fill: Callable[[AsyncSession, Game], Awaitable[int]]
) -> int:
    """``fill`` for each game ``missing`` finds (still kept, with a human record that lacks
    the figures: one transaction per game); how many records it filled."""
    async with db.read() as s:
        games = await missing(s)
    filled = 0
    for game_id in games:
        async with db.transaction() as s:
            game = await s.get(Game, game_id)
            if game is not None:
                filled += await fill(s, game)
    return filled
