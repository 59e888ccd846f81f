"""A player forgotten (``bot.features.stats.privacy``): where they are in the games and
the records, and the statements that take them out, table by table. What is rewritten
in place (a step of a game's log, a message's payload) is an entity the use case
changes; what goes or loses its user id goes here."""

from __future__ import annotations

from typing import Any

from sqlalchemy import delete, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from bot.db.models import (
    Game,
    GamePlayer,
    OutboxMessage,
    PlayerProfile,
    PlayerStanding,
    Prediction,
    SeasonStanding,
    SeatOffer,
    SeatRecord,
    Spectator,
    Standby,
    Submission,
)


async def memberships(session: AsyncSession, user_id: int) -> list[tuple[GamePlayer, str]]:
    """Every row of the user in a game's players (any status), with the game's status,
    in game order."""
    rows = await session.execute(
        select(GamePlayer, Game.status).join(Game, Game.id == GamePlayer.game_id)
        .where(GamePlayer.user_id == user_id).order_by(GamePlayer.game_id)
    )  # fmt: skip
    return [(member, status) for member, status in rows.all()]


async def standby_games(session: AsyncSession, user_id: int) -> list[tuple[int, str]]:
    """The games whose standby list has the user (in any status), with their status."""
    rows = await session.execute(select(Standby.game_id, Game.status).join(Game, Game.id == Standby.game_id).where(Standby.user_id == user_id))
    return [(game_id, status) for game_id, status in rows.all()]


async def watched_games(session: AsyncSession, user_id: int) -> list[tuple[int, str]]:
    """The games the user watches or watched, with their status."""
    rows = await session.execute(
        select(Spectator.game_id, Game.status).join(Game, Game.id == Spectator.game_id).where(Spectator.user_id == user_id)
    )
    return [(game_id, status) for game_id, status in rows.all()]


async def game_state(session: AsyncSession, game_id: int) -> Any:
    """The game's stored state (None before its start)."""
    return (await session.execute(select(Game.state).where(Game.id == game_id))).scalar_one()


async def set_game_state(session: AsyncSession, game_id: int, state: Any) -> None:
    """Write the game's state past the ORM: a game's row is written under its version,
    which counts steps, and rewriting a name is none."""
    await session.execute(update(Game).where(Game.id == game_id).values(state=state))


async def game_messages(session: AsyncSession, game_id: int) -> list[OutboxMessage]:
    """Every message the game wrote (sent or not, to anyone)."""
    return list((await session.execute(select(OutboxMessage).where(OutboxMessage.game_id == game_id))).scalars())


async def take_out_of_game(session: AsyncSession, game_id: int, member_id: int, user_id: int, *, name: str) -> None:
    """The user's traces in the game that are not a name in its data: the messages
    addressed to them go, their submissions and the offers made while they held a seat
    keep user 0 (nobody), and their row of the game's players (``member_id``) loses its
    user ids and takes ``name``."""
    await session.execute(
        delete(OutboxMessage).where(
            OutboxMessage.game_id == game_id, OutboxMessage.recipient_kind == "user",
            OutboxMessage.recipient_id == user_id,
        )
    )  # fmt: skip
    await session.execute(update(Submission).where(Submission.game_id == game_id, Submission.user_id == user_id).values(user_id=0))
    await session.execute(update(SeatOffer).where(SeatOffer.game_id == game_id, SeatOffer.holder_id == user_id).values(holder_id=0))
    await session.execute(
        update(GamePlayer).where(GamePlayer.id == member_id).values(user_id=None, active_user_id=None, display_name=name)
    )


async def delete_waiting_rows(session: AsyncSession, user_id: int) -> None:
    """The user's rows on standby lists, among spectators, of predictions and of seat
    offers, in every game."""
    await session.execute(delete(Standby).where(Standby.user_id == user_id))
    await session.execute(delete(Spectator).where(Spectator.user_id == user_id))
    await session.execute(delete(Prediction).where(Prediction.user_id == user_id))
    await session.execute(delete(SeatOffer).where(SeatOffer.user_id == user_id))


async def recorded_guilds(session: AsyncSession, user_id: int) -> list[int]:
    """The servers where the user has a seat record, in order."""
    return sorted(set((await session.execute(select(SeatRecord.guild_id).where(SeatRecord.user_id == user_id).distinct())).scalars()))


async def blank_seat_records(session: AsyncSession, user_id: int) -> int:
    """The user's seat records lose their user id and name; how many they were."""
    changed = await session.execute(update(SeatRecord).where(SeatRecord.user_id == user_id).values(user_id=None, name=None))
    return int(getattr(changed, "rowcount", 0) or 0)


async def delete_standings(session: AsyncSession, user_id: int) -> None:
    """The user's standings, all-time and in every season."""
    await session.execute(delete(PlayerStanding).where(PlayerStanding.user_id == user_id))
    await session.execute(delete(SeasonStanding).where(SeasonStanding.user_id == user_id))


async def delete_profile(session: AsyncSession, user_id: int) -> None:
    await session.execute(delete(PlayerProfile).where(PlayerProfile.user_id == user_id))


async def blanked_seats(session: AsyncSession) -> list[tuple[int, int]]:
    """(game, seat) of each human seat record left without a user and a name whose game
    still has a member with a user id: a seat whose holder was forgotten before
    forgetting reached the games."""
    rows = await session.execute(
        select(SeatRecord.game_id, SeatRecord.seat)
        .where(SeatRecord.user_id.is_(None), SeatRecord.name.is_(None), SeatRecord.ai.is_(False))
        .join(GamePlayer, GamePlayer.game_id == SeatRecord.game_id)
        .where(GamePlayer.user_id.is_not(None))
        .distinct()
    )
    return [(game_id, seat) for game_id, seat in rows.all()]


async def recorded_holders(session: AsyncSession, game_id: int, seat: int) -> set[int | None]:
    """The user ids the seat's records still carry (None for a blanked one)."""
    return set((await session.execute(select(SeatRecord.user_id).where(SeatRecord.game_id == game_id, SeatRecord.seat == seat))).scalars())


async def seat_members(session: AsyncSession, game_id: int, seat: int) -> list[GamePlayer]:
    """The game's members with a user id who hold or held ``seat``."""
    rows = await session.execute(
        select(GamePlayer).where(
            GamePlayer.game_id == game_id, GamePlayer.user_id.is_not(None),
            (GamePlayer.seat == seat) | (GamePlayer.former_seat == seat),
        )
    )  # fmt: skip
    return list(rows.scalars().all())
