"""Every command on one tree: :func:`install` puts each cog's commands there, a command
of a shared group (``/game``, ``/mod``, ``/phase``, ``/act``; ``groups``) into that group,
the rest at the top level. The cogs are not added with ``Bot.add_cog``, which cannot
share a group between cogs; the groups are built fresh for each tree, so tests build as
many trees as they like. A handler finds its game from where it was used (see
``bot.discord.context``)."""

from __future__ import annotations

from discord import app_commands
from discord.ext import commands

from bot.discord.commands.gallery import Gallery
from bot.discord.commands.game_admin import GameAdmin
from bot.discord.commands.groups import SHARED, Groups
from bot.discord.commands.history import History
from bot.discord.commands.info import Info
from bot.discord.commands.lineup import Lineup
from bot.discord.commands.lobby import Lobby
from bot.discord.commands.me import Me
from bot.discord.commands.orders import Orders
from bot.discord.commands.phase import Phase
from bot.discord.commands.practice import Practice
from bot.discord.commands.recap import Recap
from bot.discord.commands.seasons import Seasons
from bot.discord.commands.settings import Settings
from bot.discord.commands.standby import Standby
from bot.discord.commands.stats import Stats
from bot.discord.commands.table import Table

# In this order a shared group lists its commands.
FEATURES: tuple[type[commands.Cog], ...] = (Lobby, Gallery, GameAdmin, Lineup, Seasons, History, Phase, Orders, Me, Info, Stats, Recap, Standby, Table, Settings, Practice)


def install(tree: app_commands.CommandTree) -> Groups:
    """Add every command to ``tree``."""
    groups = Groups.build()
    for feature in FEATURES:
        for found in feature().get_app_commands():
            shared = found.extras.get(SHARED)
            if shared is None:
                tree.add_command(found)
            else:
                getattr(groups, shared).add_command(found)
    for g in (groups.game, groups.mod, groups.phase, groups.act):
        tree.add_command(g)
    return groups
