"""Game lifecycle: create a game in a channel, join and leave its lobby, start it; and
the public view of a game (by id, by channel, every live one).

Permission checks (is the caller a moderator?) are the Discord layer's job; the service
records who the moderator is.
"""

from __future__ import annotations

import hashlib
import secrets

from sqlalchemy.exc import IntegrityError

import engine
import engine.view
from bot import log_context
from bot.core import hooks, table
from bot.core.clock import arm_clock
from bot.core.errors import (
    AlreadyInGameError,
    AlreadyJoinedError,
    BadArgumentError,
    ChannelHasGameError,
    KickedFromLobbyError,
    LobbyClosedError,
    LobbyFullError,
    NotEnoughPlayersError,
    NotInGameError,
)
from bot.core.hooks import Step
from bot.core.messages import GameStarted, LobbyKicked, LobbyPost, Sheet
from bot.core.policy import Action, Standing
from bot.core.steps import mail_holder, open_phase, write_step
from bot.core.table import Place, Table
from bot.core.types import GameInfo, GameSettings, UserRef, check_id
from bot.db import repositories as repo
from bot.db.models import Game, GamePlayer
from bot.db.session import Database
from bot.features.ai_seats import ai_seats
from bot.features.gallery import gallery
from bot.features.lobby.start_time import set_start_time
from bot.features.records.reliability import require_reliability


def seed_digest(seed: str) -> str:
    """What is published at the start so the seed can be checked at the end."""
    return hashlib.sha256(seed.encode()).hexdigest()


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
            existing = await repo.find_game(s, channel_id=channel_id)
            if existing is not None:
                raise ChannelHasGameError(game_id=existing[0].id)
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
            t = Table(s, game, now, Place(mod, guild_id, channel_id), writing=True)
            await ai_seats.sync_lobby(t, settings)
            # The lobby post (with its Join button) goes through the outbox like every
            # post: a failure or a stop right after this commit cannot lose it.
            (await t.mail(seq=None, round_no=0, phase="lobby")).public(LobbyPost())
            await s.flush()
            return await t.info()
    except IntegrityError:
        # Another moderator opened a game here at the same moment: the unique
        # active_channel_id let only one through.
        async with db.read() as s:
            other = await repo.find_game(s, channel_id=channel_id)
        raise ChannelHasGameError(game_id=other[0].id if other else 0) from None


async def join_game(db: Database, game_id: int, user: UserRef, standing: Standing) -> GameInfo:
    """Join a lobby, as one who can see its channel (``standing``, the access policy's
    ``join``). A player may be in one live game at a time, across all servers
    (AlreadyInGameError); joining twice is refused the same way. A game's
    ``min_reliability`` refuses a player below it (ReliabilityTooLowError)."""
    u = user.checked()
    try:
        async with table.at(db, Place(u, game_id=game_id, here=standing.of_user(u.id)), writing=True) as t:
            return await join(t)
    except IntegrityError:
        # The same user joined another game at the same moment: the unique
        # active_user_id let only one of them through.
        async with db.read() as s:
            m = await repo.live_game_place(s, u.id)
        raise AlreadyInGameError(**(m or {"game_id": game_id, "channel": "—"})) from None


async def join(t: Table) -> GameInfo:
    """The caller joins the lobby of ``t`` (see :func:`join_game`)."""
    assert t.place is not None
    game, u, s = t.game, t.place.user, t.session
    await t.require(Action.JOIN)
    if game.status != "lobby":
        raise LobbyClosedError(game_id=game.id)
    current = await repo.live_game_place(s, u.id)
    if current is not None:
        raise (AlreadyJoinedError() if current["game_id"] == game.id else AlreadyInGameError(**current))
    former = await t.member(u.id)
    if former is not None and former.status == "kicked":
        raise KickedFromLobbyError(game_id=game.id)
    await gallery.refuse_watching_joiner(s, game.id, u.id)
    settings = t.settings
    await require_reliability(s, game, settings, u.id)
    humans = 1 + sum(1 for m in await t.lobby() if not ai_seats.is_ai(m))
    if humans + ai_seats.wanted(settings, humans) > settings.max_players:
        raise LobbyFullError(max=settings.max_players)
    await repo.upsert_user(s, u.id, u.name, u.locale, t.now)
    t.joined(GamePlayer(game_id=game.id, user_id=u.id, active_user_id=u.id, display_name=u.name, status="lobby", joined_at=t.now))
    await s.flush()
    await ai_seats.sync_lobby(t, settings)  # filling the table: an AI seat gives way
    return await t.info()


async def leave_game(db: Database, game_id: int, user_id: int) -> GameInfo:
    """Leave a lobby before the start. Once the game runs, a moderator replaces or
    removes the player instead."""
    async with table.at(db, Place.of(user_id, game_id=game_id), writing=True) as t:
        if t.game.status != "lobby":
            raise LobbyClosedError(game_id=t.game.id)
        m = await t.caller_row()
        if m is None:
            raise NotInGameError(game_id=t.game.id)
        await t.left(m)
        await t.session.flush()
        await ai_seats.sync_lobby(t, t.settings)  # filling the table: an AI seat comes back
        return await t.info()


async def kick_from_lobby(db: Database, game_id: int, user_id: int) -> GameInfo:
    """A moderator takes a player out of the lobby: they are told by DM, in their
    language, and may not join this lobby again (other games, yes)."""
    async with table.of(db, game_id, writing=True) as t:
        return await kick(t, user_id)


async def kick(t: Table, user_id: int) -> GameInfo:
    """``kick_from_lobby`` on the game's table."""
    check_id(user_id, "user")
    game = t.game
    if game.status != "lobby":
        raise LobbyClosedError(game_id=game.id)
    m = await t.member(user_id)
    if m is None or m.status != "lobby":
        raise NotInGameError(game_id=game.id)
    m.status, m.active_user_id, m.left_at = "kicked", None, t.now
    mail = await t.mail(seq=None, round_no=0, phase="lobby")
    mail.locales.update(await repo.user_locales(t.session, [user_id]))
    mail.private(user_id, LobbyKicked())
    await t.session.flush()
    await ai_seats.sync_lobby(t, t.settings)
    return await t.info()


async def start_game(db: Database, game_id: int) -> GameInfo:
    """Deal classes and factions from the game's secret seed, seat the lobby in joining
    order and open Day 1. Sends each player their character sheet and the table the
    seed's SHA-256, for checking after the end."""
    async with table.of(db, game_id, writing=True) as t:
        return await start(t)


async def start(t: Table) -> GameInfo:
    """The game of ``t`` starts: the one way a game starts, by a moderator's command or
    at the lobby's start time."""
    game = t.game
    if game.status != "lobby":
        raise LobbyClosedError(game_id=game.id)
    members = await t.lobby()
    ai_seats.require_human(members)
    if len(members) < engine.MIN_PLAYERS:
        raise NotEnoughPlayersError(min=engine.MIN_PLAYERS, count=len(members))
    names = [m.display_name for m in members]
    state = engine.new_game(names, game.secret_seed, t.settings.engine_settings(players=len(names)))
    for seat, m in enumerate(members, start=1):
        m.seat = seat
        m.status = "playing"
    game.status = "running"
    game.started_at = t.now
    game.start_at = game.start_reminder_at = None
    step = Step(t, "start", 0, "start", events=engine.start_events(state))
    seq = write_step(t, step, inputs={"names": names, "settings": state.settings.to_dict()}, state=state)
    arm_clock(t)
    await t.session.flush()
    mail = step.mail = await t.mail(seq=seq, round_no=0, phase="start")
    mail.public(GameStarted(table=engine.view.table(state), seed_sha256=game.seed_sha256))
    await hooks.TOLD.publish(step)
    holders = await t.holders()
    new = await repo.newcomers(t.session, [h.user_id for h in holders.values() if h.user_id is not None])
    for seat, holder in sorted(holders.items()):
        mail_holder(mail, holder, Sheet(sheet=engine.view.sheet(state, seat), tip=holder.user_id in new))
    await open_phase(step)
    return await t.info()


async def get_game(db: Database, game_id: int) -> GameInfo:
    """The public view of a game."""
    async with table.of(db, game_id, writing=False) as t:
        return await t.info()


async def removed_players(db: Database, game_id: int) -> list[int]:
    """The user ids of the players a moderator removed from the game: their seats no
    longer name them, but they have left it as the dead have (quiet dead mutes them)."""
    async with db.read() as s:
        return [p.user_id for p in await repo.removed(s, check_id(game_id, "game")) if p.user_id is not None]


async def game_in_channel(db: Database, channel_id: int) -> GameInfo | None:
    """The live game of a channel, if any (for the tools and the tests: a request finds
    its game through its place, ``bot.core.table``)."""
    async with db.read() as s:
        found = await repo.find_game(s, channel_id=check_id(channel_id, "channel"))
        return None if found is None else await Table(s, found[0], db.now()).info()


async def latest_game_in_channel(db: Database, channel_id: int, *, finished_first: bool = False) -> GameInfo | None:
    """The channel's most recent game, live or finished; None when the channel never
    had one. ``finished_first`` (the log of the game that ended there, even once a new
    lobby is open): the most recent finished game, when there is one."""
    async with db.read() as s:
        game = await repo.latest_game_in_channel(s, check_id(channel_id, "channel"), finished_first=finished_first)
        return None if game is None else await Table(s, game, db.now()).info()


async def live_games(db: Database) -> list[GameInfo]:
    """Every live game (lobby, running, paused), oldest first (e.g. to resync the
    channels' permissions after a restart)."""
    with log_context.about():  # several games: the log's context names none of them
        async with db.read() as s:
            return [await Table(s, g, db.now()).info() for g in await repo.live_games(s)]
