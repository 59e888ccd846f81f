"""Every dynamic item the bot registers at start-up, so that a button pressed on any
message, however old, finds its handler."""

from __future__ import annotations

from typing import Any

import discord

from bot.features.gallery import components as predict
from bot.features.history import components as history
from bot.features.lobby import components as lobby
from bot.features.moderation import components as end
from bot.features.play import components as panel
from bot.features.replay import components as replay
from bot.features.standbys import components as standby
from bot.features.stats import components as stats
from bot.features.table_view import components as table


def dynamic_items() -> list[type[discord.ui.DynamicItem[Any]]]:
    """Every dynamic item the bot must register at start-up."""
    return [*lobby.ITEMS, *panel.ITEMS, *end.ITEMS, *stats.ITEMS, *replay.ITEMS, *history.ITEMS, *standby.ITEMS, *table.ITEMS, *predict.ITEMS]
