"""The dead stay quiet: a departed player loses the right to write in the game channel
(a permission overwrite for that member) and may talk in the game's channel for the
dead. The dead channel is found again after a restart by a marker in its topic, so no
extra storage is needed: a game has quiet dead exactly when its dead channel exists.

Everything here is idempotent (it sets what should be, whatever was), so it can run after
every announcement that may change who is dead, and again at the end to lift the
restrictions."""

from __future__ import annotations

import logging
from collections.abc import Iterable
from typing import TYPE_CHECKING

import discord

from bot.i18n import normalize_locale, t
from bot.render import words
from bot.service.types import GameInfo

if TYPE_CHECKING:
    from bot.discord.client import WolfBot

log = logging.getLogger("wolfhowl.discord.permissions")

# What the bot needs in the game channel to run a game at all.
BASIC = ("view_channel", "send_messages", "embed_links", "attach_files", "read_message_history")
# What quiet dead needs besides: create the dead channel and write member overwrites.
QUIET = ("manage_channels", "manage_roles")
QUIET_DENY = {"send_messages": False, "send_messages_in_threads": False, "add_reactions": False, "create_public_threads": False}


def marker(game_channel_id: int, *, off: bool = False) -> str:
    """The tag in the dead channel's topic that ties it to its game channel; ``off`` while
    the moderator has quiet dead switched off (the channel stays, with its history)."""
    return f"[wolfhowl:{'dead-off' if off else 'dead-of'}:{game_channel_id}]"


def missing(perms: discord.Permissions, names: Iterable[str]) -> list[str]:
    return [n for n in names if not getattr(perms, n)]


def bot_missing(channel: discord.abc.GuildChannel) -> tuple[list[str], list[str]]:
    """(missing to run a game here, missing for quiet dead)."""
    me = channel.guild.me
    perms = channel.permissions_for(me)
    guild_perms = me.guild_permissions
    quiet = [n for n in QUIET if not ((getattr(perms, n) and getattr(guild_perms, n)) or perms.administrator)]
    return missing(perms, BASIC) if not perms.administrator else [], quiet


def permission_names(names: Iterable[str], locale: str) -> str:
    return words.listing((t(f"ui.perm.{n}", locale) for n in names), locale)


def audit_reason(guild: discord.Guild, what: str) -> str:
    """Why the bot changed a channel, for the server's audit log: in the server's
    language, since its administrators read it."""
    return t(f"ui.audit.{what}", normalize_locale(str(guild.preferred_locale)))


def find_dead_channel(guild: discord.Guild, game_channel_id: int, *, off: bool = False) -> discord.TextChannel | None:
    mark = marker(game_channel_id, off=off)
    for channel in guild.text_channels:
        if channel.topic and mark in channel.topic:
            return channel
    return None


async def ensure_dead_channel(game_channel: discord.TextChannel, locale: str) -> discord.TextChannel:
    """The game's channel for the dead, created hidden from everyone but the bot."""
    guild = game_channel.guild
    found = find_dead_channel(guild, game_channel.id)
    if found is not None:
        return found
    switched_off = find_dead_channel(guild, game_channel.id, off=True)
    if switched_off is not None and switched_off.topic:  # on again: the same channel
        topic = switched_off.topic.replace(marker(game_channel.id, off=True), marker(game_channel.id))
        return await switched_off.edit(topic=topic, reason=audit_reason(guild, "quiet_dead"))
    overwrites: dict[discord.Role | discord.Member, discord.PermissionOverwrite] = {
        guild.default_role: discord.PermissionOverwrite(view_channel=False),
        guild.me: discord.PermissionOverwrite(view_channel=True, send_messages=True, embed_links=True, read_message_history=True),
    }
    name = t("ui.dead_channel_name", locale, channel=game_channel.name)[:100]
    topic = t("ui.dead_channel_topic", locale, channel=game_channel.mention) + " " + marker(game_channel.id)
    return await guild.create_text_channel(
        name, category=game_channel.category, overwrites=overwrites, topic=topic[:1024], reason=audit_reason(guild, "quiet_dead")
    )


async def disable_quiet_dead(game_channel: discord.TextChannel) -> None:
    """Quiet dead off: give everyone this game silenced their voice back (found by our
    overwrite's signature), then mark the dead channel as switched off (it stays, with its
    history, and is used again if quiet dead is switched back on)."""
    guild = game_channel.guild
    found = find_dead_channel(guild, game_channel.id)
    if found is None:
        return
    for target, ow in list(game_channel.overwrites.items()):
        if isinstance(target, discord.Role) or not _ours(ow):
            continue
        member = await _member(guild, target.id)
        if member is not None:
            await unsilence(game_channel, member)
    if found.topic:
        await found.edit(
            topic=found.topic.replace(marker(game_channel.id), marker(game_channel.id, off=True)), reason=audit_reason(guild, "quiet_dead_off")
        )


async def _member(guild: discord.Guild, user_id: int) -> discord.Member | None:
    member = guild.get_member(user_id)
    if member is not None:
        return member
    try:
        return await guild.fetch_member(user_id)
    except discord.HTTPException:
        return None


async def silence(game_channel: discord.TextChannel, dead_channel: discord.TextChannel, member: discord.Member) -> None:
    current = game_channel.overwrites_for(member)
    if current.send_messages is not False:
        current.update(**QUIET_DENY)
        await game_channel.set_permissions(member, overwrite=current, reason=audit_reason(game_channel.guild, "left"))
    if dead_channel.overwrites_for(member).view_channel is not True:
        await dead_channel.set_permissions(
            member, view_channel=True, send_messages=True, read_message_history=True, reason=audit_reason(game_channel.guild, "left")
        )


async def close_dead_channel(dead_channel: discord.TextChannel, member: discord.Member) -> None:
    """Take back the dead channel from someone who is playing (alive) or whose game is
    over: what the dead say there is for the dead of a running game only."""
    if dead_channel.overwrites_for(member).view_channel is True:
        await dead_channel.set_permissions(member, overwrite=None, reason=audit_reason(dead_channel.guild, "dead_closed"))


async def unsilence(game_channel: discord.TextChannel, member: discord.Member) -> None:
    current = game_channel.overwrites_for(member)
    if current.send_messages is False:
        current.update(**{k: None for k in QUIET_DENY})
        await game_channel.set_permissions(
            member, overwrite=None if current.is_empty() else current, reason=audit_reason(game_channel.guild, "voice_back")
        )


def _ours(ow: discord.PermissionOverwrite) -> bool:
    return all(getattr(ow, k) is False for k in QUIET_DENY)


async def sync_quiet_dead(
    bot: WolfBot, info: GameInfo, also_dead: Iterable[int] = (), dead_channel: discord.TextChannel | None = None
) -> None:
    """Silence the departed of ``info`` (and ``also_dead``: user ids of removed players,
    whose seats no longer name them) and close the dead channel to the living (someone
    who died in an earlier game here may be playing again); at the end, give everyone
    their voice back and close the dead channel to all.
    ``dead_channel``: one just created (not yet in the cache), else found by its topic."""
    guild = bot.get_guild(info.guild_id)
    if guild is None:
        return
    game_channel = guild.get_channel(info.channel_id)
    dead_channel = dead_channel or find_dead_channel(guild, info.channel_id)
    if not isinstance(game_channel, discord.TextChannel) or dead_channel is None:
        return
    finished = info.status in ("over", "cancelled")
    dead_ids = {p.user_id for p in info.players if p.seat is not None and not p.alive and p.user_id} | set(also_dead)
    everyone = {p.user_id for p in info.players if p.user_id} | dead_ids
    if finished:
        # Removed players no longer hold a seat: find them by our overwrite's signature.
        everyone |= {target.id for target, ow in game_channel.overwrites.items() if _ours(ow)}
    for user_id in sorted(everyone):
        member = await _member(guild, user_id)
        if member is None:
            continue
        try:
            if finished:
                await unsilence(game_channel, member)
                await close_dead_channel(dead_channel, member)
            elif user_id in dead_ids:
                await silence(game_channel, dead_channel, member)
            else:
                await close_dead_channel(dead_channel, member)
        except discord.HTTPException:
            log.warning("quiet dead: could not update the overwrites of user %s in game %s", user_id, info.id, exc_info=True)
