"""Records written once, at a game's end: one per finished game and one per user who
held a seat, from the engine's final state and the game log's events.

``write_records`` runs inside the transaction that ends the game (the moment ``OVER``),
so the records appear exactly when the end commits and never before: stats, ratings and
leaderboards read these tables only, and nothing they show can move while a game is
live. A lobby cancelled before the start, or a game cancelled without a winner, has no
result and writes none. ``wolfhowl db backfill`` writes the same records for games that
ended before records existed (idempotent: a game that has its record is skipped), and
the reliability figures of records written before those were kept (``fill_reliability``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

import engine
from bot.core import hooks
from bot.core.hooks import Step
from bot.core.rules import decode_state
from bot.db import repositories as repo
from bot.db.models import Game, GamePlayer, GameRecord, GameStep, SeatRecord
from bot.db.repos import records as records_repo
from bot.features.records.ratings import RatingChange, rate_game
from bot.features.records.reliability import asks, misses_counted, sent_seats
from bot.features.seasons.seasons import count_in_open_season

# How a PlayerDied event's cause reads in a record; any other cause is a kill in the night.
FATE_OF_CAUSE = {"vote": "voted_out", "removed": "removed"}


@dataclass
class _Holding:
    """What one user did while holding one seat."""

    row: GamePlayer
    first_round: int = 1
    last_round: int | None = None
    fate: str = "survived"
    kills: int = 0
    teamkills: int = 0
    steals: int = 0
    grails: int = 0
    sent: int = 0  # phases that asked the seat while held and found its submission
    abandoned: int = 0  # phases closed after the seat was taken for absence
    guesses: int = 0  # identification guesses sent (answered)
    guesses_right: int = 0  # of them, confirmed


@dataclass
class _Seat:
    holdings: list[_Holding] = field(default_factory=list)
    now: int = 0  # index of the holding current at the step being read

    @property
    def current(self) -> _Holding:
        return self.holdings[self.now]


@dataclass(frozen=True)
class Recorded:
    """A game's record just written, and each rated player's rating before and after."""

    record: GameRecord
    ratings: dict[int, RatingChange]


@hooks.OVER.listen(10)
async def game_over(step: Step) -> None:
    """(The game is over.) Its records and ratings, in the step that ended it; each rated
    player's rating before and after goes on the step (for their ending)."""
    recorded = await write_records(step.table.session, step.table.game)
    if recorded is not None:
        step.ratings = recorded.ratings


async def write_records(session: AsyncSession, game: Game) -> Recorded | None:
    """The game's records (over, with a final state), written once; None when the game
    has no result or its records exist already. The ratings are updated with them. A
    practice game (no server: one person against the AI) writes none: records are a
    server's community's, and stats, ratings and leaderboards read nothing else."""
    if game.status != "over" or game.state is None or game.ended_at is None or game.guild_id is None:
        return None
    await session.flush()  # the step that ended the game is in the log read below
    if await session.get(GameRecord, game.id) is not None:
        return None
    state = decode_state(game)
    rows = await repo.game_players(session, game.id)
    seats = tally(state, await repo.steps(session, game.id), rows)
    record = GameRecord(
        game_id=game.id,
        guild_id=game.guild_id,
        channel_id=game.channel_id,
        language=game.language,
        players=len(state.players),
        rounds=state.round,
        winners=list(state.winners),
        scores=dict(state.scores),
        end_reason=state.end_reason or game.end_reason or "stopped",
        seed=game.secret_seed,
        ai_seats=sum(1 for p in state.players if _ai_held(rows, p.seat)),
        started_at=game.started_at or game.created_at,
        ended_at=game.ended_at,
    )
    session.add(record)
    await session.flush()
    seat_rows = [
        _seat_record(game, state, seat, h) for seat, held in sorted(seats.items()) for h in held.holdings
    ]
    session.add_all(seat_rows)
    season_id = await count_in_open_season(session, game.id, game.guild_id, game.ended_at)
    await session.flush()
    return Recorded(record, await rate_game(session, record, seat_rows, season_id))


def _ai_held(rows: Sequence[GamePlayer], seat: int) -> bool:
    """The AI held ``seat`` at some time in the game."""
    return any(r.user_id is None and seat in (r.seat, r.former_seat) for r in rows)


def tally(state: engine.GameState, steps: Sequence[GameStep], rows: Sequence[GamePlayer]) -> dict[int, _Seat]:
    """Each seat's holders in order, with what each did while holding it: departures
    (``PlayerDied``: killed, voted out, removed), kills and teamkills (the killer's
    faction against the victim's), successful steals (``StealRolled``), grails banked
    (``GrailBanked``), identification guesses sent and confirmed
    (``IdentificationAnswered``), the phases that asked the seat and found its submission (each
    advance against the state before it, ``reliability.asks``), and, for a holder whose
    seat was taken for absence, the phases closed after. A replace step hands the seat
    to the next holder."""
    seats: dict[int, _Seat] = {}
    for p in state.players:
        replaced = sorted(
            (r for r in rows if r.status == "replaced" and r.former_seat == p.seat),
            key=lambda r: (r.left_at or r.joined_at, r.id),
        )
        final = [r for r in rows if r.seat == p.seat or (r.status == "removed" and r.former_seat == p.seat)]
        seats[p.seat] = _Seat([_Holding(r) for r in [*replaced, *final[:1]]])
    before: dict[str, Any] | None = None  # the state the step found (the last one's)
    gone: list[_Holding] = []  # holders whose seat was taken for absence
    for step in steps:
        if step.kind == "advance":
            for h in gone:
                h.abandoned += 1
            if before is not None:
                _count_sent(seats, step, before)
        before = step.state
        if step.inputs.get("reason") == "absence" and step.kind in ("replace", "remove"):
            lost = seats.get(int(step.inputs.get("seat", 0)))
            if lost is not None and lost.holdings:
                gone.append(lost.current)
        if step.kind == "replace":
            seat = seats.get(int(step.inputs.get("seat", 0)))
            if seat is not None and seat.now + 1 < len(seat.holdings):
                seat.current.fate, seat.current.last_round = "replaced", step.round
                seat.now += 1
                seat.current.first_round = max(1, step.round)
            continue
        for e in step.events:
            _count(state, seats, step, e)
    for seat in seats.values():
        for h in seat.holdings:
            if h.last_round is None:
                h.last_round = state.round
    return {k: v for k, v in seats.items() if v.holdings}


def _count_sent(seats: dict[int, _Seat], step: GameStep, before: dict[str, Any]) -> None:
    """One advance: a sent phase for each holder it asked whose submission it found."""
    sent = sent_seats(step.inputs.get("submissions") or {}, step.phase)
    for raw in before.get("players") or []:
        player = engine.Player.from_dict(raw)
        seat = seats.get(player.seat)
        if seat is not None and seat.holdings and player.seat in sent and asks(player, step.phase):
            seat.current.sent += 1


def _count(state: engine.GameState, seats: dict[int, _Seat], step: GameStep, e: dict[str, Any]) -> None:
    kind, data = e.get("kind"), e.get("data") or {}

    def holder(seat: Any) -> _Holding | None:
        s = seats.get(seat) if isinstance(seat, int) else None
        return s.current if s is not None and s.holdings else None

    if kind == "PlayerDied":
        victim = holder(data.get("seat"))
        if victim is not None:
            victim.fate = FATE_OF_CAUSE.get(str(data.get("cause")), "killed")
            victim.last_round = step.round
        killer, source = holder(data.get("source")), data.get("source")
        if killer is not None and isinstance(source, int):
            if state.player(source).faction is state.player(int(data["seat"])).faction:
                killer.teamkills += 1
            else:
                killer.kills += 1
    elif kind == "StealRolled" and data.get("success"):
        thief = holder(data.get("thief"))
        if thief is not None:
            thief.steals += 1
    elif kind == "GrailBanked":
        banker = holder(data.get("seat"))
        if banker is not None:
            banker.grails += 1
    elif kind == "IdentificationAnswered":
        guesser = holder(e.get("seat"))
        if guesser is not None:
            guesser.guesses += int(data.get("asked") or 0)
            guesser.guesses_right += len(data.get("confirmed") or [])


def result_of(state: engine.GameState, faction: str) -> str:
    if faction not in state.winners:
        return "loss"
    return "shared" if len(state.winners) > 1 else "win"


def _seat_record(game: Game, state: engine.GameState, seat: int, h: _Holding) -> SeatRecord:
    assert game.ended_at is not None
    p = state.player(seat)
    last = h.last_round if h.last_round is not None else state.round
    ai = h.row.user_id is None
    asked, sent, abandoned = _figures(game, h) or (None, None, None)
    return SeatRecord(
        game_id=game.id,
        guild_id=game.guild_id,
        user_id=h.row.user_id,
        name=h.row.display_name,
        ai=ai,  # an AI seat: no standing, no rating (ratings.rated), no reliability
        seat=seat,
        class_id=p.class_id,
        faction=p.faction.value,
        result=result_of(state, p.faction.value),
        fate=h.fate,
        kills=h.kills,
        teamkills=h.teamkills,
        steals=h.steals,
        grails=h.grails,
        rounds=max(0, last - h.first_round + 1),
        faction_score=int(state.scores.get(p.faction.value, 0)),
        ended_at=game.ended_at,
        phases_asked=asked,
        phases_sent=sent,
        phases_abandoned=abandoned,
        guesses=None if ai else h.guesses,
        guesses_right=None if ai else h.guesses_right,
    )


def _figures(game: Game, h: _Holding) -> tuple[int, int, int] | None:
    """A holder's reliability figures (asked, sent, abandoned; ``bot.features.records.reliability``).
    A phase missed is the absence policy's count, kept on the holder's row (only a phase
    closed at its deadline counts). None: an AI seat, or a game whose misses were not
    counted."""
    if h.row.user_id is None or not misses_counted(game):
        return None
    return h.sent + h.row.misses_total, h.sent, h.abandoned


async def _holdings(session: AsyncSession, game: Game) -> dict[tuple[int, int | None], _Holding]:
    """Each (seat, user)'s holding of the game, tallied from its log as the end does."""
    rows = await repo.game_players(session, game.id)
    seats = tally(decode_state(game), await repo.steps(session, game.id), rows)
    return {(seat, h.row.user_id): h for seat, s in seats.items() for h in s.holdings}


async def fill_reliability(session: AsyncSession, game: Game) -> int:
    """The reliability figures of the game's seat records written without them (before
    they were kept), from the game log and the seats' rows, as the end writes them; how
    many records got them (none for a game whose misses were not counted)."""
    if game.state is None or not misses_counted(game):
        return 0
    records = await records_repo.records_without_reliability(session, game.id)
    held = await _holdings(session, game) if records else {}
    filled = 0
    for record in records:
        h = held.get((record.seat, record.user_id))
        figures = None if h is None else _figures(game, h)
        if figures is not None:
            record.phases_asked, record.phases_sent, record.phases_abandoned = figures
            filled += 1
    await session.flush()
    return filled


async def fill_guesses(session: AsyncSession, game: Game) -> int:
    """The identification figures of the game's human seat records written without them,
    from its log; how many records got them."""
    if game.state is None:
        return 0
    records = [r for r in await records_repo.records_without_guesses(session, game.id) if not r.ai]
    held = await _holdings(session, game) if records else {}
    filled = 0
    for record in records:
        h = held.get((record.seat, record.user_id))
        if h is not None:
            record.guesses, record.guesses_right = h.guesses, h.guesses_right
            filled += 1
    await session.flush()
    return filled
