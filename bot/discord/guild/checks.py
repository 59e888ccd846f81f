"""Who is a moderator: a member with Manage Server in the game's server, a member with
the configured moderator role, or the one who created the game (the service's access
policy, ``bot.core.policy``, decides from what is asked of Discord here). Asked
about the game the command is about (so it works in DMs too, where Discord knows
nothing of the caller's server roles)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord

if TYPE_CHECKING:
    from bot.discord.client import WolfBot


def role_matches(member: discord.Member, wanted: str) -> bool:
    wanted = wanted.strip()
    if not wanted:
        return False
    for role in member.roles:
        if str(role.id) == wanted or role.name.casefold() == wanted.casefold():
            return True
    return False


def member_is_moderator(member: discord.Member, moderator_role: str) -> bool:
    perms = member.guild_permissions
    return perms.manage_guild or perms.administrator or role_matches(member, moderator_role)


async def member_of(guild: discord.Guild, user_id: int) -> discord.Member | None:
    """``user_id`` as a member of ``guild`` (from the cache, else one REST call: the bot
    has no members intent); None when they are not one."""
    member = guild.get_member(user_id)
    if member is not None:
        return member
    try:
        return await guild.fetch_member(user_id)
    except discord.HTTPException:
        return None


async def member_in(bot: WolfBot, guild_id: int, user: discord.abc.User) -> discord.Member | None:
    """The caller as a member of ``guild_id`` (None: not one, or a server the bot cannot
    see). A server on another process's shard (a DM reaches shard 0's process) is read
    by REST: its roles, then the member."""
    if isinstance(user, discord.Member) and user.guild.id == guild_id:
        return user
    guild = bot.get_guild(guild_id)
    if guild is None and not bot.holds_guild(guild_id):
        try:  # a member at all? (most servers asked about from a DM are not the caller's)
            await bot.http.get_member(guild_id, user.id)
            guild = await bot.fetch_guild(guild_id)  # its roles, for the member's permissions
        except discord.HTTPException:
            return None
    return None if guild is None else await member_of(guild, user.id)


async def still_member(bot: WolfBot, guild_id: int, user: discord.abc.Snowflake) -> bool:
    """Whether ``user`` is still in the server, asked of Discord: without the members
    intent the cache never hears that someone left. A server on another process's shard
    is asked by REST; one the bot cannot see now (an outage), or a Discord that does not
    answer, locks nobody out."""
    if isinstance(user, discord.Member) and user.guild.id == guild_id:
        return True
    guild = bot.get_guild(guild_id)
    if guild is None and bot.holds_guild(guild_id):
        return True
    try:
        await (guild.fetch_member(user.id) if guild is not None else bot.http.get_member(guild_id, user.id))
    except discord.NotFound:
        return False
    except discord.HTTPException:
        return True
    return True
