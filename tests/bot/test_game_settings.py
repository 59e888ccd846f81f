"""The game settings are declared once: a ``GameSettings`` field is an option of ``/mod
settings`` (as ``bot.features.moderation.cog_settings`` declares it or its type makes it), and of
``/mod create`` too only when declared for it, is read into its field, and has its line
in the settings embed."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import discord
import pytest
from discord import app_commands

from bot.core.types import GameSettings
from bot.discord.errors import ReplyError
from bot.discord.tree import install
from bot.features.moderation import cog_settings as game_settings
from bot.features.moderation.cog_settings import overrides
from bot.i18n import LOCALES
from bot.i18n.catalog import catalogue

ROOT = Path(__file__).resolve().parents[2]


def command(tree: app_commands.CommandTree, path: str) -> app_commands.Command:
    group, name = path.split()
    found = next(c for c in tree.get_commands() if c.name == group)
    assert isinstance(found, app_commands.Group)
    sub = next(c for c in found.commands if c.name == name)
    assert isinstance(sub, app_commands.Command)
    return sub


def tree() -> app_commands.CommandTree:
    built = app_commands.CommandTree(discord.Client(intents=discord.Intents.none()))
    install(built)
    return built


ADD_A_SETTING = """
import dataclasses, json, os
from pydantic import Field, create_model
import bot.core.types as types

# A new setting, added before the commands are built as a change would add it: a field of
# GameSettings (here a subclass put in its place) and its words in every catalogue.
# Nothing else: no declaration, no command, no embed code.
types.GameSettings = create_model("GameSettings", __base__=types.GameSettings,
                                  tip_seconds=(int, Field(default=0, ge=0, le=3600)))

from bot.i18n import LOCALES
from bot.i18n.catalog import catalogue
for loc in LOCALES:
    catalogue(loc).update({"cmd.name.tip": "tip", "cmd.param.tip": "How long the tip shows",
                           "reply.settings.tip": "Tip shown for: {value}"})

from bot.features.moderation import cog_settings as game_settings
if os.environ.get("TIP_ON_CREATE"):  # or declared, to be offered on /mod create as well
    tip = next(i for i, s in enumerate(game_settings.SETTINGS) if s.name == "tip")
    game_settings.SETTINGS[tip] = dataclasses.replace(game_settings.SETTINGS[tip], create=True)
from bot.features.moderation.cog_settings import overrides
from bot.features.moderation.look_settings import settings_embed
from bot.core.types import GameInfo
from tests.bot.test_game_settings import command, tree

built = tree()
info = GameInfo(id=7, guild_id=1, channel_id=2, moderator_id=3, status="lobby", round=0, phase=None, deadline=None,
                paused_remaining=None, version=1, seed_sha256="0" * 64, settings=types.GameSettings(tip_seconds=300), players=())
print(json.dumps({
    "options": {path: [p.name for p in command(built, path).parameters] for path in ("mod create", "mod settings")},
    "read": overrides(tip="5m"),
    "embed": settings_embed(info, "en-US").description,
    "keys": sorted(game_settings.catalogue_keys()),
}))
"""


def added_setting(on_create: bool = False) -> dict:
    """What the commands, the reading and the embed make of a field ``tip_seconds`` added
    to the settings (``on_create``: its derived declaration marked for /mod create)."""
    env = {**os.environ, "TIP_ON_CREATE": "1" if on_create else ""}
    done = subprocess.run([sys.executable, "-c", ADD_A_SETTING], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_a_field_added_to_the_settings_is_an_option_of_mod_settings_and_a_line_of_the_embed() -> None:
    """Adding a setting touches three files: the ``GameSettings`` field and the two
    catalogues. The commands are built when their module is imported, so the field is
    added in a fresh interpreter before that. It lands on /mod settings only: /mod create
    keeps its few options (and /mod its room under Discord's 4,000 characters)."""
    seen = added_setting()
    assert seen["options"]["mod settings"][-1] == "tip"
    assert seen["options"]["mod create"] == [s.name for s in game_settings.options(game_settings.CREATE)]
    assert seen["read"] == {"tip_seconds": 300}
    assert "Tip shown for: 5m" in seen["embed"].splitlines()
    assert {"cmd.name.tip", "cmd.param.tip", "reply.settings.tip"} <= set(seen["keys"])


def test_a_setting_declared_for_create_is_an_option_of_both() -> None:
    seen = added_setting(on_create=True)
    for path, names in seen["options"].items():
        assert names[-1] == "tip", path
    assert seen["options"]["mod create"] == [*(s.name for s in game_settings.options(game_settings.CREATE)), "tip"]


def test_a_setting_is_derived_from_its_fields_type() -> None:
    """What a field's type makes: a length, yes or no, a choice, a whole number."""
    assert isinstance(game_settings.derived("offer_seconds"), game_settings.Duration)
    assert (game_settings.derived("offer_seconds").low, game_settings.derived("offer_seconds").high) == (60, 86400)
    assert isinstance(game_settings.derived("early_advance"), game_settings.Flag)
    assert game_settings.derived("departures").values() == ("dawn", "morning")
    assert isinstance(game_settings.derived("win_score"), game_settings.Number)
    offered = {s.field for s in game_settings.SETTINGS}
    assert offered | game_settings.NOT_OFFERED >= set(GameSettings.model_fields)


def test_create_offers_the_opening_settings_and_mod_settings_every_one_in_the_declared_order() -> None:
    built = tree()
    every = [s.name for s in game_settings.options()]
    assert [p.name for p in command(built, "mod settings").parameters] == every
    opening = [p.name for p in command(built, "mod create").parameters]
    assert opening == ["max_players", "day", "dusk", "morning", "language", "start_in"]
    assert opening == [name for name in every if name in opening]  # a few of settings', in its order
    house = [p.name for p in command(built, "mod house_rules").parameters]
    assert house == ["killing_blow", "departures", "vote_damage", "uneven_tables"]
    assert not set(house) & set(every)


def test_options_go_to_the_command_that_takes_them() -> None:
    """What a moderator opens a lobby with (the sandbox's moderator, the tests' tables):
    /mod create's own, then the rest in the lobby."""
    chosen = {"day": "2h", "reminder": "off", "language": "zh-CN", "departures": "morning", "ai_seats": 2}
    assert game_settings.by_command(chosen) == {
        "create": {"day": "2h", "language": "zh-CN"},
        "settings": {"reminder": "off", "ai_seats": 2},
        "house_rules": {"departures": "morning"},
    }
    assert game_settings.by_command({"max_players": 8}) == {"create": {"max_players": 8}}
    with pytest.raises(ValueError, match="no setting tipp"):
        game_settings.by_command({"tipp": "5m"})


def test_ranges_and_choices_come_from_the_settings_fields() -> None:
    params = {p.name: p for p in command(tree(), "mod settings").parameters}
    assert (params["max_players"].min_value, params["max_players"].max_value) == (6, 15)
    assert (params["win_score"].min_value, params["win_score"].max_value) == (1, 100)
    assert [c.value for c in params["vote_tie"].choices] == ["roll", "nobody", "all"]
    assert [c.value for c in params["language"].choices] == ["en-US", "zh-CN", "zh-TW"]


def test_what_is_typed_is_read_into_the_fields() -> None:
    tie = app_commands.Choice(name="x", value="nobody")
    assert overrides(day="2h", reminder="off", vote_tie=tie, win_score=20, quiet_dead=True, start_in="1d") == {
        "day_seconds": 7200,
        "reminder_lead_seconds": 0,
        "vote_tie_rule": "nobody",
        "win_score": 20,
    }
    with pytest.raises(ReplyError) as caught:
        overrides(reminder="soon")
    assert caught.value.key == "reply.error.reminder"
    assert game_settings.option_value("start_in", "off") == 0
    assert game_settings.option_value("start_in", None) is None


@pytest.mark.parametrize("loc", LOCALES)
def test_every_key_the_settings_use_is_in_the_catalogue(loc: str) -> None:
    keys = game_settings.catalogue_keys()
    assert {"cmd.name.max_players", "cmd.choice.tie_roll", "reply.settings.reveal", "lobby_start.error"} <= keys
    assert sorted(keys - catalogue(loc).keys()) == []
