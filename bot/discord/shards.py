"""Which shard an event came through, from what Discord documents and discord.py's public
API alone (https://discord.com/developers/docs/events/gateway#sharding): a server's events
come through shard ``(guild_id >> 22) % shard_count``, a DM's through shard 0, and
discord.py's shard events (``on_shard_connect``, ``on_shard_ready``, ``on_shard_resumed``,
``on_shard_disconnect``) name theirs. So the log's ``shard`` (``bot.log_context``) is
known from the event itself, whichever task dispatches it and whether it came live or
replayed after a resume."""

from __future__ import annotations

from typing import Any

import discord


def shard_of(guild_id: int | None, shard_count: int) -> int:
    """The shard Discord sends a server's events to: ``(guild_id >> 22) % shard_count``;
    DMs (``guild_id`` None, a practice game's) go to shard 0."""
    return 0 if guild_id is None else (guild_id >> 22) % shard_count


def event_shard(event: str, args: tuple[Any, ...], shard_count: int) -> int | None:
    """The shard discord.py's event ``event`` (dispatched with ``args``) came through: a
    shard event's own, else its server's (a guild, or what belongs to one: a channel, a
    role, a member, a message, an interaction, a raw event's ``guild_id``), else 0 for a
    DM (a message or an interaction without a server); None when the event names none
    of these (``connect``, ``ready``, ``socket_event_type``…)."""
    if event.startswith("shard_"):
        return args[0] if args and isinstance(args[0], int) and not isinstance(args[0], bool) else None
    for arg in args:
        if isinstance(arg, discord.Guild):
            return arg.shard_id
        guild_id = getattr(arg, "guild_id", None)
        if isinstance(guild_id, int):
            return shard_of(guild_id, shard_count)
        guild = getattr(arg, "guild", None)
        if isinstance(guild, discord.Guild):
            return guild.shard_id
        if isinstance(arg, discord.Message | discord.Interaction):
            return 0  # a DM's
    return None
