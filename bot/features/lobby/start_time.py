"""A lobby's start time, as a moderator sets it (see :mod:`bot.features.lobby.clock`
for what happens at it)."""

from __future__ import annotations

from datetime import datetime, timedelta

from bot.core.errors import BadArgumentError, LobbyClosedError
from bot.core.rules import settings_of
from bot.db.models import Game

MIN_START_SECONDS = 60
MAX_START_SECONDS = 30 * 86400
# The end reason of a lobby cancelled at its start time for want of players.
NOT_FILLED = "not_filled"


def set_start_time(game: Game, now: datetime, seconds: int) -> None:
    """Give the lobby ``game`` a start time ``seconds`` from ``now`` (0: none), with
    its reminder the game's reminder lead before it (none if that is already past)."""
    if not isinstance(seconds, int) or isinstance(seconds, bool) or not (seconds == 0 or MIN_START_SECONDS <= seconds <= MAX_START_SECONDS):
        raise BadArgumentError(field="start_in", reason=f"0 (none) or {MIN_START_SECONDS} s to {MAX_START_SECONDS // 86400} days")
    if game.status != "lobby":
        raise LobbyClosedError(game_id=game.id)
    if seconds == 0:
        game.start_at = game.start_reminder_at = None
        return
    game.start_at = now + timedelta(seconds=seconds)
    lead = settings_of(game).reminder_lead_seconds
    remind = game.start_at - timedelta(seconds=lead)
    game.start_reminder_at = remind if lead and remind > now else None
