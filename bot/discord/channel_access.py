"""The bot's right to post in a game channel given back: the posts held go at once.

A post to a game channel that fails for want of a permission (a moderator took Send
Messages or Embed Links away) backs off like any failed delivery, for up to an hour
(``bot.service.outbox.mark_failed``), and holds the later posts to the channel behind it.
When the gateway says a channel changed (CHANNEL_UPDATE: its overwrites, or a
category's, which its synced channels follow) or one of the bot's roles did
(GUILD_ROLE_UPDATE: a role the bot holds, or @everyone), and the bot, as discord.py's
cache now sees it, may post in the channel (``permissions.POST``), the posts held for
that channel are made due now (``service.retry_held_now``) and the dispatcher is woken:
they go out, in order, within a pass, not at the end of their backoff. A channel the
bot could already post in before the change is left alone (the change did not give the
right back), so the overwrites the bot writes itself (quiet dead) cost nothing; a role
change, rare, looks at each text channel of the server, one indexed read of the outbox
for all of them.

A right given back while the refused post is still in flight (its failure not yet
marked) would find nothing held: the dispatcher therefore looks again, after each pass,
at the channels that refused a post in it (``DiscordSender.given_back``).
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from typing import TYPE_CHECKING

import discord

import bot.service as service
from bot.discord.permissions import POST, missing

if TYPE_CHECKING:
    from bot.discord.client import WolfBot

log = logging.getLogger("wolfhowl.discord.access")


def may_post(channel: discord.abc.GuildChannel) -> bool:
    """Whether the bot, as its cache sees it, may post a game's posts in ``channel``."""
    me = channel.guild.me
    if me is None:
        return False
    perms = channel.permissions_for(me)
    return perms.administrator or not missing(perms, POST)


def _text_channels(channel: discord.abc.GuildChannel) -> list[discord.abc.GuildChannel]:
    if isinstance(channel, discord.CategoryChannel):
        return [*channel.text_channels]
    return [channel] if isinstance(channel, discord.abc.Messageable) else []


async def channel_updated(bot: WolfBot, before: discord.abc.GuildChannel, after: discord.abc.GuildChannel) -> int:
    """A channel (or category) changed: if that gave the bot its right to post back, its
    held posts go now. The number of posts made due."""
    if may_post(before) and not isinstance(after, discord.CategoryChannel):
        return 0
    return await retry_channels(bot, _text_channels(after))


async def role_updated(bot: WolfBot, role: discord.Role) -> int:
    """A role changed: if the bot holds it (or it is @everyone), the server's channels
    it may now post in have their held posts go now."""
    me = role.guild.me
    if me is None or not (role.is_default() or role in me.roles):
        return 0
    return await retry_channels(bot, role.guild.text_channels)


async def retry_channels(bot: WolfBot, channels: Iterable[discord.abc.GuildChannel]) -> int:
    """The held posts of those of ``channels`` the bot may post in now go now (the
    dispatcher woken); the number made due."""
    ids = [c.id for c in channels if may_post(c)]
    if not ids:
        return 0
    try:
        made = await service.retry_held_now(bot.db, "channel", ids)
    except Exception:  # the posts still go at the end of their backoff
        log.warning("could not make the posts held for %d channel(s) due now", len(ids), exc_info=True)
        return 0
    if made:
        log.info("the bot may post again in %s: %d held post(s) due now", ids if len(ids) < 5 else f"{len(ids)} channels", made)
        bot.wake_dispatcher()
    return made
