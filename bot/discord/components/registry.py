"""Every dynamic item the bot registers at start-up, so that a button pressed on any
message, however old, finds its handler."""

from __future__ import annotations

from typing import Any

import discord

from bot.discord.components import (
    end,
    history,
    lobby,
    panel,
    predict,
    replay,
    standby,
    stats,
    table,
)


def dynamic_items() -> list[type[discord.ui.DynamicItem[Any]]]:
    """Every dynamic item the bot must register at start-up."""
    return [*lobby.ITEMS, *panel.ITEMS, *end.ITEMS, *stats.ITEMS, *replay.ITEMS, *history.ITEMS, *standby.ITEMS, *table.ITEMS, *predict.ITEMS]
