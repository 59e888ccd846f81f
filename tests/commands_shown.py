"""The slash commands as a Discord client shows them, in each of our languages: read from
what the bot registers (discord.py's ``get_translated_payload`` with the bot's own
translator, the payload ``tree.sync()`` sends), so a test sees the names, options and
choices Discord receives, through discord.py's public API alone."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import cache
from typing import Any

import discord
from discord import app_commands

from bot.discord.translator import CatalogueTranslator
from bot.discord.tree import install

Node = app_commands.Command[Any, ..., Any] | app_commands.Group


def tree() -> app_commands.CommandTree:
    client = discord.Client(intents=discord.Intents.none())
    t = app_commands.CommandTree(client)
    install(t)
    return t


def walk(commands: list[Any]) -> Iterator[Node]:
    for c in commands:
        yield c
        if isinstance(c, app_commands.Group):
            yield from walk(c.commands)


def shown(node: dict[str, Any], loc: str, what: str = "name") -> str:
    """A payload node's name (or description) as a client in ``loc`` shows it."""
    return (node.get(f"{what}_localizations") or {}).get(loc, node.get(what, ""))


def payload_size(node: dict[str, Any], loc: str | None = None) -> int:
    """A command's characters as Discord counts them toward its 4,000: its names,
    descriptions, choices' names and values, its options' and subcommands' all together;
    each string as a client in ``loc`` shows it, or (None) its longest localization, as
    Discord measures what is registered."""

    def text(node: dict[str, Any], what: str) -> int:
        if loc is not None:
            return len(shown(node, loc, what))
        return max(len(x) for x in (node.get(what, ""), *(node.get(f"{what}_localizations") or {}).values()))

    size = text(node, "name") + text(node, "description")
    size += sum(text(choice, "name") + len(str(choice["value"])) for choice in node.get("choices") or [])
    return size + sum(payload_size(option, loc) for option in node.get("options") or [])


@cache
def payloads() -> tuple[tuple[Node, dict[str, Any]], ...]:
    """Every command and group of the tree (subcommands too) with its translated payload."""

    async def build() -> tuple[tuple[Node, dict[str, Any]], ...]:
        t, translator = tree(), CatalogueTranslator()
        return tuple([(c, await c.get_translated_payload(t, translator)) for c in walk(t.get_commands())])

    with ThreadPoolExecutor(1) as pool:  # callable from a test whose own loop is running
        return pool.submit(asyncio.run, build()).result()


@dataclass(frozen=True)
class Shown:
    """A command (or group) as a client shows it: its qualified name in the tree, and each
    option's shown name -> (parameter, {shown choice: value})."""

    qualified: str
    options: dict[str, tuple[str, dict[str, str]]]


@cache
def shown_commands(loc: str) -> dict[str, Shown]:
    """"act skill" / "行动 技能" -> the command; groups alone too ("/act")."""
    names = {id(c): shown(p, loc) for c, p in payloads()}
    out: dict[str, Shown] = {}
    for c, payload in payloads():
        chain: list[Node] = [c]
        while chain[0].parent is not None:  # a subcommand group's commands: three names
            chain.insert(0, chain[0].parent)
        path = " ".join(names[id(x)] for x in chain)
        options: dict[str, tuple[str, dict[str, str]]] = {}
        if isinstance(c, app_commands.Command):
            # The payload's options are the command's parameters, in the same order.
            for param, option in zip(c.parameters, payload.get("options", []), strict=True):
                options[shown(option, loc)] = (param.name, {shown(ch, loc): str(ch["value"]) for ch in option.get("choices", [])})
        out[path] = Shown(c.qualified_name, options)
    return out
