"""``log_format = "json"``: one JSON object a line, with the game, shard and interaction
where there is one (bot/log_context.py), seen at the table as an operator's shipper
would read the bot's log."""

from __future__ import annotations

import asyncio
import contextlib
import io
import json
import logging
from types import SimpleNamespace

import pytest
from sqlalchemy import func, select, update

from bot import log_context
from bot.cli.run import configure_logging
from bot.core import deadlines
from bot.core.dispatch import Dispatcher, MemorySender
from bot.core.types import GameSettings, UserRef
from bot.db.models import OutboxMessage
from bot.discord.client import WolfBot
from bot.discord.config import DiscordConfig
from bot.discord.shards import event_shard
from bot.features.lobby.games import create_game
from bot.features.moderation import moderation
from discord_emulator import Emulator
from discord_emulator.interactions import MESSAGE_COMPONENT
from discord_emulator.ready import start_until_ready
from tests.bot.conftest import Table, started_game
from tests.service.helpers import started


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


async def test_a_message_without_a_game_after_one_with_a_game_names_none(db, json_log):
    """The dispatcher names each message's game for the lines of its delivery: a message
    of no game, delivered after one of a game by the same task, names none."""
    game_id = await started(db, 6)
    async with db.transaction() as s:
        last = await s.scalar(select(func.max(OutboxMessage.id)).where(OutboxMessage.status == "pending"))
        await s.execute(update(OutboxMessage).where(OutboxMessage.id == last).values(game_id=None))
    log = logging.getLogger("wolfhowl.test.sender")

    class Logging(MemorySender):
        async def send(self, message):
            log.info("sending %s", message.key)
            return await super().send(message)

    await Dispatcher(db, Logging(), concurrency=1).drain()
    sent = [x for x in lines(json_log) if x["message"].startswith("sending")]
    assert len(sent) > 2
    assert [x.get("game") for x in sent] == [game_id] * (len(sent) - 1) + [None]
    assert log_context.context() == {}  # nothing of a delivery outlives it


async def test_a_failing_scheduled_job_names_its_game(table: Table, json_log, monkeypatch):
    """A game whose advance at its deadline raises: the traceback's line names it."""
    game_id = await started_game(table)

    async def broken(db, game):
        raise RuntimeError("the advance broke")

    monkeypatch.setattr(deadlines, "advance_if_due", broken)
    table.clock.advance(2 * 3600)  # past the Day's deadline

    def failed() -> list[dict]:
        return [x for x in lines(json_log) if x["message"] == f"advancing game {game_id} failed"]

    for _ in range(200):  # (a bound: the scheduler polls every 0.5 s)
        if failed():
            break
        await asyncio.sleep(0.05)
    assert failed() and all(x["game"] == game_id and "RuntimeError: the advance broke" in x["exception"] for x in failed())
    # The scheduler's own lines after it name no game.
    assert not [x for x in lines(json_log) if x["logger"] == "wolfhowl.discord.scheduler" and "game" in x and str(game_id) not in x["message"]]


async def test_an_interactions_error_line_names_its_game(table: Table, json_log, monkeypatch):
    """A command that breaks inside the service: "unexpected error" names the
    interaction and the game the service took in hand for it."""
    game_id = await started_game(table)

    def broken(*args, **kwargs):
        raise RuntimeError("pausing broke")

    monkeypatch.setattr(moderation, "require_running", broken)
    result = await table.run(table.mod, "phase pause")
    errors = [x for x in lines(json_log) if x["message"].startswith("unexpected error")]
    assert len(errors) == 1 and errors[0]["game"] == game_id and errors[0]["interaction"] == result.id
    assert "RuntimeError: pausing broke" in errors[0]["exception"]


def test_an_events_shard_is_read_from_the_event() -> None:
    """Discord's rule and discord.py's public events: a shard event's own, a server's
    by its id, none for what names neither."""
    assert event_shard("shard_resumed", (2,), 4) == event_shard("shard_connect", (2,), 4) == 2
    assert event_shard("raw_message_delete", (SimpleNamespace(guild_id=(7 << 22) + 5),), 4) == 3
    assert event_shard("socket_event_type", ("READY",), 4) is None
    assert event_shard("connect", (), 4) is event_shard("ready", (), 4) is None


async def test_a_sharded_process_names_the_shard(sqlite_url: str, json_log):
    """Shards 1 and 3 of 4 in one process: what comes through a shard's gateway (a
    forged button, a lobby's channel deleted) names that shard; the process's own
    "connected" line names none."""
    async with Emulator(heartbeat_interval=0.5) as emu:
        with emu.patch_discord():
            owner = emu.create_user("owner")
            on_1 = emu.create_guild("on shard 1", owner=owner, shard=(1, 4), channels=("tavern",))
            on_3 = emu.create_guild("on shard 3", owner=owner, shard=(3, 4), channels=("tavern",))
            config = DiscordConfig(database_url=sqlite_url, token=emu.token, shard_count=4, shard_ids=[1, 3], sync_commands=False)
            bot = WolfBot(config, run_tasks=False)
            task = await start_until_ready(bot, emu.token, timeout=15)
            try:
                channel_3 = next(c for c in on_3.channels.values() if c.name == "tavern")
                channel_1 = next(c for c in on_1.channels.values() if c.name == "tavern")
                forged = emu.ctx.interactions.create(MESSAGE_COMPONENT, owner, channel_1, {"custom_id": "wh:forged:1", "component_type": 2}, locale="en-US")
                await forged.wait(10)
                info = await create_game(bot.db, guild_id=on_3.id, channel_id=channel_3.id, moderator=UserRef(owner.id, "owner"), settings=GameSettings.build(), seed="shard-seed")
                emu.delete_channel(channel_3)

                def cancelled() -> list[dict]:
                    return [x for x in lines(json_log) if x["message"].startswith(f"game {info.id} cancelled")]

                await emu.wait_for(lambda: bool(cancelled()), 10, "the lobby cancelled")
                refused = [x for x in lines(json_log) if x["message"].startswith("refused a malformed payload")]
                assert [(x["shard"], x["interaction"]) for x in refused] == [(1, forged.id)]
                assert [(x["shard"], x["game"]) for x in cancelled()] == [(3, info.id)]
                connected = [x for x in lines(json_log) if x["message"].startswith("connected as")]
                assert connected and all("shard" not in x for x in connected)
            finally:
                await bot.close()
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(task, 5)
            assert emu.server_errors == []


async def test_a_sharded_process_names_the_shard_of_a_replayed_event_and_of_a_dm(sqlite_url: str, json_log):
    """Shards 0 and 3 of 4 in one process, the shard known from each event itself: a
    lobby's channel deleted while the connections were down comes replayed on the
    resumed connection, before its RESUMED, and its cancellation names shard 3; a button
    pressed in a DM, which Discord sends through shard 0, names shard 0; a server's
    interaction on shard 3 names 3."""
    async with Emulator(heartbeat_interval=0.5) as emu:
        with emu.patch_discord():
            owner = emu.create_user("owner")
            on_3 = emu.create_guild("on shard 3", owner=owner, shard=(3, 4), channels=("tavern", "lounge"))
            config = DiscordConfig(database_url=sqlite_url, token=emu.token, shard_count=4, shard_ids=[0, 3], sync_commands=False)
            bot = WolfBot(config, run_tasks=False)
            task = await start_until_ready(bot, emu.token, timeout=15)
            try:
                tavern, lounge = (next(c for c in on_3.channels.values() if c.name == name) for name in ("tavern", "lounge"))
                info = await create_game(bot.db, guild_id=on_3.id, channel_id=tavern.id, moderator=UserRef(owner.id, "owner"), settings=GameSettings.build(), seed="shard-seed")
                assert await emu.drop_connection() == 2  # both shards' sockets; the sessions wait to resume
                emu.delete_channel(tavern)  # buffered, replayed when shard 3 resumes
                await emu.wait_for_resume(2, timeout=20)
                assert sorted(c.replayed for c in emu.connections if c.resumed) == [0, 1]  # the deletion, on shard 3's

                def cancelled() -> list[dict]:
                    return [x for x in lines(json_log) if x["message"].startswith(f"game {info.id} cancelled")]

                await emu.wait_for(lambda: bool(cancelled()), 10, "the lobby cancelled")
                assert [(x["shard"], x["game"]) for x in cancelled()] == [(3, info.id)]
                in_dm = emu.ctx.interactions.create(MESSAGE_COMPONENT, owner, emu.dm_channel(owner), {"custom_id": "wh:forged:1", "component_type": 2}, locale="en-US")
                in_server = emu.ctx.interactions.create(MESSAGE_COMPONENT, owner, lounge, {"custom_id": "wh:forged:2", "component_type": 2}, locale="en-US")
                await in_dm.wait(10)
                await in_server.wait(10)
                refused = {x["interaction"]: x["shard"] for x in lines(json_log) if x["message"].startswith("refused a malformed payload")}
                assert refused == {in_dm.id: 0, in_server.id: 3}
            finally:
                await bot.close()
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(task, 5)
            assert emu.server_errors == []
