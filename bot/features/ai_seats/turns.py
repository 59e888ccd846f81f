"""When the AI seats play: each living AI seat's turn in a phase, planned in the
transaction that opens the phase.

A turn is an ``ai_turns`` row due at the seat's moment (:func:`due_fraction`), played
by the scheduler's tick like a deadline (``bot.features.ai_seats.play.play_due``). It is
written by :func:`plan_phase` in the same transaction as what makes the seat owe one:
the start (Day 1 opens), every advance that opens a phase, a seat handed to the AI,
and a resume (a seat handed over while the game was paused). A crash therefore never
leaves an open phase without its turns, and the tick never looks for phases to plan:
an idle tick reads the due turns' index alone, however many games are live.

Only a database written before the turns were planned this way can hold an open phase
whose AI seats have no turn: :func:`plan_missing`, run once when the scheduler starts,
finds those phases in one statement (the running games with an AI seat and no turn for
it in the open phase, probed through the turns' unique index on (game, round, phase,
seat)) and plans them.
"""

from __future__ import annotations

import hashlib
from datetime import timedelta

from sqlalchemy.ext.asyncio import AsyncSession

from bot.core import hooks, table
from bot.core.hooks import Step
from bot.core.table import Table
from bot.db import repositories as repo
from bot.db.models import AiTurn, Game, GamePlayer
from bot.db.repos import ai as ai_repo
from bot.db.session import Database

# The AI's moment falls in this share of the phase (never at its very start or end).
EARLIEST, LATEST = 0.05, 0.85


def due_fraction(seed: str, round_no: int, phase: str, seat: int) -> float:
    """Where inside the phase the seat's submission lands (0 = its start, 1 = its
    deadline): drawn from the game's secret seed, so it tells nothing and is the same
    after a restart."""
    digest = hashlib.sha256(f"{seed}|ai-due|{round_no}|{phase}|{seat}".encode()).digest()
    return EARLIEST + (LATEST - EARLIEST) * int.from_bytes(digest[:8], "big") / 2**64


def fraction(game: Game, seat: int) -> float:
    """The seat's moment in ``game``'s open phase: in a practice game (no server) at once,
    so the phase closes as soon as the person has sent; else :func:`due_fraction`."""
    assert game.phase is not None
    return 0.0 if game.guild_id is None else due_fraction(game.secret_seed, game.round, game.phase, seat)


async def ai_seats(s: AsyncSession, game_id: int) -> dict[int, GamePlayer]:
    """The game's seats the AI holds, by seat."""
    return {seat: h for seat, h in (await repo.seat_holders(s, game_id)).items() if h.user_id is None}


@hooks.OPENED.listen(40)
async def plan_opened(step: Step) -> None:
    """(A phase opened.) The AI seats' turns in it, seats the absence policy handed over
    included."""
    await plan_phase(step.table)


async def plan_phase(t: Table) -> int:
    """Give each living AI seat of the game (locked, its changes flushed) without a
    turn in the open phase its turn, due at its moment between the phase's start and
    its deadline; the number planned. Nothing for a game that is not running (a paused
    game's seats are planned at its resume)."""
    game, s = t.game, t.session
    if game.status != "running" or game.phase is None or game.phase_deadline is None:
        return 0
    seats = {seat: h for seat, h in (await t.holders()).items() if h.user_id is None}
    if not seats:
        return 0
    state = t.state
    have = await ai_repo.planned_seats(s, game.id, game.round, game.phase)
    started = game.phase_started_at or game.phase_deadline
    span = max(timedelta(0), game.phase_deadline - started)
    planned = 0
    for seat in sorted(seats):
        if seat in have or not state.player(seat).alive:
            continue
        due = started + span * fraction(game, seat)
        s.add(AiTurn(game_id=game.id, seat=seat, round=game.round, phase=game.phase, due_at=due))
        planned += 1
    return planned


async def plan_missing(db: Database) -> int:
    """Plan the turns an older version left unplanned (see the module docstring), each
    game under its lock; the number planned."""
    async with db.read() as s:
        games = await ai_repo.unplanned_games(s)
    planned = 0
    for game_id in games:
        async with db.transaction() as s:
            planned += await plan_phase(await table.locked(s, game_id, db.now()))
    return planned
