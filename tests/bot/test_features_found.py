"""The features are found, not listed (bot.discord.features): every feature's cogs, in
the order of their declared positions, every dynamic item of its components, every look
imported; a feature added in its own folder is found the same way, and a cog without a
position, or two with one, are refused."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from discord.ext import commands

from bot.discord.features import FEATURES, discover, in_position_order, ui_modules
from tests.architecture.house import ROOT, is_ui, module_name


def test_every_module_of_the_user_interface_is_imported() -> None:
    on_disk = {module_name(p) for p in sorted((ROOT / "bot" / "features").rglob("*.py")) if is_ui(p)}
    assert set(discover().modules) == on_disk
    assert set(ui_modules()) == on_disk


def test_the_cogs_keep_their_order_and_every_item_is_registered() -> None:
    found = discover()
    assert [c.__name__ for c in found.cogs] == [
        "Lobby", "Gallery", "GameAdmin", "Lineup", "Seasons", "History", "Phase", "Orders",
        "Me", "Info", "Stats", "Recap", "Standby", "Table", "Settings", "Practice",
    ]  # fmt: skip
    items = [m for name in found.modules if name.rpartition(".")[2].startswith("components") for m in sys.modules[name].ITEMS]
    assert list(found.items) == items and len(set(items)) == len(items)


def test_a_feature_in_its_own_folder_is_found(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A new feature is a folder: its cog (at its position among the others), its
    components' items and its look (imported, so what it registers is registered)."""
    files = {
        "tavern_x/__init__.py": '"""Features."""',
        "tavern_x/dice/__init__.py": '"""A feature."""',
        "tavern_x/dice/dice.py": '"""Its use case: never imported by the discovery."""\nraise RuntimeError("imported")',
        "tavern_x/dice/cog.py": (
            "from discord.ext import commands\n"
            "class Dice(commands.Cog):\n    position = 20\n"
            "class Also(commands.Cog):\n    position = 5\n"
        ),
        "tavern_x/dice/components.py": "ITEMS = ['a dynamic item']\n",
        "tavern_x/dice/look_roll.py": "LOOKED = []\nLOOKED.append('registered')\n",
        "tavern_x/cards/__init__.py": '"""Another."""',
        "tavern_x/cards/cog_deal.py": "from discord.ext import commands\nclass Deal(commands.Cog):\n    position = 10\n",
    }
    for rel, text in files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    found = discover("tavern_x")
    assert [c.__name__ for c in found.cogs] == ["Also", "Deal", "Dice"]
    assert found.items == ("a dynamic item",)
    assert found.modules == ("tavern_x.cards.cog_deal", "tavern_x.dice.cog", "tavern_x.dice.components", "tavern_x.dice.look_roll")
    assert sys.modules["tavern_x.dice.look_roll"].LOOKED == ["registered"]
    assert "tavern_x.dice.dice" not in sys.modules
    assert FEATURES == "bot.features"


def test_a_cog_says_where_it_stands() -> None:
    class Nowhere(commands.Cog):
        pass

    class First(commands.Cog):
        position = 1

    class AlsoFirst(commands.Cog):
        position = 1

    with pytest.raises(ValueError, match=r"without a position.*Nowhere"):
        in_position_order([First, Nowhere])
    with pytest.raises(ValueError, match="sharing a position"):
        in_position_order([First, AlsoFirst])
