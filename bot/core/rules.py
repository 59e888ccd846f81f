"""The rules version of stored games (engine.rules): what a game was dealt under, read
the same way wherever a stored state is decoded."""

from __future__ import annotations

from typing import Any

import engine
from bot.core.errors import GameNotRunningError
from bot.core.types import GameSettings


def decode_state(game: Any) -> engine.GameState:
    """A game's stored state (an entity or a row with ``state`` and ``started_at``), of
    the rules version it was dealt under (engine.rules). A state stored before versions
    were recorded names none: it is of the version in force when the game was dealt,
    the newest published by its ``started_at``, and is written with it at its next step,
    so that a live game goes on by the rules it began with."""
    stored: dict[str, Any] = game.state
    settings = stored.get("settings") or {}
    if "rules_version" not in settings:
        stored = stored | {"settings": settings | {"rules_version": engine.rules.dealt_under(game.started_at)}}
    return engine.GameState.from_dict(stored)


def state_of(game: Any) -> engine.GameState:
    """A dealt game's state (GameNotRunningError in the lobby); a use case that holds the
    game's table reads ``Table.state`` instead, decoded once."""
    if game.state is None:
        raise GameNotRunningError(game_id=game.id)
    return decode_state(game)


def settings_of(game: Any) -> GameSettings:
    """A game's settings as stored (``Table.settings`` on a table)."""
    return GameSettings.model_validate(game.settings)
