"""The slash commands as Discord receives them (names, options, choices, default
permissions, contexts and every localization) match the recorded payload, so moving
code around cannot change what is registered.

After a deliberate change to the commands, record the payload again with
``python -m tests.bot.test_command_payload`` and review the diff."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import discord
from discord import app_commands

from bot.discord.commands.tree import install
from bot.discord.translator import CatalogueTranslator

RECORDED = Path(__file__).resolve().parents[1] / "fixtures" / "commands" / "payload.json"


async def payload() -> list[dict[str, Any]]:
    """What ``tree.sync()`` sends: each top-level command's translated payload."""
    client = discord.Client(intents=discord.Intents.none())
    tree = app_commands.CommandTree(client)
    install(tree)
    translator = CatalogueTranslator()
    out = [await c.get_translated_payload(tree, translator) for c in tree.get_commands()]
    return sorted(out, key=lambda c: c["name"])


def as_text(data: list[dict[str, Any]]) -> str:
    return json.dumps(data, ensure_ascii=False, indent=1, sort_keys=True) + "\n"


async def test_the_registered_commands_match_the_recorded_payload() -> None:
    assert as_text(await payload()) == RECORDED.read_text(encoding="utf-8")


if __name__ == "__main__":
    RECORDED.write_text(as_text(asyncio.run(payload())), encoding="utf-8")
