"""The bot's right to post in a game channel given back: the posts held go at once.

A post to a game channel that fails for want of a permission (a moderator took Send
Messages, Embed Links or Attach Files away) backs off like any failed delivery, for up
to an hour (``bot.core.outbox.mark_failed``), and holds the later posts to the channel
behind it. When the gateway says a channel changed (CHANNEL_UPDATE: its overwrites, or a
category's, which its synced channels follow), one of the bot's roles did
(GUILD_ROLE_UPDATE: a role the bot holds, or @everyone) or the bot's own member did
(GUILD_MEMBER_UPDATE, sent for the bot itself without the members intent: a role given
or taken), and the bot, as discord.py's cache now sees it, may post in the channel
(``permissions.POST``), the posts held for that channel are made due now
(``service.retry_held_now``) and the dispatcher is woken: they go out, in order, within a
pass, not at the end of their backoff.

What the cache said *before* the change is not asked: it may have been wrong (a send
refused while the cache still let the bot post, the change that took the right away not
yet seen), or the post may need more than ``POST`` (a file needs Attach Files), and the
update that gives the right back would then be taken for one that changes nothing. Each
update of a text channel costs one indexed read of the outbox, which finds nothing but
when posts are held there (the overwrites the bot writes itself, quiet dead's, cost that
read); a role change, rare, looks at each text channel of the server in the same read.

A right given back while the refused post is still in flight (its failure not yet
marked) would find nothing held: the dispatcher therefore looks again, after each pass,
at the channels that refused a post in it (``Reconciler.given_back``) and that the
bot's cache has seen change since, or that it knew it could not post in when refused;
never at one whose cache let the bot post when Discord refused (it would be refused
again at once, pass after pass).
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from typing import TYPE_CHECKING

import discord

from bot.core.outbox import retry_held_now
from bot.discord.guild.permissions import POST, missing

if TYPE_CHECKING:
    from bot.discord.client import WolfBot

log = logging.getLogger("wolfhowl.discord.access")


class AccessWatch:
    """Per bot: the game channels that refused a post since the dispatcher last looked
    (each with whether the cache let the bot post there when Discord refused), and those
    of them whose access the gateway has changed since (see the module docstring)."""

    def __init__(self) -> None:
        self._refused: dict[int, bool] = {}
        self._seen: set[int] = set()

    def refused(self, channel_id: int, cache_let_post: bool) -> None:
        self._refused[channel_id] = self._refused.get(channel_id, False) or cache_let_post
        self._seen.discard(channel_id)

    def saw(self, channel_ids: Iterable[int]) -> None:
        """The gateway changed these channels' access (or a role's, or the bot's own)."""
        self._seen.update(c for c in channel_ids if c in self._refused)

    def take(self) -> list[int]:
        """The channels refused since the last call worth looking at again now: the cache
        knew the bot could not post there, or has seen a change since. Forgets them all."""
        out = [c for c, let in self._refused.items() if not let or c in self._seen]
        self._refused, self._seen = {}, set()
        return out


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
    """A channel (or category) changed: if the bot may post there now, its held posts go
    now (whatever the cache said before: see the module docstring). The number of posts
    made due."""
    return await retry_channels(bot, _text_channels(after))


async def role_updated(bot: WolfBot, role: discord.Role) -> int:
    """A role changed: if the bot holds it (or it is @everyone), the server's channels
    it may now post in have their held posts go now."""
    me = role.guild.me
    if me is None or not (role.is_default() or role in me.roles):
        return 0
    return await retry_channels(bot, role.guild.text_channels)


async def member_updated(bot: WolfBot, member: discord.Member) -> int:
    """A member changed: if it is the bot (a role given to it or taken away), the
    server's channels it may now post in have their held posts go now."""
    if bot.user is None or member.id != bot.user.id:
        return 0
    return await retry_channels(bot, member.guild.text_channels)


async def retry_channels(bot: WolfBot, channels: Iterable[discord.abc.GuildChannel]) -> int:
    """The held posts of those of ``channels`` the bot may post in now go now (the
    dispatcher is woken by the commit: ``bot.db.signals``); the number made due."""
    channels = list(channels)
    bot.access.saw(c.id for c in channels)
    ids = [c.id for c in channels if may_post(c)]
    if not ids:
        return 0
    try:
        made = await retry_held_now(bot.db, "channel", ids)
    except Exception:  # the posts still go at the end of their backoff
        log.warning("could not make the posts held for %d channel(s) due now", len(ids), exc_info=True)
        return 0
    if made:
        log.info("the bot may post again in %s: %d held post(s) due now", ids if len(ids) < 5 else f"{len(ids)} channels", made)
    return made
