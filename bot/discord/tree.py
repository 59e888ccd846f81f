"""Every command on one tree: :func:`install` puts each cog's commands there, a command
of a shared group (``/game``, ``/mod``, ``/phase``, ``/act``; ``groups``) into that group,
the rest at the top level. The cogs are not added with ``Bot.add_cog``, which cannot
share a group between cogs; the groups are built fresh for each tree, so tests build as
many trees as they like. A handler finds its game from where it was used (see
``bot.discord.context``)."""

from __future__ import annotations

from discord import app_commands
from discord.ext import commands

from bot.discord.groups import SHARED, Groups
from bot.features.gallery.cog import Gallery
from bot.features.help.cog import Info
from bot.features.history.cog import History
from bot.features.lineup.cog import Lineup
from bot.features.lobby.cog import Lobby
from bot.features.me.cog import Me
from bot.features.moderation.cog import GameAdmin
from bot.features.moderation.cog_phase import Phase
from bot.features.play.cog import Orders
from bot.features.practice.cog import Practice
from bot.features.recap.cog import Recap
from bot.features.seasons.cog import Seasons
from bot.features.settings.cog import Settings
from bot.features.standbys.cog import Standby
from bot.features.stats.cog import Stats
from bot.features.table_view.cog import Table

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
