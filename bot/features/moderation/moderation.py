"""What a moderator does besides advancing: change the settings, pause, resume, extend
the deadline, replace or remove a player, end the game early (scored) or cancel it.
(Whether the caller is a moderator is the access policy's ``moderate``, asked by
``bot.features.moderation.commands.moderate``, the one road to these, before they run.) Every change and its
announcement are written in one transaction; a refusal writes nothing."""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Any

import engine
import engine.view
from bot.core import hooks, policy, table
from bot.core.clock import arm_clock
from bot.core.errors import (
    BadArgumentError,
    ExtendAtLimitError,
    GameFinishedError,
    GameNotRunningError,
    MaxBelowJoinedError,
    NewcomerBusyError,
    NewcomerWasSeatedError,
    NotPausedError,
    PhaseClosedError,
    SettingFixedError,
)
from bot.core.hooks import Step
from bot.core.messages import (
    DeadlineExtended,
    GameCancelled,
    GamePaused,
    GameResumed,
    PlayerReplaced,
    SeatHandedOver,
    Sheet,
)
from bot.core.policy import Action, Standing
from bot.core.steps import (
    finish,
    mail_news,
    mail_phase_notice,
    mail_seed_reveal,
    step_result,
    write_step,
)
from bot.core.table import Table
from bot.core.types import (
    MAX_PHASE_SECONDS,
    RULE_SETTINGS,
    GameInfo,
    GameSettings,
    StepResult,
    UserRef,
    check_expected,
    require_running,
)
from bot.db import repositories as repo
from bot.db.models import GamePlayer
from bot.db.session import Database
from bot.features.ai_seats import ai_seats
from bot.features.ai_seats import turns as ai_turns
from bot.features.gallery import gallery
from bot.features.lobby.start_time import set_start_time
from bot.features.moderation.departed_targets import settle_submissions_naming
from bot.features.moderation.seats import check_seat_argument, held_seat, vacate
from bot.features.play.submissions import close_early_if_all_sent
from bot.features.recap.recap import mail_catch_up
from engine import lineup as lineups


def lineup_changes(current: GameSettings, changes: dict[str, Any]) -> dict[str, Any]:
    """``changes`` with the line-up written as stored and the table's size it demands: a
    line-up of one's own seats exactly its players, so it sets ``max_players`` (and a
    different ``max_players`` beside it, or later, is refused with LineupError)."""
    changes = dict(changes)
    if "lineup" in changes:
        changes["lineup"] = lineups.normalize(str(changes["lineup"]))
        size = lineups.fixed_size(changes["lineup"])
        if size is not None:
            if changes.get("max_players", size) != size:
                raise lineups.LineupError(reason="reason.lineup_size", count=size, players=changes["max_players"])
            changes["max_players"] = size
    elif "max_players" in changes:
        size = lineups.fixed_size(current.lineup)
        if size is not None and changes["max_players"] != size:
            raise lineups.LineupError(reason="reason.lineup_size", count=size, players=changes["max_players"])
    return changes


async def update_settings(db: Database, game_id: int, *, start_in: int | None = None, **changes: Any) -> GameInfo:
    """Change some of a game's settings (``GameSettings`` field names and values).

    In the lobby anything may change (``max_players`` not below the players who have
    joined). Once the classes are dealt, the rule settings (``RULE_SETTINGS``:
    max_players, vote_tie_rule, reveal_on_death, win_score) are fixed: changing one is
    refused with BadArgumentError naming it (giving its current value is fine). The
    others take effect from the next phase: the open phase keeps the deadline and
    reminder it was given (``extend_deadline`` moves those); the language is used for
    every message written from now on, early advance from the next submission.
    An unknown setting or a bad value is refused with BadArgumentError; an over or
    cancelled game with GameFinishedError. ``start_in``: a lobby's new start time, in
    seconds from now (0: none; LobbyClosedError once started; see ``lobby_clock``)."""
    async with table.of(db, game_id, writing=True) as t:
        return await change_settings(t, start_in=start_in, **changes)


async def change_settings(t: Table, *, start_in: int | None = None, **changes: Any) -> GameInfo:
    """``update_settings`` on the game's table."""
    game, s = t.game, t.session
    if game.status in ("over", "cancelled"):
        raise GameFinishedError(game_id=game.id)
    current = t.settings
    updated = GameSettings.build(**ai_seats.merged(current.model_dump(), lineup_changes(current, changes)))
    if game.status == "lobby":
        joined = sum(1 for m in await t.lobby() if m.user_id is not None)
        if updated.max_players < joined:
            raise MaxBelowJoinedError(field="max_players", joined=joined)
        await ai_seats.sync_lobby(t, updated)
    else:
        fixed = sorted(k for k in RULE_SETTINGS if getattr(updated, k) != getattr(current, k))
        if fixed:
            raise SettingFixedError(field=fixed[0])
    if updated != current:
        game.settings = updated.model_dump()
        game.language = updated.language
        t.settings_changed()
    if start_in is not None:
        set_start_time(game, t.now, start_in)
    await s.flush()
    return await t.info()


async def pause_game(db: Database, game_id: int) -> GameInfo:
    """Stop the clock; submissions are refused (GamePausedError) until resumed."""
    async with table.of(db, game_id, writing=True) as t:
        return await pause(t)


async def pause(t: Table) -> GameInfo:
    """``pause_game`` on the game's table."""
    game = t.game
    require_running(game, paused="error.already_paused")
    left = (game.phase_deadline - t.now).total_seconds() if game.phase_deadline else 0
    game.paused_remaining = max(0, math.ceil(left))
    game.status = "paused"
    game.phase_deadline = None
    game.reminder_due_at = None
    mail = await t.mail(seq=None, round_no=game.round, phase=str(game.phase))
    mail.public(GamePaused(round=game.round, phase=str(game.phase)))
    await t.session.flush()
    return await t.info()


async def resume_game(db: Database, game_id: int) -> GameInfo:
    """Restart the clock with the time that was left (at least a minute), or, with early
    advance on and everyone's submission in, close the phase early as before the pause."""
    async with table.of(db, game_id, writing=True) as t:
        return await resume(t)


async def resume(t: Table) -> GameInfo:
    """``resume_game`` on the game's table."""
    game = t.game
    if game.status != "paused":
        raise NotPausedError(game_id=game.id)
    game.status = "running"
    arm_clock(t, seconds=max(60, game.paused_remaining or 0))
    game.paused_remaining = None
    await close_early_if_all_sent(t)
    mail = await t.mail(seq=None, round_no=game.round, phase=str(game.phase))
    mail.public(GameResumed(round=game.round, phase=str(game.phase)))
    mail_phase_notice(mail, game)
    await t.session.flush()
    await ai_turns.plan_phase(t)  # a seat handed to the AI while paused
    return await t.info()


async def extend_deadline(
    db: Database, game_id: int, seconds: int, *, expected_round: int | None = None, expected_phase: str | None = None
) -> GameInfo:
    """Give the current phase ``seconds`` more (1 s to 7 days), never leaving it more than
    7 days to run however often it is extended (ExtendAtLimitError, with nothing changed
    or posted, when it already has that much); works while paused too.
    ``expected_round``/``expected_phase``: the phase the moderator meant; when the
    deadline has closed it meanwhile, PhaseClosedError and the next phase keeps its own."""
    async with table.of(db, game_id, writing=True) as t:
        return await extend(t, seconds, expected_round=expected_round, expected_phase=expected_phase)


async def extend(t: Table, seconds: int, *, expected_round: int | None = None, expected_phase: str | None = None) -> GameInfo:
    """``extend_deadline`` on the game's table."""
    if not isinstance(seconds, int) or isinstance(seconds, bool) or not 1 <= seconds <= MAX_PHASE_SECONDS:
        raise BadArgumentError(field="seconds", reason=f"1 to {MAX_PHASE_SECONDS}")
    check_expected(expected_round, expected_phase)
    game, now = t.game, t.now
    want = (expected_round if expected_round is not None else game.round, expected_phase or game.phase)
    if want != (game.round, game.phase):
        raise PhaseClosedError(round=want[0], phase=f"phase.{want[1]}")
    if game.status == "paused":
        # Never more than a phase's longest: repeated extensions stop there.
        if (game.paused_remaining or 0) >= MAX_PHASE_SECONDS:
            raise ExtendAtLimitError(days=MAX_PHASE_SECONDS // 86400)
        game.paused_remaining = min((game.paused_remaining or 0) + seconds, MAX_PHASE_SECONDS)
        return await t.info()
    require_running(game)
    assert game.phase_deadline is not None and game.phase_started_at is not None
    left = (game.phase_deadline - now).total_seconds()
    if left >= MAX_PHASE_SECONDS:
        raise ExtendAtLimitError(days=MAX_PHASE_SECONDS // 86400)
    total = min(left + seconds, MAX_PHASE_SECONDS)
    started = game.phase_started_at
    arm_clock(t, seconds=max(0.0, total))
    game.phase_started_at = started
    mail = await t.mail(seq=None, round_no=game.round, phase=str(game.phase))
    mail.public(DeadlineExtended(round=game.round, phase=str(game.phase), deadline=game.phase_deadline.isoformat()))
    await t.session.flush()
    return await t.info()


async def replace_player(db: Database, game_id: int, seat: int, newcomer: UserRef, standing: Standing) -> StepResult:
    """A newcomer, who can see the game's channel (``standing``: what Discord says of
    them), takes over ``seat``: its sheet, its submissions this phase, its name
    in the game from now on, and by DM everything the seat was told so far (see
    ``recap.mail_catch_up``). The one who held it is told by DM; they are free to join
    other games, and may come back to that seat, but not take another
    (NewcomerWasSeatedError)."""
    user = newcomer.checked()
    check_seat_argument(seat)
    async with table.of(db, game_id, writing=True) as t:
        return await hand_over_seat(t, seat, user, standing, named=True)


async def hand_over_seat(
    t: Table, seat: int, user: UserRef, standing: Standing, *, reason: str | None = None, named: bool = False,
) -> StepResult:
    """The hand-over itself, in the caller's transaction: the one place a seat changes
    hands (``/mod replace``, a standby accepting an offer), so the one place the access
    policy's ``take_seat`` is asked: the newcomer must be a member of the game's server
    who can see its channel (``named``: by a moderator, who is then told why not).
    ``reason`` (absence...) is kept in the step's inputs for
    the game log."""
    holders = await held_seat(t, seat)
    game, state, s, now = t.game, t.state, t.session, t.now
    policy.require(Action.TAKE_SEAT, standing.of_user(user.id), game, newcomer=f"<@{user.id}>" if named else None)
    busy = await repo.live_game_place(s, user.id)
    if busy is not None:
        raise NewcomerBusyError(name=user.name, **busy)
    row = await t.member(user.id)
    if row is not None and row.former_seat is not None and row.former_seat != seat:
        raise NewcomerWasSeatedError(name=user.name, seat=row.former_seat)
    await gallery.refuse_spectator_seat(s, game, user.id, name=user.name if named else None)
    old = holders[seat]
    vacate(old, "replaced", now)
    await s.flush()  # free the seat before the newcomer takes it
    await repo.upsert_user(s, user.id, user.name, user.locale, now)
    if row is None:
        row = GamePlayer(game_id=game.id, user_id=user.id, joined_at=now)
        t.joined(row)
    row.seat, row.former_seat, row.status, row.left_at = seat, None, "playing", None
    row.active_user_id, row.display_name = user.id, user.name
    row.misses_in_row = 0  # (a former holder coming back starts a fresh run)
    old_name = state.player(seat).name
    state.player(seat).name = user.name
    step = Step(t, "replace", game.round, str(game.phase))
    seq = write_step(t, step, inputs={"seat": seat, "name": user.name} | ({"reason": reason} if reason else {}), state=state)
    await s.flush()
    mail = step.mail = await t.mail(seq=seq, round_no=game.round, phase=str(game.phase))
    mail.public(PlayerReplaced(seat=seat, old_name=old_name, new_name=user.name))
    mail.private(user.id, Sheet(sheet=engine.view.sheet(state, seat)))
    # Then everything the seat was told so far, and the public timeline.
    await mail_catch_up(s, mail, game, seat, user.id)
    # The one who held the seat learns it privately, in their language, and that they are free.
    if old.user_id is not None:  # (an AI seat has nobody to tell)
        mail.locales.update(await repo.user_locales(s, [old.user_id]))
        mail.private(old.user_id, SeatHandedOver(seat=seat, new_name=user.name))
    await s.flush()
    return step_result(step, seq)


async def remove_player(db: Database, game_id: int, seat: int) -> StepResult:
    """Remove a player: the seat leaves the game as if dead, with no points to anyone.
    May end the game."""
    check_seat_argument(seat)
    async with table.of(db, game_id, writing=True) as t:
        await held_seat(t, seat)
        return await remove_seat(t, seat)


async def remove_seat(t: Table, seat: int, *, reason: str | None = None, close_early: bool = True) -> StepResult:
    """The removal itself, on a locked game whose ``seat`` is living and held, in the
    caller's transaction. ``reason`` (absence) is kept in the step's inputs;
    ``close_early``: the phase may close at once if the one removed was the last awaited
    (not when the phase has just opened, at an absence found by its close)."""
    game, s, now = t.game, t.session, t.now
    state = t.state
    outcome = engine.remove_player(state, seat)
    step = Step(t, "remove", game.round, str(game.phase), outcome.events, outcome.rolls)
    seq = write_step(t, step, inputs={"seat": seat} | ({"reason": reason} if reason else {}), state=outcome.state)
    holders = await t.holders()
    await mail_news(step, await t.mail(seq=seq, round_no=step.round_no, phase=step.phase))
    vacate(holders[seat], "removed", now)
    if not step.over:
        await settle_submissions_naming(t, step.told(), holders, seat, state.player(seat).name)
    if step.over:
        await finish(t, "over", outcome.state.end_reason, step)
        await hooks.TOLD.publish(step)
        mail_seed_reveal(step.told(), game)
    elif game.status == "running" and close_early:
        # The one removed may have been the last the phase was waiting for.
        await close_early_if_all_sent(t)
    await s.flush()
    return step_result(step, seq)


async def end_game(db: Database, game_id: int) -> StepResult:
    """A moderator ends a running or paused game now. It is scored like a natural end
    (``engine.end_game``: +2 per living member, the most points win; reason
    ``stopped``); the open phase's submissions are not resolved. The end is an ``end``
    step of the game log, written with the messages a natural end sends (the scoreboard
    and private news in one step, then the seed), so ``wolfhowl verify`` replays it.

    In the lobby there is nothing to score: GameNotRunningError (``cancel_game`` closes
    a lobby); an over or cancelled game: GameFinishedError."""
    async with table.of(db, game_id, writing=True) as t:
        return await end(t)


async def end(t: Table) -> StepResult:
    """``end_game`` on the game's table."""
    game = t.game
    if game.status in ("over", "cancelled"):
        raise GameFinishedError(game_id=game.id)
    if game.status not in ("running", "paused"):
        raise GameNotRunningError(game_id=game.id)
    outcome = engine.end_game(t.state)
    step = Step(t, "end", game.round, str(game.phase), outcome.events, outcome.rolls)
    seq = write_step(t, step, inputs={}, state=outcome.state)
    await finish(t, "over", outcome.state.end_reason, step)
    await mail_news(step, await t.mail(seq=seq, round_no=step.round_no, phase=step.phase))
    await hooks.TOLD.publish(step)
    mail_seed_reveal(step.told(), game)
    await t.session.flush()
    return step_result(step, seq)


# The end reason of a game cancelled because its channel (or the whole server) is gone.
CHANNEL_GONE = "channel_gone"


async def cancel_game(db: Database, game_id: int, reason: str = "cancelled", *, channel_gone: bool = False) -> GameInfo:
    """End a game that has not finished (in the lobby, running or paused) with no
    winner. The seed is revealed if the roles had been dealt. With ``channel_gone`` (the
    game's channel was deleted, or the bot removed from the server) nothing is posted
    there: each seat holder (in the lobby, each who joined) and the moderator are told by
    DM, with the seed if there is one."""
    if not isinstance(reason, str) or not 1 <= len(reason) <= 32:
        raise BadArgumentError(field="reason", reason="1 to 32 characters")
    async with table.of(db, game_id, writing=True) as t:
        return await cancel(t, reason, channel_gone=channel_gone)


async def cancel(t: Table, reason: str, *, channel_gone: bool = False, short_of: tuple[int, int] | None = None) -> GameInfo:
    """``cancel_game`` on the game's table (also a lobby's start time come
    short of players); ``short_of``: how many joined and how many it needs, for the
    channel's notice."""
    game, s = t.game, t.session
    if game.status in ("over", "cancelled"):
        raise GameFinishedError(game_id=game.id)
    started = game.state is not None
    joined = [] if started else [m.user_id for m in await t.lobby()]
    await finish(t, "cancelled", reason)
    holders = await t.holders()
    mail = await t.mail(seq=None, round_no=game.round, phase=str(game.phase or "lobby"))
    if channel_gone:
        # Everyone who would have watched the channel: the seat holders, or in the
        # lobby those who had joined, and the moderator.
        notice = GameCancelled(reason=reason, game=game.id)
        if started:
            notice = replace(notice, seed=game.secret_seed, seed_sha256=game.seed_sha256)
        told = sorted(u for u in {p.user_id for p in holders.values()} | set(joined) | {game.moderator_id} if u is not None)
        mail.locales.update(await repo.user_locales(s, told))
        for user_id in told:
            mail.private(user_id, notice)
    else:
        count, needed = short_of or (None, None)
        mail.public(GameCancelled(reason=reason, count=count, min=needed))
        if started:
            mail_seed_reveal(mail, game)
    await s.flush()
    return await t.info()

