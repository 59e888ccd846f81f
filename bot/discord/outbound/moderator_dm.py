"""Telling a game's moderator something by DM when no command of theirs is being
answered (a post the game channel refuses, a player who could not be muted)."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import discord

from bot.core.types import GameInfo
from bot.core.users import locale_of
from bot.discord.errors import error_embed

if TYPE_CHECKING:
    from bot.discord.client import WolfBot

log = logging.getLogger("wolfhowl.discord.moderator_dm")


async def dm_moderator(bot: WolfBot, info: GameInfo, text: str, nonce: str | None = None) -> None:
    """Best effort: a moderator whose DMs are closed finds out from the game itself.
    ``nonce``: Discord drops a repeat sent with the same one within minutes."""
    try:
        moderator = bot.get_user(info.moderator_id) or await bot.fetch_user(info.moderator_id)
        if nonce is None:  # (discord.py then makes one of its own)
            await moderator.send(embed=error_embed(text))
        else:
            await moderator.send(embed=error_embed(text), nonce=nonce)
    except discord.HTTPException:
        log.warning("could not tell the moderator of game %s", info.id, exc_info=True)


async def moderator_locale(bot: WolfBot, info: GameInfo) -> str:
    """The language to write to the game's moderator in: their own as last seen by the
    bot, else the game's."""
    return await locale_of(bot.db, info.moderator_id) or info.settings.language
