"""The AI seats' data: their turns (``ai_turns``: planned, due, played, with the AI's
notes), what a seat has been told (the outbox's messages it may read and its own
submissions), its holders, and the lobby's AI rows given up (``bot.features.ai_seats``).
The turns due and the next one are ranges of the turns' index on (played, due)."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import Select, bindparam, delete, exists, func, or_, select
from sqlalchemy.ext.asyncio import AsyncSession

from bot.db.models import AiTurn, Game, GamePlayer, OutboxMessage, Submission

# Asked at every scheduler tick, so built once: the turns due of the running games,
# oldest first, a range of the turns' index on (played, due), so an idle tick reads
# nothing however many games are live.
_DUE_TURNS = (
    select(AiTurn.id, AiTurn.game_id, AiTurn.seat)
    .join(Game, Game.id == AiTurn.game_id)
    .where(AiTurn.played_at.is_(None), AiTurn.due_at <= bindparam("now"), Game.status == "running")
    .order_by(AiTurn.due_at, AiTurn.id)
)


async def delete_players(session: AsyncSession, player_ids: Sequence[int]) -> None:
    """These rows of the games' players go (a lobby's AI rows given up)."""
    await session.execute(delete(GamePlayer).where(GamePlayer.id.in_(player_ids)))


async def planned_seats(session: AsyncSession, game_id: int, round_no: int, phase: str) -> set[int]:
    """The seats with a turn (played or not) in the phase."""
    found = await session.scalars(select(AiTurn.seat).where(AiTurn.game_id == game_id, AiTurn.round == round_no, AiTurn.phase == phase))
    return set(found.all())


def unplanned_statement() -> Select[int]:
    """The running games with an AI seat that has no turn in the open phase (dead seats
    included), probed through the turns' unique index on (game, round, phase, seat)."""
    no_turn = ~exists().where(
        AiTurn.game_id == Game.id,
        AiTurn.round == Game.round,
        AiTurn.phase == Game.phase,
        AiTurn.seat == GamePlayer.seat,
    )
    return (
        select(Game.id)
        .join(GamePlayer, GamePlayer.game_id == Game.id)
        .where(Game.status == "running", GamePlayer.user_id.is_(None), GamePlayer.seat.is_not(None), no_turn)
        .distinct()
        .order_by(Game.id)
    )


async def unplanned_games(session: AsyncSession) -> list[int]:
    """The games :func:`unplanned_statement` finds, in id order."""
    return list((await session.scalars(unplanned_statement())).all())


async def holders_of_seat(session: AsyncSession, game_id: int, seat: int) -> list[int | None]:
    """The user ids of the game's rows that hold or held ``seat`` (None: the AI's)."""
    found = await session.scalars(
        select(GamePlayer.user_id).where(GamePlayer.game_id == game_id, or_(GamePlayer.seat == seat, GamePlayer.former_seat == seat))
    )
    return list(found.all())


async def seat_messages(session: AsyncSession, game_id: int, seat: int, users: Collection[int], after: int) -> list[Any]:
    """The game's messages newer than the one of id ``after`` that the holder of ``seat``
    may read: the channel's posts, the seat's own mail and the private messages of the
    users ``users`` (who held the seat); (id, recipient kind, payload) in the order
    they were written."""
    rows = await session.execute(
        select(OutboxMessage.id, OutboxMessage.recipient_kind, OutboxMessage.payload)
        .where(
            OutboxMessage.game_id == game_id,
            OutboxMessage.id > after,
            or_(
                OutboxMessage.recipient_kind == "channel",
                (OutboxMessage.recipient_kind == "seat") & (OutboxMessage.recipient_id == seat),
                (OutboxMessage.recipient_kind == "user") & OutboxMessage.recipient_id.in_(users),
            ),
        )
        .order_by(OutboxMessage.id)
    )
    return list(rows.all())


async def seat_submissions(session: AsyncSession, game_id: int, seat: int) -> list[Any]:
    """Every submission stored for the seat: (round, phase, kind, payload)."""
    rows = await session.execute(
        select(Submission.round, Submission.phase, Submission.kind, Submission.payload).where(Submission.game_id == game_id, Submission.seat == seat)
    )
    return list(rows.all())


async def last_memory(session: AsyncSession, game_id: int, seat: int) -> dict[str, Any] | None:
    """The AI's notes after the seat's latest turn that kept some."""
    found: dict[str, Any] | None = await session.scalar(
        select(AiTurn.memory)
        .where(AiTurn.game_id == game_id, AiTurn.seat == seat, AiTurn.memory.is_not(None))
        .order_by(AiTurn.id.desc())
        .limit(1)
    )
    return found


async def unplayed_turns(session: AsyncSession, game_id: int, round_no: int, phase: str | None) -> list[AiTurn]:
    """The phase's turns not played yet, by seat."""
    found = await session.scalars(
        select(AiTurn)
        .where(AiTurn.game_id == game_id, AiTurn.round == round_no, AiTurn.phase == phase, AiTurn.played_at.is_(None))
        .order_by(AiTurn.seat)
    )
    return list(found.all())


def due_turns_statement(now: datetime) -> Any:
    """The statement :func:`due_turns` runs, with ``now`` bound (to explain it)."""
    return _DUE_TURNS.params(now=now)


async def due_turns(session: AsyncSession, now: datetime) -> list[tuple[int, int, int]]:
    """(turn id, game id, seat) of every turn of a running game due at ``now``, oldest first."""
    return [(turn_id, game_id, seat) for turn_id, game_id, seat in (await session.execute(_DUE_TURNS, {"now": now})).all()]


def next_turn_time(held: Collection[int] = ()) -> Any:
    """When the next AI turn of a running game is due (the games in ``held`` left out),
    as a scalar subquery, for :func:`next_turn_due` and the scheduler's sleep
    (``bot.core.deadlines.wakeup_statement``)."""
    stmt = select(AiTurn.due_at).join(Game, Game.id == AiTurn.game_id).where(AiTurn.played_at.is_(None), Game.status == "running")
    if held:
        stmt = stmt.where(AiTurn.game_id.not_in(list(held)))
    return stmt.order_by(AiTurn.due_at).limit(1).scalar_subquery()


async def next_turn_due(session: AsyncSession, held: Collection[int] = ()) -> datetime | None:
    """When the next AI turn of a running game is due (None: none waits)."""
    found: datetime | None = await session.scalar(select(next_turn_time(held)))
    return found


async def last_turn_due(session: AsyncSession, game_id: int) -> datetime | None:
    """When the last of the game's turns still to play is due (None: none waits)."""
    found: datetime | None = await session.scalar(select(func.max(AiTurn.due_at)).where(AiTurn.game_id == game_id, AiTurn.played_at.is_(None)))
    return found
