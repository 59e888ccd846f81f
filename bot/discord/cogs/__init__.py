"""The slash commands, one module per concern, all added to one tree by :func:`install`.

Command groups are built fresh for each tree (no module-level command objects), so tests
can build as many trees as they like. Every command is usable in servers and in DMs
with the bot; a handler finds its game from where it was used (see ``context``).

The moderators' commands live in ``/mod`` (a game opened, set, seated, ended) and
``/phase`` (its clock: advance, extend, pause, resume), both registered with
``default_member_permissions`` = Manage Server: Discord itself lists them only to members with that permission (or to
those a server admin lets see them in Server Settings → Integrations). Discord applies
no member permissions in DMs, and an admin may open a group to anyone, so every
handler still checks the moderator at run time (``checks``).
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


@dataclass(frozen=True, slots=True)
class Groups:
    game: app_commands.Group
    mod: app_commands.Group
    phase: app_commands.Group
    act: app_commands.Group


# What a member needs for Discord to list the moderators' commands to them by default.
MODERATOR_PERMISSIONS = discord.Permissions(manage_guild=True)


def group(name: str, default_permissions: discord.Permissions | None = None) -> app_commands.Group:
    return app_commands.Group(
        name=L(f"cmd.name.{name}"),
        description=L(f"cmd.desc.{name}"),
        allowed_contexts=CONTEXTS,
        allowed_installs=INSTALLS,
        default_permissions=default_permissions,
    )


def top_level(name: str) -> Callable[[Callable[..., Any]], app_commands.Command[Any, ..., Any]]:
    """Decorator: a top-level command usable in servers and in DMs with the bot."""

    def wrap(func: Callable[..., Any]) -> app_commands.Command[Any, ..., Any]:
        return app_commands.Command(
            name=L(f"cmd.name.{name}"),
            description=L(f"cmd.desc.{name}"),
            callback=func,
            allowed_contexts=CONTEXTS,
            allowed_installs=INSTALLS,
        )

    return wrap


def install(tree: app_commands.CommandTree) -> Groups:
    """Add every command to ``tree``."""
    from bot.discord.cogs import (
        game_admin,
        history,
        info,
        lineup,
        lobby,
        me,
        orders,
        phase,
        recap,
        standby,
        stats,
        table,
    )

    groups = Groups(
        game=group("game"), mod=group("mod", MODERATOR_PERMISSIONS), phase=group("phase", MODERATOR_PERMISSIONS), act=group("act")
    )
    for module in (lobby, game_admin, lineup, history, phase, orders, me, info, stats, recap, standby, table):
        module.install(tree, groups)
    for g in (groups.game, groups.mod, groups.phase, groups.act):
        tree.add_command(g)
    return groups
