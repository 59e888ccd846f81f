"""What the bot may do in a channel: the permissions a game needs, those quiet dead needs
besides (``bot.discord.guild.quiet_dead``), and their names for a moderator to read."""

from __future__ import annotations

from collections.abc import Iterable

import discord

from bot.i18n import normalize_locale, t
from bot.render import words

# What the bot needs in the game channel to run a game at all.
BASIC = ("view_channel", "send_messages", "embed_links", "attach_files", "read_message_history")
# What a post in the game channel needs (an embed, Discord strips without Embed Links).
POST = ("view_channel", "send_messages", "embed_links")
# What a departed player's overwrite in the game channel takes away (quiet dead).
MUTED = ("send_messages", "send_messages_in_threads", "add_reactions", "create_public_threads")
# What muting one member needs: writing their overwrite, and holding in the server every
# permission it denies (Discord lets a bot deny only what it holds itself).
MUTE = ("manage_roles", *MUTED)
# What giving a member their voice back needs (lifting the bot's overwrite).
LIFT = ("manage_roles",)
# What quiet dead needs besides: create the dead channel and mute the departed.
QUIET = ("manage_channels", *MUTE)


def missing(perms: discord.Permissions, names: Iterable[str]) -> list[str]:
    return [n for n in names if not getattr(perms, n)]


def bot_missing(channel: discord.abc.GuildChannel) -> tuple[list[str], list[str]]:
    """(missing to run a game here, missing for quiet dead)."""
    me = channel.guild.me
    perms = channel.permissions_for(me)
    guild_perms = me.guild_permissions
    quiet = [n for n in QUIET if not (perms.administrator or (getattr(guild_perms, n) and (n in MUTED or getattr(perms, n))))]
    return missing(perms, BASIC) if not perms.administrator else [], quiet


def quiet_missing(channel: discord.abc.GuildChannel, names: Iterable[str] = QUIET) -> list[str]:
    """Which of ``names`` (quiet dead's permissions) the bot lacks in ``channel``."""
    lacking = bot_missing(channel)[1]
    return [n for n in names if n in lacking]


def permission_names(names: Iterable[str], locale: str) -> str:
    return words.listing((t(f"ui.perm.{n}", locale) for n in names), locale)


def audit_reason(guild: discord.Guild, what: str) -> str:
    """Why the bot changed a channel, for the server's audit log: in the server's
    language, since its administrators read it."""
    return t(f"ui.audit.{what}", normalize_locale(str(guild.preferred_locale)))
