"""What a moderator does besides advancing: pause, resume, extend the deadline, replace
or remove a player, cancel the game. (Whether the caller is a moderator is checked by the
Discord layer.) Every change and its announcement are written in one transaction."""

from __future__ import annotations

import math
from datetime import datetime

import engine
import engine.view
from bot.db import repositories as repo
from bot.db.models import Game, GamePlayer
from bot.db.session import Database
from bot.service.common import (
    add_step,
    apply_state,
    arm_clock,
    finish,
    info_of,
    locked_game,
    mail_events,
    mail_for,
    mail_phase_started,
    mail_seed_reveal,
    require_running,
    state_of,
)
from bot.service.errors import (
    AlreadyInGameError,
    BadArgumentError,
    GameFinishedError,
    NotPausedError,
    SeatGoneError,
    SeatNotFoundError,
)
from bot.service.types import MAX_PHASE_SECONDS, GameInfo, StepResult, UserRef


async def pause_game(db: Database, game_id: int) -> GameInfo:
    """Stop the clock; submissions are refused (GamePausedError) until resumed."""
    now = db.now()
    async with db.transaction() as s:
        game = await locked_game(s, game_id)
        require_running(game)
        left = (game.phase_deadline - now).total_seconds() if game.phase_deadline else 0
        game.paused_remaining = max(0, math.ceil(left))
        game.status = "paused"
        game.phase_deadline = None
        game.reminder_due_at = None
        mail, _ = await mail_for(s, game, seq=None, round_no=game.round, phase=str(game.phase), now=now)
        mail.public({"type": "game_paused", "round": game.round, "phase": game.phase})
        await s.flush()
        return await info_of(s, game)


async def resume_game(db: Database, game_id: int) -> GameInfo:
    """Restart the clock with the time that was left (at least a minute)."""
    now = db.now()
    async with db.transaction() as s:
        game = await locked_game(s, game_id)
        if game.status != "paused":
            raise NotPausedError(game_id=game.id)
        game.status = "running"
        arm_clock(game, now, seconds=max(60, game.paused_remaining or 0))
        game.paused_remaining = None
        mail, _ = await mail_for(s, game, seq=None, round_no=game.round, phase=str(game.phase), now=now)
        mail.public({"type": "game_resumed", "round": game.round, "phase": game.phase})
        mail_phase_started(mail, game)
        await s.flush()
        return await info_of(s, game)


async def extend_deadline(db: Database, game_id: int, seconds: int) -> GameInfo:
    """Give the current phase ``seconds`` more (1 s to 7 days); works while paused too."""
    if not isinstance(seconds, int) or isinstance(seconds, bool) or not 1 <= seconds <= MAX_PHASE_SECONDS:
        raise BadArgumentError(field="seconds", reason=f"1 to {MAX_PHASE_SECONDS}")
    now = db.now()
    async with db.transaction() as s:
        game = await locked_game(s, game_id)
        if game.status == "paused":
            game.paused_remaining = (game.paused_remaining or 0) + seconds
            return await info_of(s, game)
        require_running(game)
        assert game.phase_deadline is not None and game.phase_started_at is not None
        total = (game.phase_deadline - now).total_seconds() + seconds
        started = game.phase_started_at
        arm_clock(game, now, seconds=max(0.0, total))
        game.phase_started_at = started
        mail, _ = await mail_for(s, game, seq=None, round_no=game.round, phase=str(game.phase), now=now)
        mail.public(
            {"type": "deadline_extended", "round": game.round, "phase": game.phase, "deadline": game.phase_deadline.isoformat()}
        )
        await s.flush()
        return await info_of(s, game)


async def replace_player(db: Database, game_id: int, seat: int, newcomer: UserRef) -> StepResult:
    """A newcomer takes over ``seat``: its sheet, its submissions this phase, its name
    in the game from now on. The one who left is free to join other games."""
    user = newcomer.checked()
    if not isinstance(seat, int) or isinstance(seat, bool):
        raise BadArgumentError(field="seat", reason="a seat number")
    now = db.now()
    async with db.transaction() as s:
        game = await locked_game(s, game_id)
        if game.status not in ("running", "paused"):
            raise GameFinishedError(game_id=game.id)
        state = state_of(game)
        holders = await repo.seat_holders(s, game.id)
        _check_seat(state, holders, seat)
        busy = await repo.live_membership(s, user.id)
        if busy is not None:
            raise AlreadyInGameError(game_id=busy.game_id)
        old = holders[seat]
        _vacate(old, "replaced", now)
        await s.flush()  # free the seat before the newcomer takes it
        await repo.upsert_user(s, user.id, user.name, user.locale, now)
        row = await repo.member(s, game.id, user.id)
        if row is None:
            row = GamePlayer(game_id=game.id, user_id=user.id, joined_at=now)
            s.add(row)
        row.seat, row.former_seat, row.status, row.left_at = seat, None, "playing", None
        row.active_user_id, row.display_name = user.id, user.name
        old_name = state.player(seat).name
        state.player(seat).name = user.name
        apply_state(game, state)
        seq = add_step(
            s, game, kind="replace", round_no=game.round, phase=str(game.phase),
            inputs={"seat": seat, "name": user.name}, events=[], rolls=[], state=state, now=now,
        )
        await s.flush()
        mail, _ = await mail_for(s, game, seq=seq, round_no=game.round, phase=str(game.phase), now=now)
        mail.public({"type": "player_replaced", "seat": seat, "old_name": old_name, "new_name": user.name})
        mail.private(user.id, {"type": "sheet", "sheet": engine.view.sheet(state, seat)})
        await s.flush()
        return _result(game, seq, "replace", mail.count)


async def remove_player(db: Database, game_id: int, seat: int) -> StepResult:
    """Remove a player: the seat leaves the game as if dead, with no points to anyone.
    May end the game."""
    if not isinstance(seat, int) or isinstance(seat, bool):
        raise BadArgumentError(field="seat", reason="a seat number")
    now = db.now()
    async with db.transaction() as s:
        game = await locked_game(s, game_id)
        if game.status not in ("running", "paused"):
            raise GameFinishedError(game_id=game.id)
        state = state_of(game)
        holders = await repo.seat_holders(s, game.id)
        _check_seat(state, holders, seat)
        outcome = engine.remove_player(state, seat)
        round_no, phase = game.round, str(game.phase)
        apply_state(game, outcome.state)
        seq = add_step(
            s, game, kind="remove", round_no=round_no, phase=phase, inputs={"seat": seat},
            events=outcome.events, rolls=outcome.rolls, state=outcome.state, now=now,
        )
        mail, holders = await mail_for(s, game, seq=seq, round_no=round_no, phase=phase, now=now)
        mail_events(mail, holders, outcome.events, round_no, phase)
        _vacate(holders[seat], "removed", now)
        if outcome.state.over:
            await finish(s, game, now, "over", outcome.state.end_reason)
            mail_seed_reveal(mail, game)
        await s.flush()
        return _result(game, seq, "remove", mail.count, round_no, phase)


async def cancel_game(db: Database, game_id: int, reason: str = "cancelled") -> GameInfo:
    """End a game that has not finished (in the lobby, running or paused) with no
    winner. The seed is revealed if the roles had been dealt."""
    if not isinstance(reason, str) or not 1 <= len(reason) <= 32:
        raise BadArgumentError(field="reason", reason="1 to 32 characters")
    now = db.now()
    async with db.transaction() as s:
        game = await locked_game(s, game_id)
        if game.status in ("over", "cancelled"):
            raise GameFinishedError(game_id=game.id)
        started = game.state is not None
        await finish(s, game, now, "cancelled", reason)
        mail, _ = await mail_for(s, game, seq=None, round_no=game.round, phase=str(game.phase or "lobby"), now=now)
        mail.public({"type": "game_cancelled", "reason": reason})
        if started:
            mail_seed_reveal(mail, game)
        await s.flush()
        return await info_of(s, game)


def _check_seat(state: engine.GameState, holders: dict[int, GamePlayer], seat: int) -> None:
    if not 1 <= seat <= len(state.players):
        raise SeatNotFoundError(seat=seat)
    if not state.player(seat).alive or seat not in holders:
        raise SeatGoneError(seat=seat)


def _vacate(holder: GamePlayer, status: str, now: datetime) -> None:
    holder.former_seat = holder.seat
    holder.seat = None
    holder.status = status
    holder.active_user_id = None
    holder.left_at = now


def _result(
    game: Game, seq: int, kind: str, messages: int, round_no: int | None = None, phase: str | None = None
) -> StepResult:
    return StepResult(
        game_id=game.id,
        seq=seq,
        kind=kind,
        closed_round=game.round if round_no is None else round_no,
        closed_phase=phase or str(game.phase),
        round=game.round,
        phase=str(game.phase),
        status=game.status,
        deadline=game.phase_deadline,
        messages=messages,
    )
