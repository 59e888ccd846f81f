"""Practice: one person against AI seats, in their DM with the bot.

A practice game is a game like any other (the same rows, steps, outbox and engine), with
three differences that all follow from its having no server (``games.guild_id`` NULL):
its channel is the person's DM (its public posts go there), the person who opened it is
its only human and its moderator (``policy.roles_of``), and it writes no records
(``records.write_records``), so no stats, ratings or leaderboards count it. It starts at
once (no lobby to wait in), its AI seats send as soon as a phase opens
(``ai_turns.plan_phase``) and it closes each phase as soon as the person has sent (early
advance, no Dusk grace): the deadlines are long, so nobody is hurried. The first time
each phase comes up it is explained (``common.mail_phase_started``).

One live game per person holds here as everywhere (``game_players.active_user_id``): a
second practice, or a server's lobby, is refused while one is live; ``stop_practice``
cancels it (nothing is recorded).
"""

from __future__ import annotations

import secrets

from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

import engine
from bot.core.errors import AlreadyInGameError, BadArgumentError, ServiceError
from bot.core.table import Place, Table
from bot.core.types import GameInfo, GameSettings, UserRef, check_id
from bot.db import repositories as repo
from bot.db.models import Game, GamePlayer
from bot.db.session import Database
from bot.features.ai_seats import ai_seats
from bot.features.lobby.games import seed_digest, start
from bot.features.moderation.moderation import cancel

# Each phase's length: long enough that the person may take their time (a phase closes as
# soon as they have sent anyway).
PHASE_SECONDS = 86400
DEFAULT_PLAYERS = 8
STOPPED = "practice_stopped"


class PracticePlayersError(BadArgumentError):
    """A practice table outside the game's sizes."""

    key = "error.practice_players"


class PracticeRunningError(AlreadyInGameError):
    """A second practice while one is live."""

    key = "error.practice_running"


class NoPracticeError(ServiceError):
    """``/practice stop`` with no practice game live."""

    key = "error.practice_none"


# At Dusk the orders are what makes the person "done"; an identification may follow them.
# With no grace the night resolved under it (a person who attacked, then identified, was
# refused the identification).
PRACTICE_GRACE = 20


def practice_settings(players: int, language: str) -> GameSettings:
    """A practice table of ``players`` (the person and ``players - 1`` AI seats): long
    phases closed as soon as everyone has sent (at Dusk ``PRACTICE_GRACE`` seconds after
    the person's orders, so that an identification sent after them still counts), no
    reminders, no absence policy (the one human's seat is never taken from them)."""
    if not isinstance(players, int) or isinstance(players, bool) or not engine.MIN_PLAYERS <= players <= engine.MAX_PLAYERS:
        raise PracticePlayersError(field="players", min=engine.MIN_PLAYERS, max=engine.MAX_PLAYERS)
    return GameSettings.build(
        max_players=players, ai_seats=players - 1, language=language,
        day_seconds=PHASE_SECONDS, dusk_seconds=PHASE_SECONDS, morning_seconds=PHASE_SECONDS,
        early_advance=True, dusk_grace_seconds=PRACTICE_GRACE, reminder_lead_seconds=0, absence_misses=0,
    )  # fmt: skip


async def start_practice(db: Database, user: UserRef, dm_channel_id: int, *, players: int = DEFAULT_PLAYERS, language: str = "en-US") -> GameInfo:
    """Open and start at once a practice game for ``user`` in their DM channel
    ``dm_channel_id``: their seat and ``players - 1`` AI seats, Day 1 open. Refused while
    the person has a live game (a practice one: PracticeRunningError)."""
    u = user.checked()
    check_id(dm_channel_id, "channel")
    settings = practice_settings(players, language)
    now = db.now()
    try:
        async with db.transaction() as s:
            await refuse_if_playing(s, u.id)
            await repo.upsert_user(s, u.id, u.name, u.locale, now)
            seed = secrets.token_hex(16)
            game = Game(
                guild_id=None, channel_id=dm_channel_id, active_channel_id=dm_channel_id, moderator_id=u.id,
                settings=settings.model_dump(), language=settings.language, secret_seed=seed, seed_sha256=seed_digest(seed),
                status="lobby", round=0, version=0, notice_seq=0, created_at=now,
            )  # fmt: skip
            s.add(game)
            await s.flush()
            t = Table(s, game, now, Place(u), writing=True)
            t.joined(GamePlayer(game_id=game.id, user_id=u.id, active_user_id=u.id, display_name=u.name, status="lobby", joined_at=now))
            await s.flush()
            await ai_seats.sync_lobby(t, settings)
            return await start(t)
    except IntegrityError:
        # The same person started another game at the same moment: the unique
        # active_user_id (or the DM's active_channel_id) let only one through.
        async with db.read() as s:
            await refuse_if_playing(s, u.id)
        raise PracticeRunningError(game_id=0, channel="—") from None


async def refuse_if_playing(s: AsyncSession, user_id: int) -> None:
    """Refuse a practice to one who already has a live game: their practice, or a
    server's game (one game at a time)."""
    place = await repo.live_game_place(s, user_id)
    if place is None:
        return
    found = await repo.find_game(s, game_id=place["game_id"])
    if found is not None and found[0].guild_id is None:
        raise PracticeRunningError(**place)
    raise AlreadyInGameError(**place)


async def stop_practice(db: Database, user_id: int) -> GameInfo:
    """Cancel ``user_id``'s live practice game (no winner, nothing recorded; the seed is
    shown in the DM as for any cancelled game)."""
    check_id(user_id, "user")
    async with db.transaction() as s:
        found = await repo.find_game(s, user_id=user_id, lock=True)
        if found is None or found[0].guild_id is not None or found[0].moderator_id != user_id:
            raise NoPracticeError()
        return await cancel(Table(s, found[0], db.now(), writing=True), STOPPED)
