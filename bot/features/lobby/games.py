"""Game lifecycle: create a game in a channel, join and leave its lobby, start it; and
finding games (by id, by channel, by player, by moderator, all live ones).

Permission checks (is the caller a moderator?) are the Discord layer's job; the service
records who the moderator is.
"""

from __future__ import annotations

import secrets
from datetime import datetime

from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

import engine
import engine.view
from bot import log_context
from bot.core import policy
from bot.core.common import (
    add_step,
    apply_state,
    arm_clock,
    check_id,
    info_of,
    info_of_row,
    locked_game,
    mail_for,
    mail_holder,
    mail_phase_started,
    seed_digest,
    settings_of,
)
from bot.core.errors import (
    AlreadyInGameError,
    AlreadyJoinedError,
    BadArgumentError,
    ChannelHasGameError,
    GameNotFoundError,
    KickedFromLobbyError,
    LobbyClosedError,
    LobbyFullError,
    NoActiveGameError,
    NotEnoughPlayersError,
    NotInGameError,
)
from bot.core.messages import GameStarted, LobbyKicked, LobbyPost, Sheet
from bot.core.policy import Action, Standing
from bot.core.types import GameInfo, GameSettings, UserRef
from bot.db import repositories as repo
from bot.db.models import Game, GamePlayer
from bot.db.session import Database
from bot.features.ai_seats import ai_seats
from bot.features.ai_seats import turns as ai_turns
from bot.features.gallery import gallery, predictions
from bot.features.lobby.start_time import set_start_time
from bot.features.prompts.prompts import mail_prompts, prompt_is_the_notice
from bot.features.records.reliability import require_reliability


async def create_game(
    db: Database,
    *,
    guild_id: int,
    channel_id: int,
    moderator: UserRef,
    settings: GameSettings | None = None,
    seed: str | None = None,
    start_in: int = 0,
) -> GameInfo:
    """Open a lobby in ``channel_id``. One live game per channel (ChannelHasGameError).
    The secret seed is drawn now (``seed`` only for tests and replays) and only its
    SHA-256 is ever shown before the end. ``start_in``: seconds from now to the lobby's
    start time (0: none; see ``lobby_clock``)."""
    check_id(guild_id, "guild")
    check_id(channel_id, "channel")
    mod = moderator.checked()
    settings = settings or GameSettings()
    if seed is not None and not (isinstance(seed, str) and 8 <= len(seed) <= 128):
        raise BadArgumentError(field="seed", reason="8 to 128 characters")
    seed = seed or secrets.token_hex(16)
    now = db.now()
    try:
        async with db.transaction() as s:
            existing = await repo.live_game_in_channel(s, channel_id)
            if existing is not None:
                raise ChannelHasGameError(game_id=existing.id)
            await repo.upsert_user(s, mod.id, mod.name, mod.locale, now)
            game = Game(
                guild_id=guild_id,
                channel_id=channel_id,
                active_channel_id=channel_id,
                moderator_id=mod.id,
                settings=settings.model_dump(),
                language=settings.language,
                secret_seed=seed,
                seed_sha256=seed_digest(seed),
                status="lobby",
                round=0,
                version=0,
                notice_seq=0,
                created_at=now,
            )
            set_start_time(game, now, start_in)
            s.add(game)
            await s.flush()
            await ai_seats.sync_lobby(s, game, settings, now)
            # The lobby post (with its Join button) goes through the outbox like every
            # post: a failure or a stop right after this commit cannot lose it.
            mail, _ = await mail_for(s, game, seq=None, round_no=0, phase="lobby", now=now)
            mail.public(LobbyPost())
            await s.flush()
            return await info_of(s, game)
    except IntegrityError:
        # Another moderator opened a game here at the same moment: the unique
        # active_channel_id let only one through.
        other = await game_in_channel(db, channel_id)
        raise ChannelHasGameError(game_id=other.id if other else 0) from None


async def join_game(db: Database, game_id: int, user: UserRef, standing: Standing) -> GameInfo:
    """Join a lobby, as one who can see its channel (``standing``, the access policy's
    ``join``). A player may be in one live game at a time, across all servers
    (AlreadyInGameError); joining twice is refused the same way. A game's
    ``min_reliability`` refuses a player below it (ReliabilityTooLowError)."""
    u = user.checked()
    now = db.now()
    try:
        async with db.transaction() as s:
            game = await locked_game(s, game_id)
            policy.require(Action.JOIN, standing.of_user(u.id), game)
            if game.status != "lobby":
                raise LobbyClosedError(game_id=game.id)
            current = await repo.live_game_place(s, u.id)
            if current is not None:
                raise (AlreadyJoinedError() if current["game_id"] == game.id else AlreadyInGameError(**current))
            former = await repo.member(s, game.id, u.id)
            if former is not None and former.status == "kicked":
                raise KickedFromLobbyError(game_id=game.id)
            await gallery.refuse_watching_joiner(s, game.id, u.id)
            members = await repo.lobby(s, game.id)
            settings = settings_of(game)
            await require_reliability(s, game, settings, u.id)
            humans = 1 + sum(1 for m in members if not ai_seats.is_ai(m))
            if humans + ai_seats.wanted(settings, humans) > settings.max_players:
                raise LobbyFullError(max=settings.max_players)
            await repo.upsert_user(s, u.id, u.name, u.locale, now)
            s.add(
                GamePlayer(
                    game_id=game.id,
                    user_id=u.id,
                    active_user_id=u.id,
                    display_name=u.name,
                    status="lobby",
                    joined_at=now,
                )
            )
            await s.flush()
            await ai_seats.sync_lobby(s, game, settings, now)  # filling the table: an AI seat gives way
            return await info_of(s, game)
    except IntegrityError:
        # The same user joined another game at the same moment: the unique
        # active_user_id let only one of them through.
        async with db.read() as s:
            m = await repo.live_game_place(s, u.id)
        raise AlreadyInGameError(**(m or {"game_id": game_id, "channel": "—"})) from None


async def leave_game(db: Database, game_id: int, user_id: int) -> GameInfo:
    """Leave a lobby before the start. Once the game runs, a moderator replaces or
    removes the player instead."""
    check_id(user_id, "user")
    async with db.transaction() as s:
        game = await locked_game(s, game_id)
        if game.status != "lobby":
            raise LobbyClosedError(game_id=game.id)
        m = await repo.member(s, game.id, user_id)
        if m is None:
            raise NotInGameError(game_id=game.id)
        await s.delete(m)
        await s.flush()
        await ai_seats.sync_lobby(s, game, settings_of(game), db.now())  # filling the table: an AI seat comes back
        return await info_of(s, game)


async def kick_from_lobby(db: Database, game_id: int, user_id: int) -> GameInfo:
    """A moderator takes a player out of the lobby: they are told by DM, in their
    language, and may not join this lobby again (other games, yes)."""
    check_id(user_id, "user")
    now = db.now()
    async with db.transaction() as s:
        game = await locked_game(s, game_id)
        if game.status != "lobby":
            raise LobbyClosedError(game_id=game.id)
        m = await repo.member(s, game.id, user_id)
        if m is None or m.status != "lobby":
            raise NotInGameError(game_id=game.id)
        m.status, m.active_user_id, m.left_at = "kicked", None, now
        mail, _ = await mail_for(s, game, seq=None, round_no=0, phase="lobby", now=now)
        mail.locales.update(await repo.user_locales(s, [user_id]))
        mail.private(user_id, LobbyKicked())
        await s.flush()
        await ai_seats.sync_lobby(s, game, settings_of(game), now)
        return await info_of(s, game)


async def start_game(db: Database, game_id: int) -> GameInfo:
    """Deal classes and factions from the game's secret seed, seat the lobby in joining
    order and open Day 1. Sends each player their character sheet and the table the
    seed's SHA-256, for checking after the end."""
    now = db.now()
    async with db.transaction() as s:
        game = await locked_game(s, game_id)
        return await start_locked(s, game, now)


async def start_locked(s: AsyncSession, game: Game, now: datetime) -> GameInfo:
    """``start_game`` on a game already locked in ``s``: the one way a game starts, by
    a moderator's command or at the lobby's start time."""
    if game.status != "lobby":
        raise LobbyClosedError(game_id=game.id)
    members = await repo.lobby(s, game.id)
    ai_seats.require_human(members)
    if len(members) < engine.MIN_PLAYERS:
        raise NotEnoughPlayersError(min=engine.MIN_PLAYERS, count=len(members))
    settings = settings_of(game)
    names = [m.display_name for m in members]
    state = engine.new_game(names, game.secret_seed, settings.engine_settings(players=len(names)))
    for seat, m in enumerate(members, start=1):
        m.seat = seat
        m.status = "playing"
    apply_state(game, state)
    game.status = "running"
    game.started_at = now
    game.start_at = game.start_reminder_at = None
    arm_clock(game, now)
    seq = add_step(
        s,
        game,
        kind="start",
        round_no=0,
        phase="start",
        inputs={"names": names, "settings": state.settings.to_dict()},
        events=engine.start_events(state),
        rolls=[],
        state=state,
        now=now,
    )
    await s.flush()
    mail, holders = await mail_for(s, game, seq=seq, round_no=0, phase="start", now=now)
    mail.public(GameStarted(table=engine.view.table(state), seed_sha256=game.seed_sha256))
    await gallery.mail_truth(mail, game, step="start", round_no=0, phase="start", events=engine.start_events(state), rolls=[], state=state)
    new = await repo.newcomers(s, [h.user_id for h in holders.values() if h.user_id is not None])
    for seat, holder in sorted(holders.items()):
        mail_holder(mail, holder, Sheet(sheet=engine.view.sheet(state, seat), tip=holder.user_id in new))
    opened = mail_phase_started(mail, game, notice=not await prompt_is_the_notice(s, game))
    await mail_prompts(mail, game, follows=opened)
    await predictions.mail_round_open(mail, game)
    await ai_turns.plan_phase(s, game)
    return await info_of(s, game)


async def get_game(db: Database, game_id: int) -> GameInfo:
    """The public view of a game."""
    async with db.read() as s:
        game = await repo.game_row(s, check_id(game_id, "game"))
        if game is None:
            raise GameNotFoundError(game_id=game_id)
        return await info_of_row(s, game)


async def removed_players(db: Database, game_id: int) -> list[int]:
    """The user ids of the players a moderator removed from the game: their seats no
    longer name them, but they have left it as the dead have (quiet dead mutes them)."""
    async with db.read() as s:
        return [p.user_id for p in await repo.removed(s, check_id(game_id, "game")) if p.user_id is not None]


async def game_in_channel(db: Database, channel_id: int) -> GameInfo | None:
    """The live game of a channel, if any."""
    async with db.read() as s:
        game = await repo.live_game_row_in_channel(s, check_id(channel_id, "channel"))
        return None if game is None else await info_of_row(s, game)


async def active_game_of(db: Database, user_id: int) -> GameInfo:
    """The one live game this user is in (for commands sent by DM)."""
    async with db.read() as s:
        m = await repo.live_membership(s, check_id(user_id, "user"))
        if m is None:
            raise NoActiveGameError()
        game = await repo.game_row(s, m.game_id)
        assert game is not None
        return await info_of_row(s, game)


async def latest_game_in_channel(db: Database, channel_id: int, *, finished_first: bool = False) -> GameInfo | None:
    """The channel's most recent game, live or finished; None when the channel never
    had one. ``finished_first`` (the log of the game that ended there, even once a new
    lobby is open): the most recent finished game, when there is one."""
    async with db.read() as s:
        game = await repo.latest_game_in_channel(s, check_id(channel_id, "channel"), finished_first=finished_first)
        return None if game is None else await info_of(s, game)


async def games_moderated_by(db: Database, user_id: int) -> list[GameInfo]:
    """The live games (lobby, running, paused) this user moderates, oldest first."""
    with log_context.about():  # several games: the log's context names none of them
        async with db.read() as s:
            return [await info_of(s, g) for g in await repo.live_games(s, moderator_id=check_id(user_id, "user"))]


async def live_games(db: Database) -> list[GameInfo]:
    """Every live game (lobby, running, paused), oldest first (e.g. to resync the
    channels' permissions after a restart)."""
    with log_context.about():  # several games: the log's context names none of them
        async with db.read() as s:
            return [await info_of(s, g) for g in await repo.live_games(s)]
