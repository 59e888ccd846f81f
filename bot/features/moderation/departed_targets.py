"""What becomes of this phase's submissions that name a player a moderator has just
removed (rules E18), and who is told.

A vote for them counts for nothing, so it is withdrawn: the voter no longer counts as
having voted (the early close waits for them) and is asked to vote again. At Dusk an
order aimed at them fizzles at night and a guess about them goes unanswered (the
engine's re-check as the phase closes); the sender is told, and may change them while
Dusk is open. Nothing here is secret: the removal itself is announced."""

from __future__ import annotations

from typing import Any

import engine
from bot.core.messages import TargetRemoved
from bot.core.outbox import Mail
from bot.core.table import Table
from bot.db import repositories as repo


async def settle_submissions_naming(t: Table, mail: Mail, holders: dict[int, Any], seat: int, name: str) -> None:
    """Withdraw the open phase's votes for ``seat`` and tell everyone whose vote, orders
    or guesses named them (by private message, in their language)."""
    game, s = t.game, t.session
    assert game.phase is not None
    for sub in await repo.phase_submissions(s, game.id, game.round, game.phase):
        if sub.seat == seat or sub.seat not in holders or seat not in engine.seats_named(engine.submission_from_dict(sub.payload)):
            continue
        if sub.kind == "vote":
            await s.delete(sub)
            t.phase_rows_changed()
        user_id = holders[sub.seat].user_id
        if user_id is None:
            continue  # an AI seat reads its orders afresh each phase: nothing to tell it
        mail.private(user_id, TargetRemoved(what=sub.kind, seat=seat, name=name, round=game.round))
