"""Writing a step of a game: its entry in the game log, its news (the public post and each
seat's private news), the notice of the phase it opens, the end of the game, each with
its moment published to the features (``bot.core.hooks``). Every use case that changes a
game's state writes it through these, on the game's :class:`~bot.core.table.Table`."""

from __future__ import annotations

from typing import Any

import engine
from bot.core import hooks
from bot.core.hooks import Step
from bot.core.messages import (
    Message,
    PhaseExplained,
    PhaseStarted,
    ScoreHistory,
    SeedRevealed,
    StepEvents,
)
from bot.core.outbox import Mail
from bot.core.table import Table
from bot.core.types import StepResult
from bot.db import repositories as repo
from bot.db.models import GameStep

STEP_KINDS = ("advance", "remove", "replace", "end")

# Private news that tells a player of their wound: such a report ends with what still
# counts for them and the odds of the coming roll (``wound_note``).
WOUND_NEWS = frozenset({"WoundedNow", "StillWounded"})


def write_step(table: Table, step: Step, *, inputs: dict[str, Any], state: engine.GameState) -> int:
    """The game moves to ``state`` and ``step`` is appended to its log (the game's
    version bumped); its seq."""
    table.apply(state)
    game = table.game
    seq = int(game.version) + 1
    table.session.add(
        GameStep(
            game_id=game.id,
            seq=seq,
            kind=step.kind,
            round=step.round_no,
            phase=step.phase,
            inputs=inputs,
            events=[e.to_dict() for e in step.events],
            rolls=[r.to_dict() for r in step.rolls],
            state=state.to_dict(),
            created_at=table.now,
        )
    )
    game.version = seq
    return seq


def wound_note(state: engine.GameState, seat: int, *, tonight: bool) -> dict[str, Any] | None:
    """For a living seat that is wounded in ``state``: the coming wound roll (the chance
    to recover in percent, whether a failure kills, and whether it comes ``tonight`` or
    at a later night), from the engine's own odds (R8). None otherwise."""
    p = state.player(seat)
    if not p.alive or not p.wounded:
        return None
    recover, dies = engine.wound_odds(p.wound_rolls)
    return {"recover": recover, "dies": dies, "tonight": tonight}


def table_living(state: engine.GameState) -> list[int]:
    """The seats the table takes for living: the living, and those departed in a night
    whose departures wait for the Morning (house rule ``departures``), or a count of them
    would announce the death before the Morning does."""
    return [p.seat for p in state.players if state.publicly_alive(p.seat)]


def mail_holder(mail: Mail, holder: Any, message: Message) -> None:
    """A private message to whoever holds a seat: their DM, or an AI seat's own mail."""
    if holder.user_id is None:
        assert holder.seat is not None
        mail.to_seat(holder.seat, message)
    else:
        mail.private(holder.user_id, message)


async def mail_news(step: Step, mail: Mail, news: list[engine.Event] | None = None) -> None:
    """The step's public events in one channel post; each seat's private events in one DM
    to whoever holds the seat (``news``: the events as told, when they are not the
    step's own: a night's with each seat's turn put in). Audit events go nowhere (they
    stay in the log). The post that ends the game carries the scores round by round, for
    its chart, and the private news of that step is marked ``final`` (nothing in it may
    advise a round to come). A report that tells a player of their wound carries the
    coming roll (``wounded``, see :func:`wound_note`). Then the moment ``TOLD``."""
    assert step.kind in STEP_KINDS, step.kind
    table, round_no, phase = step.table, step.round_no, step.phase
    step.mail = mail
    events = step.events if news is None else news
    public = tuple(e for e in events if e.audience is engine.Audience.PUBLIC)
    final = any(e.kind == "GameEnded" for e in events)
    # A night always gets its dawn post: a quiet one says nobody left.
    if public or (step.kind == "advance" and phase == "dusk"):
        history = ScoreHistory(*await repo.score_history(table.session, table.id)) if final else None
        mail.public(StepEvents(step=step.kind, round=round_no, phase=phase, events=public, history=history))
    by_seat: dict[int, list[engine.Event]] = {}
    for e in events:
        if e.audience is engine.Audience.PRIVATE and e.seat is not None:
            by_seat.setdefault(e.seat, []).append(e)
    # The coming roll is tonight's when the step leaves the night ahead in this round.
    tonight = phase == "day" or (phase == "dusk" and step.kind != "advance")
    state = table.state
    holders = await table.holders()
    for seat, evs in sorted(by_seat.items()):
        holder = holders.get(seat)
        if holder is None:
            continue
        wounded = None
        if not final and any(e.kind in WOUND_NEWS for e in evs):
            wounded = wound_note(state, seat, tonight=tonight)
        news_of_seat = StepEvents(step=step.kind, round=round_no, phase=phase, seat=seat, events=tuple(evs), final=final, wounded=wounded)
        mail_holder(mail, holder, news_of_seat)


async def prompt_is_the_notice(table: Table) -> bool:
    """Whether the phase the game has just opened is announced by its person's prompt
    alone: a practice game whose person is alive at the table."""
    game = table.game
    if game.guild_id is not None or game.status != "running" or game.phase not in engine.PHASE_ORDER:
        return False
    state = table.state
    return any(h.user_id == game.moderator_id and state.player(seat).alive for seat, h in (await table.holders()).items())


def mail_phase_notice(mail: Mail, game: Any, *, notice: bool = True) -> str | None:
    """The public notice that a phase is open, with its deadline: everyone knows to act
    (``notice`` False: a practice game whose person's prompt is the notice, see
    :func:`prompt_is_the_notice`). In a practice game (no server) the first Day, Dusk and
    Morning are explained too. The key of the step's last post, which the phase's
    prompts follow (without the notice: the news before it), None when there is none."""
    assert game.phase is not None
    deadline = game.phase_deadline.isoformat() if game.phase_deadline else None
    if notice:
        mail.public(PhaseStarted(round=game.round, phase=game.phase, deadline=deadline))
    if game.guild_id is None and game.round == 1:
        mail.public(PhaseExplained(phase=game.phase))
    return mail.last_public


async def open_phase(step: Step) -> None:
    """The phase the step opened is announced (:func:`mail_phase_notice`), then the
    moment ``OPENED``."""
    mail = step.told()
    step.opened = mail_phase_notice(mail, step.table.game, notice=not await prompt_is_the_notice(step.table))
    await hooks.OPENED.publish(step)


def mail_seed_reveal(mail: Mail, game: Any) -> None:
    mail.public(SeedRevealed(seed=game.secret_seed, seed_sha256=game.seed_sha256))


async def finish(table: Table, status: str, reason: str | None, step: Step | None = None) -> None:
    """The game is over or cancelled: free the channel and the players, stop the clock.
    A game over (not cancelled) publishes the moment ``OVER`` of its ``step`` (its
    records and ratings, in this same transaction: ``step.ratings``)."""
    game = table.game
    game.status = status
    game.end_reason = reason
    game.ended_at = table.now
    game.active_channel_id = None
    game.phase_deadline = None
    game.reminder_due_at = None
    game.paused_remaining = None
    await repo.free_players(table.session, game.id)
    if status == "over" and step is not None:
        await hooks.OVER.publish(step)


def submissions_from(payloads: dict[str, list[dict[str, Any]]]) -> dict[int, list[engine.Submission]]:
    """Stored payloads (seat as a string key) -> the engine's submissions by seat."""
    return {int(seat): [engine.submission_from_dict(p) for p in subs] for seat, subs in payloads.items()}


def step_result(step: Step, seq: int) -> StepResult:
    """What a step returns: the game after it and its public events."""
    game = step.table.game
    return StepResult(
        game_id=game.id,
        seq=seq,
        kind=step.kind,
        closed_round=step.round_no,
        closed_phase=step.phase,
        round=game.round,
        phase=str(game.phase),
        status=game.status,
        deadline=game.phase_deadline,
        messages=step.mail.count if step.mail else 0,
        events=[e.to_dict() for e in step.events if e.audience is engine.Audience.PUBLIC],
        over=game.status == "over",
    )
