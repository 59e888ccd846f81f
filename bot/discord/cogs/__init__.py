"""The slash commands: one ``commands.Cog`` class per feature, each command parsing its
options, calling one service function and rendering the answer.

:func:`install` puts every cog's commands on a tree: a command of a shared group
(``/game``, ``/mod``, ``/phase``, ``/act``; ``groups``) into that group, the rest at
the top level. The cogs are not added with ``Bot.add_cog``, which cannot share a group
between cogs; the groups are built fresh for each tree, so tests build as many trees as
they like. A handler finds its game from where it was used (see ``context``).

The moderators' commands live in ``/mod`` (a game opened, set, seated, ended) and
``/phase`` (its clock: advance, extend, pause, resume), both registered with
``default_member_permissions`` = Manage Server: Discord itself lists them only to members
with that permission (or to those a server admin lets see them in Server Settings →
Integrations). Discord applies no member permissions in DMs, and an admin may open a
group to anyone, so every handler still checks the moderator at run time (``checks``).
"""

from __future__ import annotations

from discord import app_commands
from discord.ext import commands

from bot.discord.cogs.game_admin import GameAdmin
from bot.discord.cogs.groups import SHARED, Groups
from bot.discord.cogs.history import History
from bot.discord.cogs.info import Info
from bot.discord.cogs.lineup import Lineup
from bot.discord.cogs.lobby import Lobby
from bot.discord.cogs.me import Me
from bot.discord.cogs.orders import Orders
from bot.discord.cogs.phase import Phase
from bot.discord.cogs.recap import Recap
from bot.discord.cogs.standby import Standby
from bot.discord.cogs.stats import Stats
from bot.discord.cogs.table import Table

# In this order a shared group lists its commands.
FEATURES: tuple[type[commands.Cog], ...] = (Lobby, GameAdmin, Lineup, History, Phase, Orders, Me, Info, Stats, Recap, Standby, Table)


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
