"""The command groups and the decorators every cog uses.

``/game``, ``/mod``, ``/phase`` and ``/act`` hold the commands of more than one feature,
so they are built fresh for each tree (:class:`Groups`) and a cog's command names its
group (:func:`command`); :func:`bot.discord.tree.install` puts it there. A group only one
feature uses (``/stats``, ``/standby``) is a class attribute of that feature's cog, made
by :func:`group`. Every command is usable in servers and in DMs with the bot; those
that need nothing of a server (``/practice``, ``/rules``, ``/help``, ``/stats``) can also be
installed by a person to their own account and used anywhere (``anywhere=True``): in a
server without the bot and in a DM between people, where the bot answers through the
interaction alone. (Discord sets where a command may be used per top-level command, so
all of ``/stats`` goes with ``/stats view``: each answers its caller privately.)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import discord
from discord import app_commands

from bot.discord.translator import L

CONTEXTS = app_commands.AppCommandContext(guild=True, dm_channel=True, private_channel=False)
INSTALLS = app_commands.AppInstallationType(guild=True, user=False)
# A person's own install of the app: the commands that work anywhere.
ANYWHERE_CONTEXTS = app_commands.AppCommandContext(guild=True, dm_channel=True, private_channel=True)
ANYWHERE_INSTALLS = app_commands.AppInstallationType(guild=True, user=True)
SHARED = "group"
"""The key of a command's ``extras`` that names its shared group."""

# What a member needs for Discord to list the moderators' commands to them by default.
MODERATOR_PERMISSIONS = discord.Permissions(manage_guild=True)


@dataclass(frozen=True, slots=True)
class Groups:
    game: app_commands.Group
    mod: app_commands.Group
    phase: app_commands.Group
    act: app_commands.Group

    @classmethod
    def build(cls) -> Groups:
        return cls(
            game=group("game"),
            mod=group("mod", MODERATOR_PERMISSIONS),
            phase=group("phase", MODERATOR_PERMISSIONS),
            act=group("act"),
        )


def group(name: str, default_permissions: discord.Permissions | None = None, *, anywhere: bool = False) -> app_commands.Group:
    return app_commands.Group(
        name=L(f"cmd.name.{name}"),
        description=L(f"cmd.desc.{name}"),
        allowed_contexts=ANYWHERE_CONTEXTS if anywhere else CONTEXTS,
        allowed_installs=ANYWHERE_INSTALLS if anywhere else INSTALLS,
        default_permissions=default_permissions,
    )


def command(shared: str, name: str) -> Callable[[Callable[..., Any]], app_commands.Command[Any, ..., Any]]:
    """Decorator: the command ``name`` of the shared group ``shared`` (a field of
    :class:`Groups`), described by ``cmd.desc.<shared>_<name>``."""
    return app_commands.command(name=L(f"cmd.name.{name}"), description=L(f"cmd.desc.{shared}_{name}"), extras={SHARED: shared})


def top_level(name: str, *, anywhere: bool = False) -> Callable[[Callable[..., Any]], app_commands.Command[Any, ..., Any]]:
    """Decorator: a top-level command usable in servers and in DMs with the bot (and,
    ``anywhere``, wherever a person who installed the app to their account is)."""

    def wrap(func: Callable[..., Any]) -> app_commands.Command[Any, ..., Any]:
        return app_commands.Command(
            name=L(f"cmd.name.{name}"),
            description=L(f"cmd.desc.{name}"),
            callback=func,
            allowed_contexts=ANYWHERE_CONTEXTS if anywhere else CONTEXTS,
            allowed_installs=ANYWHERE_INSTALLS if anywhere else INSTALLS,
        )

    return wrap


def bot_absent(interaction: discord.Interaction) -> bool:
    """Used where the bot cannot reach the channel: a server that has not installed it
    (only the caller's own install authorized the command) or a DM between people. The
    answer goes through the interaction only; nothing may be posted in the channel."""
    if interaction.context.private_channel:
        return True
    return interaction.guild_id is not None and not interaction.is_guild_integration()
