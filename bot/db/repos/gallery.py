"""The gallery's data: a game's spectators (``spectators``), the predictions of the
winning faction (``predictions``), the rooms recorded for each game channel's dead
(``dead_channels``) and the logged steps whose truth the gallery is shown
(``bot.features.gallery``)."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import delete, select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncSession

from bot.db.models import DeadChannel, Game, GameStep, Prediction, Spectator, User


async def spectators(session: AsyncSession, game_id: int) -> list[Spectator]:
    """The game's spectators, watching now or not."""
    return list((await session.execute(select(Spectator).where(Spectator.game_id == game_id))).scalars().all())


async def steps_of_round(session: AsyncSession, game_id: int, round_no: int, kinds: Sequence[str]) -> list[GameStep]:
    """The logged steps of ``kinds`` in round ``round_no`` (0: the start), in log order."""
    stmt = (
        select(GameStep)
        .where(GameStep.game_id == game_id, GameStep.round == round_no, GameStep.kind.in_(kinds))
        .order_by(GameStep.seq)
    )
    return list((await session.execute(stmt)).scalars())


async def picks(session: AsyncSession, game_id: int) -> list[tuple[int, int, str]]:
    """The game's predictions as (round, user id, faction), by round then user."""
    stmt = select(Prediction.round, Prediction.user_id, Prediction.faction).where(Prediction.game_id == game_id)
    return [(int(r), int(u), str(f)) for r, u, f in (await session.execute(stmt.order_by(Prediction.round, Prediction.user_id))).all()]


async def picks_with_names(session: AsyncSession, game_id: int) -> list[Any]:
    """The game's predictions with each forecaster's name as last seen (None when the bot
    does not know them): (round, user id, faction, name), by round then user."""
    rows = await session.execute(
        select(Prediction.round, Prediction.user_id, Prediction.faction, User.display_name)
        .outerjoin(User, User.id == Prediction.user_id)
        .where(Prediction.game_id == game_id)
        .order_by(Prediction.round, Prediction.user_id)
    )
    return list(rows.all())


async def predicted_games_over(session: AsyncSession, guild_id: int) -> list[tuple[int, Any]]:
    """The server's games over in which someone predicted: (id, state)."""
    rows = await session.execute(
        select(Game.id, Game.state).where(
            Game.guild_id == guild_id, Game.status == "over", Game.id.in_(select(Prediction.game_id).distinct())
        )
    )
    return [(game_id, state) for game_id, state in rows.all()]


async def picks_of_games(session: AsyncSession, game_ids: Collection[int]) -> list[tuple[int, int, int, str]]:
    """The predictions of these games: (game id, round, user id, faction)."""
    stmt = select(Prediction.game_id, Prediction.round, Prediction.user_id, Prediction.faction).where(Prediction.game_id.in_(list(game_ids)))
    return [(g, r, u, f) for g, r, u, f in (await session.execute(stmt)).all()]


async def dead_channel_of(session: AsyncSession, game_channel_id: int) -> int | None:
    """The room recorded for the dead of ``game_channel_id``, if any."""
    found = await session.scalar(select(DeadChannel.dead_channel_id).where(DeadChannel.game_channel_id == game_channel_id))
    return None if found is None else int(found)


async def dead_channels(session: AsyncSession, game_channel_ids: Collection[int]) -> dict[int, int]:
    """The rooms recorded for the dead of these game channels, by game channel."""
    if not game_channel_ids:
        return {}
    stmt = select(DeadChannel.game_channel_id, DeadChannel.dead_channel_id).where(DeadChannel.game_channel_id.in_(list(game_channel_ids)))
    return {int(g): int(d) for g, d in (await session.execute(stmt)).all()}


async def game_channel_of_dead(session: AsyncSession, dead_channel_id: int) -> int | None:
    """The game channel whose dead's room ``dead_channel_id`` is, if it is one."""
    found = await session.scalar(select(DeadChannel.game_channel_id).where(DeadChannel.dead_channel_id == dead_channel_id))
    return None if found is None else int(found)


async def record_dead_channel(session: AsyncSession, guild_id: int, game_channel_id: int, dead_channel_id: int, now: datetime) -> None:
    """Record ``dead_channel_id`` as the room of ``game_channel_id``'s dead, in place of
    any room before it (and of any game channel the room was recorded for): an upsert
    on the game channel, which two processes recording at once cannot collide in."""
    await session.execute(delete(DeadChannel).where(DeadChannel.dead_channel_id == dead_channel_id))
    insert = postgresql.insert if session.get_bind().dialect.name == "postgresql" else sqlite.insert
    stmt = insert(DeadChannel).values(game_channel_id=game_channel_id, dead_channel_id=dead_channel_id, guild_id=guild_id, created_at=now)
    await session.execute(
        stmt.on_conflict_do_update(
            index_elements=[DeadChannel.game_channel_id],
            set_={"dead_channel_id": stmt.excluded.dead_channel_id, "created_at": stmt.excluded.created_at},
        )
    )
