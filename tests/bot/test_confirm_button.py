"""The one confirmation button of ``/mod end`` carries the command it confirms, on the
custom ids the two buttons it replaced had: a button posted before still works."""

from __future__ import annotations

import pytest

from bot.discord.features import discover
from bot.features.moderation.commands import CancelGame, EndGame
from bot.features.moderation.components import ConfirmButton


@pytest.mark.parametrize(("custom_id", "command"), [("wh:end:7", EndGame(game_id=7)), ("wh:cancel:7", CancelGame(game_id=7))])
async def test_an_old_custom_id_reads_back_as_its_command(custom_id: str, command: EndGame | CancelGame) -> None:
    assert ConfirmButton(command).item.custom_id == custom_id
    match = ConfirmButton.__discord_ui_compiled_template__.fullmatch(custom_id)  # type: ignore[attr-defined]
    assert match is not None
    assert (await ConfirmButton.from_custom_id(None, None, match)).command == command  # type: ignore[arg-type]
    assert ConfirmButton.__discord_ui_compiled_template__.fullmatch(custom_id.replace(":7", ":x")) is None  # type: ignore[attr-defined]


def test_the_button_is_registered_once_for_both_ids() -> None:
    claiming = [item for item in discover().items if item.__discord_ui_compiled_template__.fullmatch("wh:cancel:3")]  # type: ignore[attr-defined]
    assert claiming == [ConfirmButton]
    assert ConfirmButton(CancelGame(game_id=3), "zh-CN").item.label != ConfirmButton(EndGame(game_id=3), "zh-CN").item.label
