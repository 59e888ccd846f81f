"""What Discord says of a caller in a game's server, for the service's access policy
(``bot.core.policy.Standing``): whether they are a member, whether they can see the
game's channel, whether they moderate there.

Every fact comes from Discord itself, never from an id the payload carried: the
interaction's own member data when it was sent in that server (Discord computes its
permissions for the channel it was sent in), else Discord asked — the member by REST
(the bot has no members intent), the channel's overwrites from the cache or by REST,
the member's permissions in it computed as Discord does (``permissions_for``). Someone
Discord does not show as a member is a stranger."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord

from bot.core.policy import Standing
from bot.discord.guild.checks import member_in, member_is_moderator

if TYPE_CHECKING:
    from bot.discord.client import WolfBot


async def standing_of(
    bot: WolfBot, user: discord.abc.User, guild_id: int | None, channel_id: int, interaction: discord.Interaction | None = None
) -> Standing:
    """``user``'s standing in ``guild_id`` and ``channel_id`` (``interaction``: the one
    they sent, whose member data Discord wrote for the channel it came from). No server
    (a practice game, in a DM): nothing to ask Discord, the policy knows the DM's person."""
    if guild_id is None:
        return Standing.stranger(user.id)
    member = await member_in(bot, guild_id, user)
    if member is None:
        return Standing.stranger(user.id, guild_id)
    return await standing_of_member(bot, member, channel_id, interaction)


async def standing_of_member(bot: WolfBot, member: discord.Member, channel_id: int, interaction: discord.Interaction | None = None) -> Standing:
    """A member's standing in their server, with whether they can see ``channel_id``."""
    moderator = member_is_moderator(member, bot.config.moderator_role)
    sees = await _sees(member, channel_id, interaction)
    return Standing.member_of(member.id, member.guild.id, (channel_id,) if sees else (), moderator=moderator)


async def standing_in_server(bot: WolfBot, interaction: discord.Interaction, guild_id: int) -> Standing:
    """The caller's standing in ``guild_id`` alone (a server's leaderboard asks no channel)."""
    member = await member_in(bot, guild_id, interaction.user)
    if member is None:
        return Standing.stranger(interaction.user.id, guild_id)
    return Standing.member_of(interaction.user.id, guild_id, moderator=member_is_moderator(member, bot.config.moderator_role))


async def _sees(member: discord.Member, channel_id: int, interaction: discord.Interaction | None) -> bool:
    if interaction is not None and interaction.guild_id == member.guild.id and interaction.channel_id == channel_id:
        return interaction.permissions.view_channel
    channel = member.guild.get_channel_or_thread(channel_id)
    if channel is None:
        try:  # a server read by REST (another process's shard) has no channels cached
            fetched = await member.guild.fetch_channel(channel_id)
        except discord.HTTPException:
            return False
        if not isinstance(fetched, discord.abc.GuildChannel):
            return False
        channel = fetched
    return channel.permissions_for(member).view_channel
