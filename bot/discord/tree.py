"""Every command on one tree: :func:`install` puts each cog's commands there, a command
of a shared group (``/game``, ``/mod``, ``/phase``, ``/act``; ``groups``) into that group,
the rest at the top level; the cogs are the features' (``bot.discord.features``), in the
order of their ``position``. The cogs are not added with ``Bot.add_cog``, which cannot
share a group between cogs; the groups are built fresh for each tree, so tests build as
many trees as they like. A handler finds its game from where it was used (see
``bot.discord.context``)."""

from __future__ import annotations

from discord import app_commands

from bot.discord.features import discover
from bot.discord.groups import SHARED, Groups


def install(tree: app_commands.CommandTree) -> Groups:
    """Add every command to ``tree``."""
    groups = Groups.build()
    for feature in discover().cogs:  # in their positions' order
        for found in feature().get_app_commands():
            shared = found.extras.get(SHARED)
            if shared is None:
                tree.add_command(found)
            else:
                getattr(groups, shared).add_command(found)
    for g in (groups.game, groups.mod, groups.phase, groups.act):
        tree.add_command(g)
    return groups
