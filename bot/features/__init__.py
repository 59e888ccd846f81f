"""The features, a folder each: its use cases (the modules not named ``cog*``,
``components*`` or ``look*``), its slash commands (``cog*``), its buttons and menus
(``components*``) and how it reads (``look*``). The core they share is ``bot.core``; the
bot finds every feature's user interface in its folder (``bot.discord.features``), so no
list names them.

A feature joins a game's steps by registering handlers for their moments
(``bot.core.hooks``) and work for the scheduler's ticks (``bot.core.deadlines``) when
its modules are imported: :func:`load` imports every feature's use cases, once, before
the service is used (the bot at its start, the command line, the tests)."""

from __future__ import annotations

import importlib
import pkgutil

from bot.core import hooks


def service_modules() -> list[str]:
    """Every feature's use-case modules, by name, in a stable order."""
    found = []
    for feature in sorted(m.name for m in pkgutil.iter_modules(__path__) if m.ispkg):
        package = importlib.import_module(f"{__name__}.{feature}")
        found += [
            f"{package.__name__}.{m.name}"
            for m in sorted(pkgutil.iter_modules(package.__path__), key=lambda m: m.name)
            if not m.name.startswith(("cog", "components", "look"))
        ]
    return found


def load() -> None:
    """Import every feature's use cases, so that their handlers and due work are
    registered (by importlib: the features are found by their folders, so a new one needs
    no list to join), then let the moments be published. Idempotent."""
    if hooks.Moment.loaded:
        return
    for name in service_modules():
        importlib.import_module(name)
    hooks.Moment.loaded = True
