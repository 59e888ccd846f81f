"""Builders for service tests: a lobby of N players, simple players who send something
plausible in every phase until the game ends, and a count of a table's rows."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from dataclasses import replace
from datetime import timedelta
from typing import Any

from sqlalchemy import func, select

import engine
from bot.core.advance import advance_phase
from bot.core.errors import ServiceError
from bot.core.outbox import OutgoingMessage, claim_due_messages, mark_delivered
from bot.core.policy import Standing
from bot.core.types import GameSettings, UserRef
from bot.db import repositories as repo
from bot.db.session import Database, utcnow
from bot.features.lobby.games import create_game, get_game, join_game, start_game
from bot.features.play.commands import SendSubmission, handle

GUILD = 1000
CHANNEL = 2000
MODERATOR = UserRef(9, "Mod")


async def sees(db: Database, game_id: object, who: UserRef) -> Standing:
    """What Discord would say of ``who`` as a member of the game's server who can see its
    channel (the access policy's facts, as ``bot.discord.guild.standing`` gathers them); a
    stranger's standing when there is no such game (the use case then says so)."""
    try:
        info = await get_game(db, game_id)  # type: ignore[arg-type]
    except ServiceError:
        return Standing.stranger(who.id)
    return Standing.member_of(who.id, info.guild_id, (info.channel_id,))


def user(i: int) -> UserRef:
    return UserRef(100 + i, f"Player{i}")


async def lobby(db: Database, n: int = 6, *, channel: int = CHANNEL, first: int = 1, seed: str = "test-seed-0001", **settings: object) -> int:
    info = await create_game(
        db, guild_id=GUILD, channel_id=channel, moderator=MODERATOR,
        settings=GameSettings.build(**settings), seed=seed,
    )
    await post_the_lobby(db, info.id)
    for i in range(first, first + n):
        await join_game(db, info.id, user(i), await sees(db, info.id, user(i)))
    return info.id


async def post_the_lobby(db: Database, game_id: int) -> None:
    """Deliver the lobby post, as the bot does at once, so that a test sees only the
    messages of what it does next."""
    from sqlalchemy import select

    from bot.db.models import OutboxMessage

    async with db.read() as s:
        keys = (await s.execute(select(OutboxMessage.idempotency_key).where(OutboxMessage.game_id == game_id))).scalars().all()
    assert len(keys) == 1, keys
    await mark_delivered(db, keys[0])


async def started(db: Database, n: int = 6, **kw: object) -> int:
    game_id = await lobby(db, n, **kw)
    await start_game(db, game_id)
    return game_id


def _next_alive(alive: list[int], seat: int) -> int:
    later = [s for s in alive if s > seat]
    return (later or [s for s in alive if s != seat])[0]


def choice(state: engine.GameState, seat: int) -> engine.Submission | None:
    """What a simple player in ``seat`` sends now: a number, an attack on the next living
    seat (nothing when wounded), a vote for the next living seat."""
    me = state.player(seat)
    alive = [p.seat for p in state.players if p.alive]
    if not me.alive or len(alive) < 2:
        return None
    target = _next_alive(alive, seat)
    if state.phase is engine.Phase.DAY:
        return engine.GrailNumber((seat * 37 + state.round * 11) % 100 + 1)
    if state.phase is engine.Phase.DUSK:
        if me.wounded:
            return engine.Orders()
        return engine.Orders(actions=(engine.Action("attack", (target,)),))
    return engine.Vote(target)


async def current_state(db: Database, game_id: int) -> engine.GameState:
    async with db.read() as s:
        game = await repo.get_game(s, game_id)
        assert game is not None and game.state is not None
        return engine.GameState.from_dict(game.state)


async def send_all(db: Database, game_id: int) -> int:
    """Every living player sends their simple choice; returns how many did."""
    state = await current_state(db, game_id)
    info = await get_game(db, game_id)
    sent = 0
    for p in info.players:
        sub = choice(state, p.seat) if p.seat is not None else None
        if sub is not None:
            await handle(db, SendSubmission(sub), p.user_id, game_id=game_id)
            sent += 1
    return sent


async def play_to_end(db: Database, game_id: int, max_steps: int = 300) -> int:
    """Submit and advance until the game is over; returns the number of advances."""
    for n in range(1, max_steps + 1):
        await send_all(db, game_id)
        result = await advance_phase(db, game_id)
        if result.over:
            return n
    raise AssertionError("the game did not end")


async def take_due(db: Database, limit: int = 1000) -> list[OutgoingMessage]:
    """What a dispatcher would deliver now: claimed and marked delivered, pass after pass
    while a pass finds some (a phase's prompts come in the pass after its post). (Claimed
    and not marked, they would hold back the later messages to the same place.)"""
    taken: list[OutgoingMessage] = []
    while messages := await claim_due_messages(db, limit=limit):
        for m in messages:
            await mark_delivered(db, m.key)
        taken += messages
    return taken


async def count(db: Database, model: type) -> int:
    """How many rows of ``model`` the database holds."""
    async with db.read() as s:
        return int((await s.execute(select(func.count()).select_from(model))).scalar_one())


def within(url: str, work: Callable[[Database], Awaitable[object]], *, ago: timedelta = timedelta(0)) -> None:
    """For a test of a command that runs its own event loop: do ``work`` on the database
    at ``url`` on the real clock (the command's), set back by ``ago``."""

    async def go() -> None:
        db = Database(url, clock=lambda: utcnow() - ago)
        try:
            await work(db)
        finally:
            await db.dispose()

    asyncio.run(go())



@contextmanager
def dealing_under(version: int) -> Iterator[None]:
    """Games started inside deal under rules ``version`` instead of the newest, as the
    release that published it did (the engine keeps every version): for tests of stored
    games of an older version, such as the downgrades an older release may take."""
    dealt = GameSettings.engine_settings

    def engine_settings(self: GameSettings, players: int | None = None) -> engine.Settings:
        return replace(dealt(self, players), rules_version=version)

    GameSettings.engine_settings = engine_settings  # type: ignore[method-assign]
    try:
        yield
    finally:
        GameSettings.engine_settings = dealt  # type: ignore[method-assign]


def apply_state(game: Any, state: Any) -> None:
    """A test's own state for a stored game (as a step would write it)."""
    game.state = state.to_dict()
    game.round = state.round
    game.phase = state.phase.value


async def locked_game(s: Any, game_id: int) -> Any:
    """The game row, locked in ``s`` (a test reaching past the use cases)."""
    from bot.db import repositories as repo

    found = await repo.find_game(s, game_id=game_id, lock=True)
    assert found is not None
    return found[0]


def as_moderator(standing: Any) -> Any:
    """The place of a moderator's request that Discord says ``standing`` of: sent in its
    server (``moderate`` finds the game the command names)."""
    from bot.core.table import Place
    from bot.core.types import UserRef

    return Place(UserRef(standing.user_id, f"user{standing.user_id}"), standing.guild_id, None, here=standing)
