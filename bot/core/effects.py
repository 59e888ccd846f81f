"""Which games' Discord side lags their state (``games.effects_due``, set by every change:
see :mod:`bot.db.effects`), for the bot's reconciler.

A game is handed out only once every post of it in its channel is delivered (or given
up): what the table is shown must not run ahead of what it has been told (the dead of a
night muted before the dawn post names them). The reconciler brings Discord in line with
the game as it is stored, then ``mark_reconciled`` with the count it was handed: a change
made meanwhile leaves the game due."""

from __future__ import annotations

from collections.abc import Collection

from bot.db.repos import effects_due
from bot.db.session import Database
from bot.db.signals import MESSAGES, note


async def games_to_reconcile(db: Database, *, limit: int = 100, skip: Collection[int] = ()) -> list[tuple[int, int]]:
    """Up to ``limit`` (game id, changes) due for reconciling and whose channel posts are
    all out, the games in ``skip`` (waiting to be tried again) left out. One indexed
    read; nothing when nothing changed."""
    async with db.read() as s:
        return await effects_due.games_due(s, limit, skip)


async def mark_reconciled(db: Database, game_id: int, changes: int) -> bool:
    """Discord's side of ``game_id`` matches its state as of ``changes``: clear the mark,
    unless the game changed again meanwhile. Whether it was cleared."""
    return await mark_all_reconciled(db, [(game_id, changes)]) == 1


async def mark_all_reconciled(db: Database, done: list[tuple[int, int]]) -> int:
    """:func:`mark_reconciled` for each (game id, changes) of a reconciler's pass, in one
    statement: one short hold of the writer for the pass, not one per game. How many
    marks were cleared."""
    if not done:
        return 0
    async with db.transaction() as s:
        return await effects_due.clear_marks(s, done)


async def mark_rechecks(db: Database, game_ids: list[int]) -> list[int]:
    """Have Discord's side of these games checked again (as :func:`mark_effects_due`), at
    start-up: Discord may have changed while the bot was down. The games that had no
    change of their own waiting (their mark is now 1): for those the check is only of what
    others can change on Discord (overwrites, channels), not of the bot's own posts, which
    were put right when the game last changed. A change made after this mark counts it up
    again, and the game is then brought in line in full."""
    async with db.transaction() as s:
        note(s, MESSAGES)  # the reconciler runs after the dispatcher's pass
        marks = await effects_due.count_up_marks(s, game_ids)
        return sorted(int(g) for g, n in marks if n == 1)


async def mark_effects_due(db: Database, game_ids: list[int] | None = None) -> int:
    """Have Discord's side of these games (default: every live one) checked again, though
    their state did not change: at start-up (Discord may have changed while the bot was
    down), or when a departed player is seen writing. The number of games marked; this
    process's dispatcher, whose passes run the reconciler, is woken once it commits."""
    async with db.transaction() as s:
        marked = await effects_due.mark_due(s, game_ids)
        note(s, MESSAGES)  # the reconciler runs after the dispatcher's pass
        return marked
