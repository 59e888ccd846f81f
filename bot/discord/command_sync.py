"""Registering the slash commands, and removing the copies an earlier setting left.

Commands are registered either globally or in the servers of ``command_guild_ids``.
Discord shows a server both its own copies and the global ones, so switching between
the two would list every command twice: the copies of the other kind are removed."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import discord

if TYPE_CHECKING:
    from bot.discord.client import WolfBot

log = logging.getLogger("wolfhowl.discord")


async def register(bot: WolfBot) -> None:
    """At start-up (``setup_hook``): the commands in the configured servers and no global
    copies left from a global run; or globally (the servers' copies go once the bot is
    ready: ``remove_server_copies``)."""
    if not bot.config.command_guild_ids:
        synced = await bot.tree.sync()
        log.info("registered %d global commands", len(synced))
        return
    for guild_id in bot.config.command_guild_ids:
        guild = discord.Object(guild_id)
        bot.tree.copy_global_to(guild=guild)
        synced = await bot.tree.sync(guild=guild)
        log.info("registered %d commands in guild %s", len(synced), guild_id)
    app_id = bot.application_id
    if app_id is not None and await bot.http.get_global_commands(app_id):
        await bot.http.bulk_upsert_global_commands(app_id, [])
        log.info("removed the global commands left from a global registration")


async def remove_server_copies(bot: WolfBot) -> None:
    """Once ready, with global commands: remove the copies a ``command_guild_ids`` run
    left in the servers the bot is in (one read per server; a write only where some)."""
    app_id = bot.application_id
    if app_id is None or bot.config.command_guild_ids:
        return
    for guild in bot.guilds:
        try:
            if await bot.http.get_guild_commands(app_id, guild.id):
                await bot.http.bulk_upsert_guild_commands(app_id, guild.id, [])
                log.info("removed the commands left registered in guild %s", guild.id)
        except discord.HTTPException:
            log.warning("could not check the commands registered in guild %s", guild.id, exc_info=True)
