"""The features the bot is made of, found rather than listed: every package of
``bot/features`` is a feature, and its user interface is its modules named ``cog*``
(slash commands: the ``commands.Cog`` classes defined there), ``components*`` (buttons,
menus, forms: the dynamic items in its ``ITEMS``, and the controls it adds to outbox
messages) and ``look*`` (how it reads: the renderers it registers for its messages).
Adding a feature touches its folder and the catalogues only.

A shared group (``/game``, ``/mod``, ``/phase``, ``/act``) lists its commands in the order
of their cogs' ``position`` (a class attribute each cog declares: a number, unique, with
room between), so where a new feature's commands appear is said in its own cog."""

from __future__ import annotations

import importlib
import pkgutil
from dataclasses import dataclass
from functools import cache
from types import ModuleType
from typing import Any

import discord
from discord.ext import commands

FEATURES = "bot.features"
UI_PREFIXES = ("cog", "components", "look")


@dataclass(frozen=True)
class Features:
    """What the features bring to the bot: their cogs (in their ``position`` order), their
    dynamic items (feature by feature, in the order of their names), and the modules of
    their user interface, imported (so their renderers and controls are registered)."""

    cogs: tuple[type[commands.Cog], ...]
    items: tuple[type[discord.ui.DynamicItem[Any]], ...]
    modules: tuple[str, ...]


def ui_modules(package: str = FEATURES) -> list[str]:
    """The names of every feature's ``cog*``, ``components*`` and ``look*`` modules, feature
    by feature and module by module in the order of their names."""
    root = importlib.import_module(package)
    found = []
    for feature in sorted(pkgutil.iter_modules(root.__path__), key=lambda m: m.name):
        if not feature.ispkg:
            continue
        inner = importlib.import_module(f"{package}.{feature.name}")
        found += [
            f"{package}.{feature.name}.{m.name}"
            for m in sorted(pkgutil.iter_modules(inner.__path__), key=lambda m: m.name)
            if not m.ispkg and m.name.startswith(UI_PREFIXES)
        ]
    return found


def cogs_of(module: ModuleType) -> list[type[commands.Cog]]:
    """The ``commands.Cog`` classes ``module`` defines (not those it imports)."""
    return [
        value
        for value in vars(module).values()
        if isinstance(value, type) and issubclass(value, commands.Cog) and value.__module__ == module.__name__
    ]


def in_position_order(cogs: list[type[commands.Cog]]) -> tuple[type[commands.Cog], ...]:
    """``cogs`` by their ``position``; ValueError naming a cog that declares none, or two
    that declare the same."""
    positions = {c: getattr(c, "position", None) for c in cogs}
    missing = [c.__qualname__ for c, p in positions.items() if not isinstance(p, int)]
    if missing:
        raise ValueError(f"cogs without a position (a class attribute: where a shared group lists their commands): {', '.join(missing)}")
    by_position: dict[int, list[str]] = {}
    for c, p in positions.items():
        by_position.setdefault(int(p), []).append(c.__qualname__)  # type: ignore[arg-type]
    twice = {p: names for p, names in by_position.items() if len(names) > 1}
    if twice:
        raise ValueError(f"cogs sharing a position: {twice}")
    return tuple(sorted(cogs, key=lambda c: int(positions[c])))  # type: ignore[arg-type]


@cache
def discover(package: str = FEATURES) -> Features:
    """Import every feature's user interface and gather its cogs and dynamic items.

    The modules are imported with ``importlib`` here, not by import statements at the top:
    they are found by name in the folders (so that no list names every feature), and the
    features' cogs and components import the Discord layer's core, which imports this
    module (the command tree, the client). Cached: the modules are imported once, and
    every caller gets the same answer."""
    modules = [importlib.import_module(name) for name in ui_modules(package)]
    cogs = in_position_order([c for m in modules if m.__name__.rpartition(".")[2].startswith("cog") for c in cogs_of(m)])
    items: list[type[discord.ui.DynamicItem[Any]]] = []
    for m in modules:
        if m.__name__.rpartition(".")[2].startswith("components"):
            items += getattr(m, "ITEMS", ())
    return Features(cogs=cogs, items=tuple(items), modules=tuple(m.__name__ for m in modules))
