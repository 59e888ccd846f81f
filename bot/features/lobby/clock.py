"""A lobby's start time. A moderator may give a lobby one (``/mod create`` or
``/mod settings``, as a time from now); its members are reminded by DM the game's
reminder lead before it; at it the game starts, through the same path as
``/mod start`` (``games.start_locked``), if at least the minimum of players have
joined, and is otherwise cancelled (``moderation.cancel_locked``) with a notice that
names the standby list.

Kept like the phase deadlines: stored on the game (``start_at``, ``start_reminder_at``),
found by the scheduler's ``run_due`` and ``next_wakeup``, decided under the game's lock,
so a restart or a second bot process changes nothing."""

from __future__ import annotations

from collections.abc import Collection
from datetime import datetime
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

import engine
from bot.core import table
from bot.core.deadlines import DueReport, DueWork, count, due_work, each_game
from bot.core.messages import LobbyReminder
from bot.db import repositories as repo
from bot.db.repos import lobbies as lobbies_repo
from bot.db.session import Database
from bot.features.lobby.games import start
from bot.features.lobby.start_time import NOT_FILLED
from bot.features.moderation.moderation import cancel


async def start_if_due(db: Database, game_id: int) -> str | None:
    """At the lobby's start time: start it ("started") or, short of players, cancel it
    ("cancelled"); None when it is not due (or no longer a lobby)."""
    async with table.of(db, game_id, writing=True) as t:
        game = t.game
        if game.status != "lobby" or game.start_at is None or game.start_at > t.now:
            return None
        joined = len(await t.lobby())
        if joined >= engine.MIN_PLAYERS:
            await start(t)
            return "started"
        await cancel(t, NOT_FILLED, short_of=(joined, engine.MIN_PLAYERS))
        return "cancelled"


async def remind_lobby_if_due(db: Database, game_id: int) -> int:
    """Remind each member of the lobby by DM, in their language, that it starts soon
    (and how many it needs); the number of messages written (0: not due)."""
    async with table.of(db, game_id, writing=True) as t:
        game, s, now = t.game, t.session, t.now
        if game.status != "lobby" or game.start_reminder_at is None or game.start_reminder_at > now:
            return 0
        game.start_reminder_at = None
        if game.start_at is None or game.start_at <= now:
            return 0  # the start itself is due: no point in a reminder now
        members = await t.lobby()
        mail = await t.mail(seq=None, round_no=0, phase="lobby")
        humans = [m.user_id for m in members if m.user_id is not None]  # (an AI seat has no DMs)
        mail.locales.update(await repo.user_locales(s, humans))
        note = LobbyReminder(start_at=game.start_at.isoformat(), count=len(members), min=engine.MIN_PLAYERS, channel_id=game.channel_id)
        for user_id in humans:
            mail.private(user_id, note)
        await s.flush()
        return mail.count


async def lobby_due_work(s: AsyncSession, now: datetime) -> tuple[list[int], list[int]]:
    """The lobbies whose start time has come and those whose reminder is due, earliest first
    (each a range of its (status, time) index: ``bot.db.repos.lobbies``)."""
    return await lobbies_repo.due_lobbies(s, now)


def next_lobby_times(held: Collection[int] = ()) -> tuple[Any, Any]:
    """The earliest lobby start time and reminder, as scalar subqueries for a scheduler's
    sleep (``deadlines.next_wakeup``); the games in ``held`` (waiting to retry a failure)
    left out: the repository's."""
    return lobbies_repo.next_times(held)


async def _start_and_remind(db: Database, held: Collection[int], report: DueReport) -> None:
    """The scheduler's tick: the lobbies whose start time has come start (or are
    cancelled), those whose reminder is due are reminded."""
    async with db.read() as s:
        starts, reminders = await lobby_due_work(s, db.now())
    started = report.done.setdefault("lobbies", [])
    count(report, await each_game(starts, lambda g: start_if_due(db, g), "starting game %s at its start time", held), started)
    count(report, await each_game(reminders, lambda g: remind_lobby_if_due(db, g), "reminding the lobby of game %s", held), report.reminded)


due_work(DueWork("lobbies", 10, _start_and_remind, lambda held: list(next_lobby_times(held))))
