"""The records of the finished games (``game_records``, ``seat_records``, written once at
a game's end: ``bot.features.records``) and the standings the ratings move with them
(``player_standings``, ``season_standings``): the figures a record still lacks and the
games they are missing from (``wolfhowl db backfill``), a player's reliability figures,
the standings locked for a game's end, and everything a replay of the ratings reads and
replaces."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypeVar

from sqlalchemy import delete, false, select
from sqlalchemy.ext.asyncio import AsyncSession

from bot.db.models import Game, GameRecord, PlayerStanding, SeasonGame, SeasonStanding, SeatRecord

R = SeatRecord
S = TypeVar("S", PlayerStanding, SeasonStanding)


async def _human_records_without(session: AsyncSession, game_id: int, column: Any) -> list[SeatRecord]:
    q = select(SeatRecord).where(SeatRecord.game_id == game_id, column.is_(None), SeatRecord.user_id.is_not(None))
    return list((await session.execute(q)).scalars())


async def records_without_reliability(session: AsyncSession, game_id: int) -> list[SeatRecord]:
    """The game's human seat records written without their reliability figures."""
    return await _human_records_without(session, game_id, SeatRecord.phases_asked)


async def records_without_guesses(session: AsyncSession, game_id: int) -> list[SeatRecord]:
    """The game's human seat records written without their identification figures."""
    return await _human_records_without(session, game_id, SeatRecord.guesses)


async def games_without_records(session: AsyncSession) -> list[int]:
    """The games over, with a final state, that have no record: in the order they ended."""
    rows = await session.execute(
        select(Game.id)
        .outerjoin(GameRecord, GameRecord.game_id == Game.id)
        .where(Game.status == "over", Game.state.is_not(None), GameRecord.game_id.is_(None))
        .order_by(Game.ended_at, Game.id)
    )
    return list(rows.scalars())


async def _games_with_records_without(session: AsyncSession, column: Any) -> list[int]:
    rows = await session.execute(
        select(SeatRecord.game_id)
        .join(Game, Game.id == SeatRecord.game_id)
        .where(column.is_(None), SeatRecord.user_id.is_not(None), Game.state.is_not(None))
        .distinct()
        .order_by(SeatRecord.game_id)
    )
    return list(rows.scalars())


async def games_missing_reliability(session: AsyncSession) -> list[int]:
    """The games still kept (with their state) with a human record lacking its
    reliability figures, in id order."""
    return await _games_with_records_without(session, SeatRecord.phases_asked)


async def games_missing_guesses(session: AsyncSession) -> list[int]:
    """The games still kept (with their state) with a human record lacking its
    identification figures, in id order."""
    return await _games_with_records_without(session, SeatRecord.guesses)


async def reliability_figures(session: AsyncSession, user_id: int, guild_id: int | None, games: int) -> list[tuple[Any, Any, Any]]:
    """(asked, sent, abandoned) of the player's last ``games`` human records in
    ``guild_id`` (None: every server) that have the figures and asked them something,
    newest first."""
    where = [
        R.user_id == user_id, R.ai == false(), R.phases_asked.is_not(None), R.phases_sent.is_not(None),
        R.phases_asked + R.phases_abandoned > 0,
    ]  # fmt: skip
    if guild_id is not None:
        where.append(R.guild_id == guild_id)
    q = (
        select(R.phases_asked, R.phases_sent, R.phases_abandoned)
        .where(*where)
        .order_by(R.ended_at.desc(), R.game_id.desc())
        .limit(games)
    )
    return [(a, x, left) for a, x, left in (await session.execute(q)).all()]


async def _locked(session: AsyncSession, model_: type[S], user_ids: list[int], where: Any) -> dict[int, S]:
    q = select(model_).where(where, model_.user_id.in_(user_ids)).with_for_update()
    return {r.user_id: r for r in (await session.execute(q)).scalars()}


async def locked_standings(session: AsyncSession, guild_id: int, user_ids: list[int]) -> dict[int, PlayerStanding]:
    """The stored all-time standings of ``user_ids`` in the server, by user, locked
    (``FOR UPDATE``) for the rest of the transaction."""
    return await _locked(session, PlayerStanding, user_ids, PlayerStanding.guild_id == guild_id)


async def locked_season_standings(session: AsyncSession, season_id: int, user_ids: list[int]) -> dict[int, SeasonStanding]:
    """The stored standings of ``user_ids`` in the season, by user, locked as
    :func:`locked_standings`."""
    return await _locked(session, SeasonStanding, user_ids, SeasonStanding.season_id == season_id)


async def seat_records_in_order(session: AsyncSession, guild_ids: Sequence[int] | None) -> list[SeatRecord]:
    """Every seat record (of ``guild_ids``, or all), by game, seat and id."""
    s = select(SeatRecord).order_by(SeatRecord.game_id, SeatRecord.seat, SeatRecord.id)
    if guild_ids is not None:
        s = s.where(SeatRecord.guild_id.in_(guild_ids))
    return list((await session.execute(s)).scalars())


async def game_records_in_order(session: AsyncSession, guild_ids: Sequence[int] | None) -> list[tuple[GameRecord, int | None]]:
    """Every game record (of ``guild_ids``, or all) in the order the games ended, each
    with the season it counted in (None: none)."""
    q = select(GameRecord, SeasonGame.season_id).outerjoin(SeasonGame, SeasonGame.game_id == GameRecord.game_id)
    q = q.order_by(GameRecord.ended_at, GameRecord.game_id)
    if guild_ids is not None:
        q = q.where(GameRecord.guild_id.in_(guild_ids))
    return [(game, season_id) for game, season_id in (await session.execute(q)).all()]


async def delete_standings(session: AsyncSession, guild_ids: Sequence[int] | None) -> None:
    """Every standing, all-time and per season, of ``guild_ids`` (None: of every server)."""
    for model_ in (PlayerStanding, SeasonStanding):
        stmt = delete(model_)
        if guild_ids is not None:
            stmt = stmt.where(model_.guild_id.in_(guild_ids))
        await session.execute(stmt)


async def all_standings(session: AsyncSession) -> list[PlayerStanding]:
    """Every all-time standing stored."""
    return list((await session.execute(select(PlayerStanding))).scalars())


async def all_season_standings(session: AsyncSession) -> list[SeasonStanding]:
    """Every season standing stored."""
    return list((await session.execute(select(SeasonStanding))).scalars())
