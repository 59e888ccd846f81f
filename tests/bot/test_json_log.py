"""``log_format = "json"``: one JSON object a line, with the game, shard and interaction
where there is one (bot/log_context.py), seen at the table as an operator's shipper
would read the bot's log."""

from __future__ import annotations

import asyncio
import io
import json
import logging

import pytest

from bot import log_context
from bot.cli.run import configure_logging
from bot.discord.config import DiscordConfig
from discord_emulator.interactions import MESSAGE_COMPONENT
from tests.bot.conftest import Table, started_game


def lines(stream: io.StringIO) -> list[dict]:
    return [json.loads(line) for line in stream.getvalue().splitlines()]


@pytest.fixture
def json_log():
    """The root logger as ``wolfhowl run`` sets it with log_format "json", writing to a buffer."""
    root = logging.getLogger()
    saved = root.handlers[:], root.level
    configure_logging("INFO", "secret.token.value", "json")
    stream = io.StringIO()
    root.handlers[0].stream = stream  # type: ignore[attr-defined]
    try:
        yield stream
    finally:
        root.handlers[:], _ = saved
        root.setLevel(saved[1])


def test_text_is_the_default():
    assert DiscordConfig().log_format == "text"


def test_one_object_a_line_with_its_fields(json_log):
    log = logging.getLogger("wolfhowl.test")
    log.info("plain %s", "line")
    log.warning("about a game, with\na newline", extra={"game": 12})
    log.info("the token secret.token.value never shows")
    try:
        raise ValueError("boom")
    except ValueError:
        log.exception("it broke")
    first, second, third, fourth = lines(json_log)
    assert first["message"] == "plain line" and first["level"] == "INFO" and first["logger"] == "wolfhowl.test"
    assert first["time"].endswith("Z") and "T" in first["time"]
    assert "game" not in first and "interaction" not in first and "shard" not in first
    assert second["game"] == 12 and second["message"] == "about a game, with\na newline"
    assert "secret.token.value" not in json.dumps(third) and "[token]" in third["message"]
    assert fourth["level"] == "ERROR" and "ValueError: boom" in fourth["exception"]


async def test_a_tasks_context_is_its_own(json_log):
    log = logging.getLogger("wolfhowl.test")

    async def answering(interaction: int) -> None:
        log_context.set_context(interaction=interaction, shard=1)
        await asyncio.sleep(0)
        log.info("answering")

    await asyncio.gather(answering(111), answering(222))
    log.info("outside")
    got = lines(json_log)
    assert sorted(x["interaction"] for x in got[:2]) == [111, 222] and all(x["shard"] == 1 for x in got[:2])
    assert "interaction" not in got[2]


async def test_the_bots_lines_name_their_interaction_and_game(table: Table, json_log):
    """A forged button the bot refuses (logged at INFO while answering it) names the
    interaction; a phase closed at its deadline names the game."""
    forged = table.emu.ctx.interactions.create(
        MESSAGE_COMPONENT, table.players[0], table.channel, {"custom_id": "wh:forged:1", "component_type": 2}, locale="en-US"
    )
    await forged.wait(10)
    refused = [x for x in lines(json_log) if x["message"].startswith("refused a malformed payload")]
    assert len(refused) == 1 and refused[0]["interaction"] == forged.id

    game_id = await started_game(table)
    table.clock.advance(2 * 3600)  # past the Day's deadline

    def closed() -> list[dict]:
        return [x for x in lines(json_log) if "closed at its deadline" in x["message"]]

    for _ in range(200):  # (a bound: the scheduler polls every 0.5 s)
        if closed():
            break
        await asyncio.sleep(0.05)
    assert [x["game"] for x in closed()] == [game_id]
