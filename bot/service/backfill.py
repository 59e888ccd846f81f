"""``wolfhowl db backfill``: records and ratings for the games that ended before records
were kept, from each game's stored final state and game log, exactly as the end would
have written them. Idempotent: a game with a record is left alone, and a run that
writes nothing changes nothing."""

from __future__ import annotations

from sqlalchemy import select

from bot.db.models import Game, GameRecord
from bot.db.session import Database
from bot.service.ratings import rebuild_standings
from bot.service.records import write_records


async def backfill(db: Database) -> int:
    """Write the missing records (one transaction per game, in the order they ended),
    then replay the standings of the servers concerned; returns how many games got
    their records."""
    async with db.read() as s:
        missing = list(
            (
                await s.execute(
                    select(Game.id)
                    .outerjoin(GameRecord, GameRecord.game_id == Game.id)
                    .where(Game.status == "over", Game.state.is_not(None), GameRecord.game_id.is_(None))
                    .order_by(Game.ended_at, Game.id)
                )
            ).scalars()
        )
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
    return written
