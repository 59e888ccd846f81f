"""Message components: the lobby's Join/Leave buttons, the order panel and a finished
game's Replay button, the Table button (the confirmation buttons of ``/mod end`` and the pages of ``/game
history`` stay with their command, in ``bot.discord.commands``). Every
component is a ``DynamicItem`` whose ``custom_id`` carries the ids it needs (game,
round, phase, skill, seat); the rest is read from the database when it is used, so the
buttons on old messages keep working after a restart."""

from __future__ import annotations

from typing import Any

import discord


def dynamic_items() -> list[type[discord.ui.DynamicItem[Any]]]:
    """Every dynamic item the bot must register at start-up."""
    from bot.discord.commands import game_admin, history, stats
    from bot.discord.components import lobby, panel, replay, standby, table

    return [*lobby.ITEMS, *panel.ITEMS, *game_admin.ITEMS, *stats.ITEMS, *replay.ITEMS, *history.ITEMS, *standby.ITEMS, *table.ITEMS]
