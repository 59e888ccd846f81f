"""The slash commands, one module per concern, all added to one tree by :func:`install`.

Command groups are built fresh for each tree (no module-level command objects), so tests
can build as many trees as they like. Every command is usable in servers and in DMs
with the bot; a handler finds its game from where it was used (see ``context``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from discord import app_commands

from bot.discord.translator import L

CONTEXTS = app_commands.AppCommandContext(guild=True, dm_channel=True, private_channel=False)
INSTALLS = app_commands.AppInstallationType(guild=True, user=False)


@dataclass(frozen=True, slots=True)
class Groups:
    game: app_commands.Group
    phase: app_commands.Group
    act: app_commands.Group


def group(name: str) -> app_commands.Group:
    return app_commands.Group(
        name=L(f"cmd.name.{name}"),
        description=L(f"cmd.desc.{name}"),
        allowed_contexts=CONTEXTS,
        allowed_installs=INSTALLS,
    )


def top_level(name: str) -> Any:
    """Decorator: a top-level command usable in servers and in DMs with the bot."""

    def wrap(func: Any) -> app_commands.Command[Any, ..., Any]:
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
    from bot.discord.cogs import game_admin, info, lobby, me, orders, phase, stats

    groups = Groups(game=group("game"), phase=group("phase"), act=group("act"))
    for module in (lobby, game_admin, phase, orders, me, info, stats):
        module.install(tree, groups)
    for g in (groups.game, groups.phase, groups.act):
        tree.add_command(g)
    return groups
