"""A phase's clock: its deadline and reminder armed when it opens (or when a paused or
extended phase goes on), and the phase a caller says it is answering checked."""

from __future__ import annotations

from datetime import timedelta

from bot.core.table import Table
from bot.core.time_zones import rotated_deadline


def arm_clock(table: Table, seconds: float | None = None) -> None:
    """Start the current phase's clock: deadline and reminder. A phase that opens runs
    for its length, or, with the game's deadline hours, to the round's hour
    (``time_zones.rotated_deadline``); ``seconds``: what a paused or extended phase has
    left."""
    game, now, settings = table.game, table.now, table.settings
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
