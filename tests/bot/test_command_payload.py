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
import pytest
from discord import app_commands

from bot.discord.translator import CatalogueTranslator
from bot.discord.tree import install
from discord_emulator.commands import CommandStore
from discord_emulator.errors import ApiError
from discord_emulator.state import SnowflakeFactory

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


# What a person who installed the app to their own account may use anywhere (Discord
# sets installs and contexts per top-level command: /stats view brings /stats with it).
ANYWHERE = {"help", "practice", "rules", "stats"}


def test_the_recorded_payload_is_valid_as_discord_validates_it() -> None:
    """Names, lengths, localizations, option order and counts, 4,000 characters a
    command, installs and contexts: the emulator's Discord accepts the payload whole."""
    commands = json.loads(RECORDED.read_text(encoding="utf-8"))
    stored = CommandStore(1, SnowflakeFactory()).bulk_overwrite(None, commands)
    assert sorted(c["name"] for c in stored) == sorted(c["name"] for c in commands)


def test_only_the_personal_commands_can_be_installed_to_an_account() -> None:
    commands = {c["name"]: c for c in json.loads(RECORDED.read_text(encoding="utf-8"))}
    assert commands.keys() >= ANYWHERE
    for name, command in commands.items():
        if name in ANYWHERE:
            assert (command["integration_types"], command["contexts"]) == ([0, 1], [0, 1, 2]), name
        else:
            assert (command["integration_types"], command["contexts"]) == ([0], [0, 1]), name


def test_a_payload_past_discords_limits_is_refused() -> None:
    commands = json.loads(RECORDED.read_text(encoding="utf-8"))
    bad = [{**commands[0], "contexts": [0, 3]}, *commands[1:]]
    with pytest.raises(ApiError) as refused:
        CommandStore(1, SnowflakeFactory()).bulk_overwrite(None, bad)
    assert refused.value.code == 50035 and "contexts" in json.dumps(refused.value.errors)
    long = [{**commands[0], "description": "x" * 101}, *commands[1:]]
    with pytest.raises(ApiError):
        CommandStore(1, SnowflakeFactory()).bulk_overwrite(None, long)


if __name__ == "__main__":
    RECORDED.write_text(as_text(asyncio.run(payload())), encoding="utf-8")
