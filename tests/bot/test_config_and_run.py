"""``wolfhowl run``'s settings: config.example.toml documents every key, the environment
overrides the file, and the token never shows."""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import signal
import tomllib
from pathlib import Path

import discord
import pytest

from bot.cli.run import RedactToken, add_arguments, run
from bot.discord.client import intents
from bot.discord.config import DiscordConfig

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "config.example.toml"


def test_the_example_documents_every_key_and_loads(monkeypatch):
    keys = set(tomllib.loads(EXAMPLE.read_text(encoding="utf-8")))
    assert keys == set(DiscordConfig.model_fields), set(DiscordConfig.model_fields) ^ keys
    monkeypatch.setenv("WOLFHOWL_CONFIG", str(EXAMPLE))
    config = DiscordConfig()
    assert config.quiet_dead is True and config.command_guild_ids == []


def test_environment_overrides_the_file_and_the_token_is_hidden(tmp_path, monkeypatch):
    path = tmp_path / "config.toml"
    path.write_text('token = "from-file"\nmoderator_role = "GM"\nquiet_dead = true\n')
    monkeypatch.setenv("WOLFHOWL_CONFIG", str(path))
    monkeypatch.setenv("WOLFHOWL_TOKEN", "from-env-token")
    monkeypatch.setenv("WOLFHOWL_QUIET_DEAD", "false")
    monkeypatch.setenv("WOLFHOWL_COMMAND_GUILD_IDS", "[1, 2]")
    config = DiscordConfig()
    assert (config.token, config.moderator_role, config.quiet_dead, config.command_guild_ids) == ("from-env-token", "GM", False, [1, 2])
    assert "from-env-token" not in repr(config) and "from-env-token" not in str(config)


def test_no_privileged_intents():
    wanted = intents()
    assert not wanted.message_content and not wanted.members and not wanted.presences
    assert wanted.guilds and wanted.dm_messages
    privileged = discord.Intents(members=True, presences=True, message_content=True)
    assert wanted.value & privileged.value == 0
    # nor the events it never reads (each one is work for its shard's process)
    assert not (wanted.typing or wanted.reactions or wanted.voice_states or wanted.invites or wanted.emojis_and_stickers)


def test_no_token_is_a_clear_error(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("WOLFHOWL_TOKEN", raising=False)
    monkeypatch.delenv("WOLFHOWL_CONFIG", raising=False)
    parser = argparse.ArgumentParser()
    add_arguments(parser)
    assert run(parser.parse_args(["--no-migrate"])) == 2
    assert "WOLFHOWL_TOKEN" in capsys.readouterr().err


def test_the_token_is_redacted_from_any_log_line():
    record = logging.LogRecord("x", logging.INFO, __file__, 1, "connecting with %s", ("abc.def.ghi",), None)
    assert RedactToken("abc.def.ghi").filter(record) and record.getMessage() == "connecting with [token]"


@pytest.mark.parametrize("name", ["Dockerfile", ".dockerignore", "docs/deploy.md"])
def test_deployment_files_exist(name):
    text = (ROOT / name).read_text(encoding="utf-8")
    if name == "Dockerfile":
        assert "USER wolfhowl" in text and 'CMD ["wolfhowl", "run"]' in text and "slim" in text
        assert 'HEALTHCHECK' in text and 'CMD ["wolfhowl", "health"]' in text
        assert "WOLFHOWL_DATABASE_URL=sqlite+aiosqlite:////app/var/wolfhowl.sqlite3" in text  # absolute, on the volume
    if name == ".dockerignore":
        assert "config.toml" in text and ".venv" in text
    if name == "docs/deploy.md":
        assert "applications.commands" in text and "permissions=309506198608" in text
        assert discord.Permissions(309506198608).manage_roles and discord.Permissions(117760).embed_links


async def test_a_stop_during_the_start_up_migrations_connects_no_further(tmp_path, monkeypatch):
    """SIGTERM while the database migrates (setup_hook): the migration finishes (it is one
    transaction per step), then the bot neither registers commands nor connects."""
    import bot.db.migrate
    from bot.discord.client import WolfBot
    from discord_emulator import Emulator

    async with Emulator(heartbeat_interval=1.0) as emu:
        with emu.patch_discord():
            config = DiscordConfig(
                token=emu.token, database_url=f"sqlite+aiosqlite:///{tmp_path / 'bot.sqlite3'}", migrate_on_start=True
            )
            client = WolfBot(config)
            real_upgrade = bot.db.migrate.upgrade

            async def upgrade_then_stopped(url):
                moved = await real_upgrade(url)
                await client.close()  # what the SIGTERM handler does meanwhile
                return moved

            monkeypatch.setattr(bot.db.migrate, "upgrade", upgrade_then_stopped)
            await client.start(emu.token)  # returns: nothing left to do
            assert client.is_closed()
            assert emu.registered_commands() == [] and not any(c.identified for c in emu.connections)
            assert (tmp_path / "bot.sqlite3").exists()


async def test_a_stop_while_discord_is_unreachable_does_not_wait_out_the_reconnect_delay(tmp_path, monkeypatch):
    """SIGTERM while the bot waits to reconnect (Discord down, or the network): discord.py
    sleeps out its back-off, up to 17 minutes, before it looks at the stop, so `docker stop`
    gave up after 10 s and killed it. The bot now stops at once."""
    import discord.backoff

    from bot.cli.run import serve
    from bot.discord.client import WolfBot
    from discord_emulator import Emulator

    backing_off = asyncio.Event()

    def an_hour(self):
        backing_off.set()
        return 3600.0

    monkeypatch.setattr(discord.backoff.ExponentialBackoff, "delay", an_hour)
    async with Emulator(heartbeat_interval=1.0) as emu:
        with emu.patch_discord():
            config = DiscordConfig(token=emu.token, database_url=f"sqlite+aiosqlite:///{tmp_path / 'bot.sqlite3'}")
            client = WolfBot(config)
            serving = asyncio.create_task(serve(client, emu.token))
            await emu.wait_until_connected(timeout=30)
            await emu.stop()  # Discord goes away: the bot waits to reconnect
            await asyncio.wait_for(backing_off.wait(), 30)
            os.kill(os.getpid(), signal.SIGTERM)
            await asyncio.wait_for(serving, 30)
    assert client.is_closed()


@pytest.mark.parametrize("entry", ["command", "component"])
async def test_a_stop_answers_the_interactions_in_hand_before_disconnecting(tmp_path, monkeypatch, entry):
    """SIGTERM (a deploy) while players' commands are being answered: each one already
    shown "thinking…" gets its answer before the connection closes, instead of "The
    application did not respond" with no way to know whether what they sent was kept."""
    import asyncio
    from types import SimpleNamespace

    from discord.ext import commands

    from bot.discord.client import WolfBot
    from bot.discord.errors import guarded
    from bot.discord.tree import install

    config = DiscordConfig(token="t", database_url=f"sqlite+aiosqlite:///{tmp_path / 'bot.sqlite3'}")
    client = WolfBot(config, run_tasks=False)
    seen: list[str] = []
    stopping = asyncio.Event()

    async def disconnect(self: commands.Bot) -> None:
        seen.append("disconnected")

    monkeypatch.setattr(commands.Bot, "close", disconnect)
    monkeypatch.setattr(client.scheduler, "stop", stopping.set)  # the first thing a stop does
    # A /help as Discord sends it (the typed layer reads its data before the handler).
    install(client.tree)
    interaction = SimpleNamespace(client=client, data={"type": 1, "name": "help", "options": []}, type=discord.InteractionType.application_command)

    async def answer() -> None:  # acknowledged; its work ends after the stop began
        await stopping.wait()
        seen.append("answered")

    async def command() -> None:
        assert await client.tree.interaction_check(interaction)
        await answer()

    handler = asyncio.create_task(command() if entry == "command" else guarded(interaction, answer))
    await asyncio.sleep(0)  # the handler is under way
    await client.close()
    await handler
    assert seen == ["answered", "disconnected"]
