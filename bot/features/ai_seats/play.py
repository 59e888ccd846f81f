"""How an AI seat plays: a patient player that knows only its seat.

**What it reads** (:func:`seat_reading`): exactly what a human holding the seat would
have: its sheet as ``/me`` shows it (``engine.view.sheet``), the public table, the game
channel's posts and the private messages addressed to the seat, in the order they were
written (an AI seat's own mail is stored with the outbox's ``to_seat``; what an earlier
human holder of the seat was sent, in their DMs, is the seat's too: the catch-up a
newcomer gets), and what it sent itself. From these alone it rebuilds the simulator's
:class:`~bot.ai.knowledge.Knowledge` and asks the baseline AI (``bot.ai``) for its submissions,
which go through the same validation and storage as a player's commands
(``submissions.validated`` and ``store``): refused, they are refused like anyone's.

**When it plays**: at a moment inside the phase drawn from the game's secret seed,
stored as an ``ai_turns`` row in the transaction that opens the phase
(:mod:`bot.features.ai_seats.turns`), played by the scheduler's tick like a deadline
(:func:`play_due`, which reads only the turns due, through their index).
Nothing lives only in memory: the due time, and the AI's notes of its own choices after each
turn (``memory``), are in the database, so a restart plays on where it stopped. A paused
game's turns wait (only running games are played); once resumed a turn whose moment has
passed is played at the next tick. Its submission counts for the early close like
anyone's. A phase closed before an AI seat's moment (a moderator's advance) has the
seat's turn played first, in the same unit of work (:func:`play_before_close`).

**What it remembers of its reading** (:class:`Readings`): reading the whole mail again at
every turn costs a game's length each time, so each process keeps, per seat, the
Knowledge fed so far and the id of the last message read, and the next turn reads and
feeds only the newer messages (a game's mail is written under its lock, so, read under
it, nothing older can still appear). What is kept is exactly what a full reading would
have built at that point (:func:`knowledge_from` is the same steps in one go). A seat
whose holders changed, or that this process has not kept (after a restart, another
process's game, one of the least recently played past the bound), reads everything
again; what a unit of work that did not commit read is not kept.
"""

from __future__ import annotations

import functools
import logging
from collections import OrderedDict
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

import engine
import engine.view
from bot import log_context
from bot.ai.knowledge import Knowledge
from bot.ai.player import BaselineAI
from bot.ai.runner import ai_rng
from bot.core import hooks, table
from bot.core.deadlines import DueReport, DueWork, due_work
from bot.core.errors import ServiceError
from bot.core.hooks import Step
from bot.core.messages import GameStarted, StepEvents, decode
from bot.core.rules import state_of
from bot.core.table import Table
from bot.db import kept as kept_
from bot.db.models import AiTurn, Game
from bot.db.repos import ai as ai_repo
from bot.db.session import Database
from bot.features.ai_seats.turns import ai_seats
from bot.features.play.submissions import store, validated
from engine.view import Sheet

log = logging.getLogger(__name__)

@dataclass(frozen=True)
class SeatReading:
    """Everything a seat's holder has been told: ``sheet`` (``/me``), ``table`` (the
    public table), ``messages`` (the payloads of the channel's posts and the seat's
    private messages, oldest first; with ``after``, only those newer than it),
    ``sent`` (its own submissions, by (round, phase, kind), when a Dusk's close is among
    the messages), ``holders`` (the users who held the seat) and ``last_id`` (the id of
    the newest message read; ``after`` when there was none)."""

    seat: int
    sheet: Sheet
    table: list[dict[str, Any]]
    messages: list[dict[str, Any]]
    sent: dict[tuple[int, str, str], dict[str, Any]] = field(default_factory=dict)
    holders: tuple[int, ...] = ()
    last_id: int = 0


async def seat_holders(s: AsyncSession, game_id: int, seat: int) -> tuple[int, ...]:
    """The users who have held ``seat`` (its holder and those it was taken from)."""
    holders = await ai_repo.holders_of_seat(s, game_id, seat)
    return tuple(sorted({u for u in holders if u is not None}))


async def seat_reading(
    s: AsyncSession, game: Game, seat: int, *, after: int = 0, state: engine.GameState | None = None, holders: tuple[int, ...] | None = None
) -> SeatReading:
    """What the holder of ``seat`` has been shown so far (see :class:`SeatReading`): the
    messages newer than the one of id ``after`` (0: all of them)."""
    state = state if state is not None else state_of(game)
    users = holders if holders is not None else await seat_holders(s, game.id, seat)
    rows = await ai_repo.seat_messages(s, game.id, seat, users, after)
    messages = [payload for _, kind, payload in rows if kind != "user" or payload.get("seat", seat) == seat]
    subs: Sequence[Any] = ()
    if any(m.get("type") == "events" and m.get("step", "advance") == "advance" and m.get("phase") == "dusk" for m in messages):
        # (What the seat sent is read only for a Dusk's close, to read its identification's answer.)
        subs = await ai_repo.seat_submissions(s, game.id, seat)
    return SeatReading(
        seat,
        engine.view.sheet(state, seat),
        engine.view.table(state),
        messages,
        {(r, p, kind): payload for r, p, kind, payload in subs},
        users,
        rows[-1][0] if rows else after,
    )


def knowledge_from(reading: SeatReading, round_no: int, phase: str) -> Knowledge:
    """The simulator's Knowledge of the seat, rebuilt from its reading alone: each
    step's events as the holder read them, in order, with the clock of the phase they
    closed; its own identifications (to read their answers); then today's sheet. The
    messages are read as the bot's renderers read them, decoded to their classes
    (``bot.core.messages``)."""
    return finished(fed(None, reading), reading, round_no, phase)


def fed(k: Knowledge | None, reading: SeatReading) -> Knowledge:
    """``k`` (None: a new Knowledge, from the table as dealt) fed the events of
    ``reading``'s messages in order: the first part of :func:`knowledge_from`, which
    may be done in several readings, each of the messages newer than the last."""
    read = [decode(m) for m in reading.messages]
    if k is None:
        start = next((m.table for m in read if isinstance(m, GameStarted)), reading.table)
        k = Knowledge(reading.sheet, start)
    for m in read:
        if not isinstance(m, StepEvents):
            continue
        k.set_phase(m.round, m.phase)
        if m.step == "advance" and m.phase == "dusk":
            sent = reading.sent.get((m.round, "dusk", "identify"))
            if sent is not None:
                k.note_sent([engine.submission_from_dict(sent)])
        for e in m.events:
            k.see(e)
    return k


def finished(k: Knowledge, reading: SeatReading, round_no: int, phase: str) -> Knowledge:
    """The last part of :func:`knowledge_from`: today's table, clock and sheet."""
    k.update_table(reading.table)
    k.set_phase(round_no, phase)
    k.update_sheet(reading.sheet)
    return k


@dataclass(frozen=True)
class _Read:
    """A seat's reading so far: for whom (the game's seed, the seat's holders), up to
    which message, and the Knowledge fed with it (not yet :func:`finished`)."""

    key: tuple[str, tuple[int, ...]]
    last_id: int
    fed: Knowledge


class Readings:
    """Per database, what each AI seat has read so far (see the module docstring),
    the ``bound`` most recently used seats. A reading taken in a unit of work is kept
    only once that unit has committed (``bot.db.kept.once_committed``): one rolled back
    may have read its own writes, which never were."""

    def __init__(self, bound: int = 4096) -> None:
        self.bound = bound
        self.seats: OrderedDict[tuple[int, int], _Read] = OrderedDict()

    def get(self, game_id: int, seat: int, key: tuple[str, tuple[int, ...]]) -> _Read | None:
        kept = self.seats.get((game_id, seat))
        if kept is None or kept.key != key:
            return None
        self.seats.move_to_end((game_id, seat))
        return kept

    def put(self, game_id: int, seat: int, read: _Read) -> None:
        self.seats[(game_id, seat)] = read
        self.seats.move_to_end((game_id, seat))
        while len(self.seats) > self.bound:
            self.seats.popitem(last=False)


def readings_of(s: AsyncSession) -> Readings:
    """The readings kept for ``s``'s database (``bot.db.kept.per_database``: by its
    engine's pool, which its reading and writing units share): none in a new process,
    or a new handle."""
    return kept_.per_database(s, "ai_readings", Readings)


async def seat_knowledge(s: AsyncSession, game: Game, seat: int, state: engine.GameState) -> Knowledge:
    """What :func:`knowledge_from` builds from the seat's whole reading, built from the
    messages newer than those it had read at its last turn when this process kept that
    reading (see the module docstring)."""
    kept = readings_of(s)
    holders = await seat_holders(s, game.id, seat)
    key = (game.secret_seed, holders)
    last = kept.get(game.id, seat, key)
    reading = await seat_reading(s, game, seat, after=last.last_id if last is not None else 0, state=state, holders=holders)
    k = fed(last.fed.copy() if last is not None else None, reading)
    if last is not None or any(m.get("type") == "game_started" for m in reading.messages):
        # (A seat never shown the table as dealt starts from today's table: not kept.)
        read = _Read(key, reading.last_id, k.copy())
        kept_.once_committed(s, ("ai_reading", game.id, seat), functools.partial(kept.put, game.id, seat, read))
    return finished(k, reading, game.round, str(game.phase))


def _encode(notes: dict[str, Any]) -> dict[str, Any]:
    """The AI's notes as JSON (sets and int-keyed dicts tagged)."""
    out: dict[str, Any] = {}
    for key, value in notes.items():
        if isinstance(value, set):
            out[key] = {"set": sorted(value)}
        elif isinstance(value, dict):
            out[key] = {"dict": [[k, v] for k, v in value.items()]}
        else:
            out[key] = {"value": value}
    return out


def _decode(data: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in data.items():
        if "set" in value:
            out[key] = set(value["set"])
        elif "dict" in value:
            out[key] = {k: v for k, v in value["dict"]}
        else:
            out[key] = value["value"]
    return out


def decide(seed: str, seat: int, players: int, k: Knowledge, memory: dict[str, Any] | None) -> tuple[list[engine.Submission], dict[str, Any]]:
    """The baseline AI's submissions for the open phase, and its memory after: its
    hunch about each seat drawn once per game, its dice for this phase drawn from the
    seed, its notes carried from its last turn."""
    ai = BaselineAI(ai_rng(seed, seat), players)
    ai.rng = ai_rng(f"{seed}|r{k.round}|{k.phase}", seat)
    if memory:
        ai.notes = _decode(memory.get("notes", {}))
        ai.last_target = int(memory.get("last_target", 0))
    if k.phase == "day":
        subs: list[engine.Submission] = [ai.grail_number(k)]
    elif k.phase == "dusk":
        subs = list(ai.dusk(k))
    else:
        vote = ai.vote(k)
        subs = [vote] if vote is not None else []
    return subs, {"notes": _encode(ai.notes), "last_target": ai.last_target}


def with_pass(subs: list[engine.Submission], state: engine.GameState, seat: int, phase: str) -> list[engine.Submission]:
    """An AI seat that gives no orders at Dusk passes, as a person does ("nothing
    tonight": empty orders, which count as sent, wounded or not). Otherwise the phase
    waits for what never comes, and an early close that never comes tells the table
    someone is hurt."""
    if phase != "dusk" or any(isinstance(x, engine.Orders) for x in subs):
        return subs
    return [*subs, engine.Orders()]


async def play_turn(db: Database, turn_id: int) -> str:
    """Play one due turn under the game's lock; its outcome (also stored): ``sent``,
    ``nothing`` (the AI had nothing to send), ``refused:<key>``, or ``stale`` (the phase
    has moved on, the seat has died or is no longer the AI's)."""
    now = db.now()
    async with db.transaction() as s:
        turn = await s.get(AiTurn, turn_id)
        assert turn is not None
        t = await table.locked(s, turn.game_id, now)
        if turn.played_at is not None:
            return str(turn.outcome)
        if t.game.status != "running":
            return "waiting"
        return await _play(t, turn)


@hooks.CLOSING.listen(10)
async def decide_before_close(step: Step) -> None:
    """(A phase is closing.) The AI seats that have not played it decide now."""
    await play_before_close(step.table)


async def play_before_close(t: Table) -> int:
    """Play, before the game's open phase closes (the game locked by the caller), every AI
    turn of that phase whose moment has not come: a moderator's advance cuts the phase
    short, and an AI seat, like a player who has made up their mind, has decided by
    then. The number played."""
    game, s = t.game, t.session
    turns = await ai_repo.unplayed_turns(s, game.id, game.round, game.phase)
    for turn in turns:
        await _play(t, turn)
    return len(turns)


async def _play(t: Table, turn: AiTurn) -> str:
    game, s = t.game, t.session
    turn.played_at = t.now
    state = t.state
    ai = await ai_seats(s, game.id)
    if (game.round, game.phase) != (turn.round, turn.phase) or turn.seat not in ai or not state.player(turn.seat).alive:
        turn.outcome = "stale"
        return turn.outcome
    k = await seat_knowledge(s, game, turn.seat, state)
    subs, turn.memory = decide(game.secret_seed, turn.seat, len(state.players), k, await ai_repo.last_memory(s, game.id, turn.seat))
    subs = with_pass(subs, state, turn.seat, str(game.phase))
    turn.outcome = "sent" if subs else "nothing"
    for sub in subs:
        try:
            await store(t, turn.seat, 0, validated(state, game, turn.seat, sub))
            t.phase_rows_changed()
        except ServiceError as exc:  # refused like anyone's; the rest still go
            log.warning("game %s: the AI of seat %s was refused: %s", game.id, turn.seat, exc.key, extra={"game": game.id})
            turn.outcome = f"refused:{exc.key}"[:64]
    return turn.outcome


async def play_due(db: Database, held: Collection[int] = ()) -> list[tuple[int, int, str]]:
    """Play every turn due of the running games (the games in ``held`` wait): (game,
    seat, outcome) for each."""
    async with db.read() as s:
        due = await ai_repo.due_turns(s, db.now())
    played = []
    for turn_id, game_id, seat in due:
        if game_id in held:
            continue
        with log_context.about(game=game_id):
            played.append((game_id, seat, await play_turn(db, turn_id)))
    return played


async def _play_due(db: Database, held: Collection[int], report: DueReport) -> None:
    report.done["ai_played"] = await play_due(db, set(held) | set(report.failed))


due_work(DueWork("ai_played", 40, _play_due, lambda held: [next_due_time(held)]))


async def next_due(db: Database, held: Collection[int] = ()) -> datetime | None:
    """When the next AI turn of a running game is due."""
    async with db.read() as s:
        return await ai_repo.next_turn_due(s, held)


async def last_due(db: Database, game_id: int) -> datetime | None:
    """When the last AI turn of ``game_id`` still to play is due (None: none waits)."""
    async with db.read() as s:
        return await ai_repo.last_turn_due(s, game_id)


def next_due_time(held: Collection[int] = ()) -> Any:
    """When the next AI turn is due (the games in ``held`` left out), as a scalar
    subquery, for the scheduler's sleep (``deadlines.next_wakeup``): the repository's
    (``bot.db.repos.ai.next_turn_time``)."""
    return ai_repo.next_turn_time(held)
