"""Pieces shared by the use cases: loading and locking a game, checking arguments,
arming the phase clock, writing a step of the game log with its messages, finishing."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any, Protocol

from sqlalchemy.ext.asyncio import AsyncSession

import engine
from bot import log_context
from bot.core import lineup_odds as lineup_odds
from bot.core.errors import (
    BadArgumentError,
    GameFinishedError,
    GameNotFoundError,
    GameNotRunningError,
    GameNotStartedError,
    GamePausedError,
    NotInGameError,
)
from bot.core.messages import (
    Message,
    PhaseExplained,
    PhaseStarted,
    ScoreHistory,
    SeedRevealed,
    StepEvents,
)
from bot.core.outbox import Mail
from bot.core.rules import decode_state
from bot.core.time_zones import rotated_deadline
from bot.core.types import (
    GameInfo,
    GameSettings,
    SeatInfo,
)
from bot.core.types import (
    check_id as check_id,  # (where most use cases import it from)
)
from bot.db import repositories as repo
from bot.db.models import Game, GamePlayer, GameStep
from bot.db.repositories import PlayerRow
from bot.features.records.ratings import RatingChange
from bot.features.records.records import write_records


def check_expected(round_no: Any, phase: Any) -> None:
    """The (round, phase) a caller says it is answering, when it says one."""
    if round_no is not None and (not isinstance(round_no, int) or isinstance(round_no, bool) or round_no < 1):
        raise BadArgumentError(field="round", reason="a round number")
    if phase is not None and phase not in engine.PHASE_ORDER:
        raise BadArgumentError(field="phase", reason="day, dusk or morning")


def seed_digest(seed: str) -> str:
    """What is published at the start so the seed can be checked at the end."""
    return hashlib.sha256(seed.encode()).hexdigest()


async def locked_game(session: AsyncSession, game_id: int) -> Game:
    """``game_id``'s row, locked for the transaction (every use case that changes a game
    starts here). An interaction being answered is about this game from now on: its log
    lines name it (``log_context.note_game``; :func:`info_of` does the same for a read)."""
    game = await repo.lock_game(session, check_id(game_id, "game"))
    if game is None:
        raise GameNotFoundError(game_id=game_id)
    log_context.note_game(game.id)
    return game


async def seats_done(session: AsyncSession, game_id: int, round_no: int, phase: str, state: engine.GameState) -> set[int]:
    """The seats that have sent all the phase asks of them (``engine.done_seats``), for
    the early close and the reminders, read in one statement."""
    return engine.done_seats(state, phase, await repo.seats_and_kinds(session, game_id, round_no, phase))


def table_living(state: engine.GameState) -> list[int]:
    """The seats the table takes for living: the living, and those departed in a night
    whose departures wait for the Morning (house rule ``departures``), or a count of them
    would announce the death before the Morning does."""
    return [p.seat for p in state.players if state.publicly_alive(p.seat)]


class HasStatus(Protocol):
    """What :func:`require_running` reads of a game (an entity, a ``GameInfo``, or the
    two columns of a row)."""

    @property
    def id(self) -> int: ...

    @property
    def status(self) -> str: ...


def require_running(game: HasStatus, *, paused: str | None = None) -> None:
    """Refuse unless the game is running; ``paused``: the message key for a paused game
    (a moderator's action words it for them, a player's submission uses the default)."""
    if game.status == "running":
        return
    if game.status == "paused":
        raise GamePausedError(paused, game_id=game.id)
    if game.status in ("over", "cancelled"):
        raise GameFinishedError(game_id=game.id)
    if game.status == "lobby":
        raise GameNotStartedError(game_id=game.id)
    raise GameNotRunningError(game_id=game.id)


def settings_of(game: Game) -> GameSettings:
    return GameSettings.model_validate(game.settings)


def state_of(game: Game) -> engine.GameState:
    if game.state is None:
        raise GameNotRunningError(game_id=game.id)
    return decode_state(game)


async def seat_of(session: AsyncSession, game: Game, user_id: int) -> GamePlayer:
    """The caller's seat in this game, or NotInGameError."""
    m = await repo.member(session, game.id, user_id)
    if m is None or m.seat is None:
        raise NotInGameError(game_id=game.id)
    return m


async def has_played(session: AsyncSession, game_id: int, user_id: int) -> bool:
    """Whether ``user_id`` holds or has held a seat of the game (replaced or removed
    since): a player, who may learn of the other seats only what the table learns (the
    sent marks and misses of ``/mod status``, the absence policy's notices)."""
    row = await repo.member(session, game_id, user_id)
    return row is not None and (row.seat is not None or row.former_seat is not None)


def arm_clock(game: Game, now: datetime, seconds: float | None = None) -> None:
    """Start the current phase's clock: deadline and reminder. A phase that opens runs
    for its length, or, with the game's deadline hours, to the round's hour
    (``time_zones.rotated_deadline``); ``seconds``: what a paused or extended phase has
    left."""
    settings = settings_of(game)
    game.phase_started_at = now
    if seconds is None and settings.deadline_hours:
        game.phase_deadline = rotated_deadline(now, game.round, settings.deadline_hours, settings.deadline_zone)
    else:
        if seconds is None:
            seconds = settings.seconds_for(game.phase or "day")
        game.phase_deadline = now + timedelta(seconds=seconds)
    lead = settings.reminder_lead_seconds
    remind = game.phase_deadline - timedelta(seconds=lead)
    game.reminder_due_at = remind if lead and remind > now else None


async def finish(session: AsyncSession, game: Game, now: datetime, status: str, reason: str | None) -> dict[int, RatingChange]:
    """The game is over or cancelled: free the channel and the players, stop the clock.
    A game over (not cancelled) gets its records and ratings in this same transaction;
    returned: each rated player's rating before and after (for their ending)."""
    game.status = status
    game.end_reason = reason
    game.ended_at = now
    game.active_channel_id = None
    game.phase_deadline = None
    game.reminder_due_at = None
    game.paused_remaining = None
    await repo.free_players(session, game.id)
    recorded = await write_records(session, game) if status == "over" else None
    return recorded.ratings if recorded is not None else {}


def apply_state(game: Game, state: engine.GameState) -> None:
    game.state = state.to_dict()
    game.round = state.round
    game.phase = state.phase.value


def add_step(
    session: AsyncSession,
    game: Game,
    *,
    kind: str,
    round_no: int,
    phase: str,
    inputs: dict[str, Any],
    events: list[engine.Event],
    rolls: list[engine.Roll],
    state: engine.GameState,
    now: datetime,
) -> int:
    """Append one step to the game log and bump the game's version; returns its seq."""
    seq = game.version + 1
    session.add(
        GameStep(
            game_id=game.id,
            seq=seq,
            kind=kind,
            round=round_no,
            phase=phase,
            inputs=inputs,
            events=[e.to_dict() for e in events],
            rolls=[r.to_dict() for r in rolls],
            state=state.to_dict(),
            created_at=now,
        )
    )
    game.version = seq
    return seq


async def mail_for(
    session: AsyncSession, game: Game, *, seq: int | None, round_no: int, phase: str, now: datetime
) -> tuple[Mail, dict[int, GamePlayer]]:
    """A Mail for one step (``seq``) or, with ``seq`` None, for a notice outside the game
    log (pause, reminder...), knowing each seat holder's language."""
    if seq is None:
        game.notice_seq += 1
        tag = f"n{game.notice_seq}"
    else:
        tag = str(seq)
    holders = await repo.seat_holders(session, game.id)
    locales = await repo.user_locales(session, [p.user_id for p in holders.values() if p.user_id is not None])
    mail = Mail(session, game, tag=tag, round_no=round_no, phase=phase, now=now, locales=locales)
    return mail, holders


STEP_KINDS = ("advance", "remove", "replace", "end")


# Private news that tells a player of their wound: such a report ends with what still
# counts for them and the odds of the coming roll (``wound_note``).
WOUND_NEWS = frozenset({"WoundedNow", "StillWounded"})


def wound_note(state: engine.GameState, seat: int, *, tonight: bool) -> dict[str, Any] | None:
    """For a living seat that is wounded in ``state``: the coming wound roll (the chance
    to recover in percent, whether a failure kills, and whether it comes ``tonight`` or
    at a later night), from the engine's own odds (R8). None otherwise."""
    p = state.player(seat)
    if not p.alive or not p.wounded:
        return None
    recover, dies = engine.wound_odds(p.wound_rolls)
    return {"recover": recover, "dies": dies, "tonight": tonight}


async def mail_events(
    mail: Mail,
    holders: dict[int, GamePlayer],
    events: list[engine.Event],
    round_no: int,
    phase: str,
    *,
    step: str,
    state: engine.GameState | None = None,
) -> None:
    """The public events in one channel post; each seat's private events in one DM to
    whoever holds the seat. Audit events go nowhere (they stay in the log). ``step``
    (advance, remove, replace, end) says what produced them, for the post's title. The
    post that ends the game carries the scores round by round, for its chart, and the
    private news of that step is marked ``final`` (nothing in it may advise a round to
    come). ``state``, the state after the step: a report that tells a player of their
    wound carries the coming roll (``wounded``, see :func:`wound_note`)."""
    assert step in STEP_KINDS, step
    public = tuple(e for e in events if e.audience is engine.Audience.PUBLIC)
    final = any(e.kind == "GameEnded" for e in events)
    # A night always gets its dawn post: a quiet one says nobody left.
    if public or (step == "advance" and phase == "dusk"):
        history = ScoreHistory(*await repo.score_history(mail.session, mail.game.id)) if final else None
        mail.public(StepEvents(step=step, round=round_no, phase=phase, events=public, history=history))
    by_seat: dict[int, list[engine.Event]] = {}
    for e in events:
        if e.audience is engine.Audience.PRIVATE and e.seat is not None:
            by_seat.setdefault(e.seat, []).append(e)
    # The coming roll is tonight's when the step leaves the night ahead in this round.
    tonight = phase == "day" or (phase == "dusk" and step != "advance")
    for seat, evs in sorted(by_seat.items()):
        holder = holders.get(seat)
        if holder is None:
            continue
        wounded = None
        if not final and state is not None and any(e.kind in WOUND_NEWS for e in evs):
            wounded = wound_note(state, seat, tonight=tonight)
        news = StepEvents(step=step, round=round_no, phase=phase, seat=seat, events=tuple(evs), final=final, wounded=wounded)
        mail_holder(mail, holder, news)


def mail_holder(mail: Mail, holder: GamePlayer, message: Message) -> None:
    """A private message to whoever holds a seat: their DM, or an AI seat's own mail."""
    if holder.user_id is None:
        assert holder.seat is not None
        mail.to_seat(holder.seat, message)
    else:
        mail.private(holder.user_id, message)


def mail_phase_started(mail: Mail, game: Game, *, notice: bool = True) -> str | None:
    """The public notice that a phase is open, with its deadline: everyone knows to act
    (``notice`` False: a practice game whose person's prompt is the notice, see
    ``prompts.prompt_is_the_notice``). In a practice game (no server) the first Day, Dusk
    and Morning are explained too. The key of the step's last post, which the phase's
    prompts follow (without the notice: the news before it), None when there is none."""
    assert game.phase is not None
    deadline = game.phase_deadline.isoformat() if game.phase_deadline else None
    if notice:
        mail.public(PhaseStarted(round=game.round, phase=game.phase, deadline=deadline))
    if game.guild_id is None and game.round == 1:
        mail.public(PhaseExplained(phase=game.phase))
    return mail.last_public


def mail_seed_reveal(mail: Mail, game: Game) -> None:
    mail.public(SeedRevealed(seed=game.secret_seed, seed_sha256=game.seed_sha256))


async def info_of_row(session: AsyncSession, game: Any) -> GameInfo:
    """:func:`info_of` a game read as a row, from its players read as rows: a read that
    changes nothing needs no entities (see ``bot.db.repositories``)."""
    return await info_of(session, game, players=await repo.game_players(session, game.id, rows=True))


async def info_of(
    session: AsyncSession,
    game: Game,
    state: engine.GameState | None = None,
    players: Sequence[PlayerRow] | None = None,
) -> GameInfo:
    """The public view of a game (no classes, no factions, no seed before the end).
    ``state``: the game's state when the caller has already decoded it; ``players``: every
    player row of the game (``repo.game_players``) when the caller has already read them.
    An interaction being answered that reads a game is about it (see :func:`locked_game`)."""
    log_context.note_game(game.id)
    if players is None:
        players = await repo.game_players(session, game.id)
    if game.state is not None:
        if state is None:
            state = decode_state(game)
        holders = {m.seat: m for m in players if m.seat is not None}
        if len(holders) < len(state.players):  # a seat a moderator emptied: who left it
            removed = [m for m in players if m.status == "removed" and m.former_seat is not None]
            holders = {m.former_seat: m for m in removed if m.former_seat is not None} | holders
        unannounced = state.unannounced()  # departed, but the table has not been told
        seats = tuple(
            SeatInfo(p.seat, (holders[p.seat].user_id or 0) if p.seat in holders else 0, p.name, p.alive or p.seat in unannounced)
            for p in state.players
        )
        winners = tuple(state.winners)
        rules_version = state.settings.rules_version
    else:
        rules_version = engine.rules.CURRENT  # a lobby is dealt under the newest
        lobby = sorted((m for m in players if m.status == "lobby"), key=lambda m: (m.joined_at, m.id))
        seats = tuple(SeatInfo(None, m.user_id or 0, m.display_name) for m in lobby)
        winners = ()
    odds = None
    if game.status == "lobby":
        settings = settings_of(game)
        odds = await lineup_odds.with_stored(session, lineup_odds.odds_for(settings, lineup_odds.table_size(settings, len(players))))
    return GameInfo(
        id=game.id,
        guild_id=game.guild_id,
        channel_id=game.channel_id,
        moderator_id=game.moderator_id,
        status=game.status,
        round=game.round,
        phase=game.phase,
        deadline=game.phase_deadline,
        paused_remaining=game.paused_remaining,
        version=game.version,
        seed_sha256=game.seed_sha256,
        settings=settings_of(game),
        players=seats,
        winners=winners,
        start_at=game.start_at if game.status == "lobby" else None,
        odds=odds,
        rules_version=rules_version,
    )


def submissions_from(payloads: dict[str, list[dict[str, Any]]]) -> dict[int, list[engine.Submission]]:
    """Stored payloads (seat as a string key) -> the engine's submissions by seat."""
    return {int(seat): [engine.submission_from_dict(p) for p in subs] for seat, subs in payloads.items()}
