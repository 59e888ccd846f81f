"""Phase prompts: when a phase opens, each living player holding a seat gets one private
message with what they send in it (the Discord layer draws its controls from the seat's
sheet: a wounded seat gets no night orders), unless they turned prompts off for
themselves (``/settings prompts``, ``users.prompts``) or, having never chosen, the game's
``prompts`` setting is off. An AI seat gets none.

The prompts are written in the unit of work that opens the phase, after its public post,
and each ``follows`` that post: the outbox delivers none of them before the post is sent
(``outbox.claim_due_messages``), paced like every message, once.

A practice game's channel is its person's DM: there the person's prompt, which says what
the phase's post would and carries the controls, is the phase's notice (no post before it
saying the same; :func:`prompt_is_the_notice`), and the person always gets it, whatever
their own choice for the games of a server.
"""

from __future__ import annotations

import engine
from bot.core import hooks
from bot.core.hooks import Step
from bot.core.messages import PhasePrompt
from bot.core.outbox import Mail
from bot.core.steps import wound_note
from bot.core.table import Table
from bot.core.time_zones import time_zones_of
from bot.core.types import check_id
from bot.db import repositories as repo
from bot.db.session import Database


@hooks.OPENED.listen(30)
async def phase_opened(step: Step) -> None:
    """(A phase opened.) Each prompted seat's prompt, after the phase's post."""
    await mail_prompts(step.told(), step.table, follows=step.opened)
    await step.table.session.flush()


async def mail_prompts(mail: Mail, t: Table, *, follows: str | None) -> int:
    """Each prompted seat's prompt for the phase the game has just opened, after the post
    ``follows``; the number written. Read as the step leaves the game (after the absence
    policy: a seat it handed to the AI or removed gets none)."""
    s, game = t.session, t.game
    if game.status != "running" or game.phase not in engine.PHASE_ORDER:
        return 0
    state = t.state
    humans = {seat: h.user_id for seat, h in (await t.holders()).items() if h.user_id is not None}
    # (A practice game prompts its person whatever they chose for a server's games.)
    chosen = await repo.user_prompts(s, list(humans.values())) if game.guild_id is not None else {}
    zones = await time_zones_of(s, list(humans.values()))
    # Each phase's first time in a newcomer's first game: a tip with it (a practice game
    # explains its first phases in posts of their own: bot.core.steps.mail_phase_notice).
    new = await repo.newcomers(s, list(humans.values())) if game.round == 1 and game.guild_id is not None else set()
    default = t.settings.prompts or game.guild_id is None
    deadline = game.phase_deadline.isoformat() if game.phase_deadline else None
    written = 0
    for p in state.players:
        user_id = humans.get(p.seat)
        if user_id is None or not p.alive or not chosen.get(user_id, default):
            continue
        prompt = PhasePrompt(
            round=game.round,
            phase=str(game.phase),
            deadline=deadline,
            seat=p.seat,
            sheet=engine.view.sheet(state, p.seat),
            wounded=wound_note(state, p.seat, tonight=game.phase != "morning"),
            tip=user_id in new,
            zone=zones.get(user_id),
        )
        mail.private(user_id, prompt, "prompt", follows=follows)
        written += 1
    return written


async def set_prompts(db: Database, user_id: int, name: str, locale: str | None, on: bool) -> bool:
    """A user's own choice of phase prompts, for every game from the next phase on
    (``on``: they want them). False when it was already their choice."""
    check_id(user_id, "user")
    now = db.now()
    async with db.transaction() as s:
        await repo.upsert_user(s, user_id, name, locale, now)
        before = (await repo.user_prompts(s, [user_id])).get(user_id)
        await repo.set_user_prompts(s, user_id, on, now)
        return before is not on


async def prompts_of(db: Database, user_id: int) -> bool | None:
    """A user's own choice of phase prompts (None: never chosen, each game's setting decides)."""
    check_id(user_id, "user")
    async with db.read() as s:
        return (await repo.user_prompts(s, [user_id])).get(user_id)
