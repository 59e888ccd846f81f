"""The bot's command tree: every command's options checked by the typed layer before
discord.py reads them, every command's error answered by one handler."""

from __future__ import annotations

import discord
from discord import app_commands

from bot.discord import answering, payload
from bot.discord.errors import handle_error


class WolfTree(app_commands.CommandTree):
    """The command tree with the one error handler; each command is counted as in hand
    until answered, so that a stop lets it finish (``bot.discord.answering``)."""

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        """discord.py awaits this before it reads a command's options: the typed layer
        (``bot.discord.payload``) checks them here, and a refusal is answered at once."""
        answering.hold(interaction)
        try:
            payload.check_command(self, interaction)
        except payload.PayloadError as exc:
            await payload.refuse(interaction, exc)
            return False
        return True

    async def on_error(self, interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
        await handle_error(interaction, error)
