"""The shard settings: unset, the bot is discord.py's plain client as always; set, its
sharded client with those shards, which holds only its shards' servers and reaches the
others' channels by REST; values that cannot work are refused naming the setting."""

from __future__ import annotations

import asyncio
import contextlib

import discord
import pytest

from bot.config import ConfigError
from bot.discord.client import ShardedWolfBot, WolfBot, shard_of
from bot.discord.config import DiscordConfig, load_discord_config
from discord_emulator import Emulator
from discord_emulator.ready import start_until_ready


def test_unset_is_one_process_on_the_plain_client(sqlite_url: str) -> None:
    bot = WolfBot(DiscordConfig(database_url=sqlite_url))
    assert type(bot) is WolfBot and not isinstance(bot, discord.AutoShardedClient)
    assert bot.holds_guild(12345 << 22) and bot.process_name() and ":" not in bot.process_name()


def test_set_is_the_sharded_client_with_those_shards(sqlite_url: str) -> None:
    bot = WolfBot(DiscordConfig(database_url=sqlite_url, shard_count=4, shard_ids=[3, 2]))
    assert isinstance(bot, ShardedWolfBot) and isinstance(bot, discord.AutoShardedClient)
    assert (bot.shard_count, bot.shard_ids) == (4, [2, 3])
    assert bot.process_name().endswith(":2-3/4")
    assert [bot.holds_guild(n << 22) for n in range(5)] == [False, False, True, True, False]
    auto = WolfBot(DiscordConfig(database_url=sqlite_url, shard_count="auto"))
    assert isinstance(auto, ShardedWolfBot) and auto.shard_count is None  # asked of Discord at start


@pytest.mark.parametrize(
    ("env", "says"),
    [
        ({"WOLFHOWL_SHARD_COUNT": "4", "WOLFHOWL_SHARD_IDS": "[4]"}, "WOLFHOWL_SHARD_IDS='[4]': Value error, [4] out of range: with shard_count = 4, shard ids run from 0 to 3"),
        ({"WOLFHOWL_SHARD_IDS": "[0]"}, "shard_ids needs shard_count as a number"),
        ({"WOLFHOWL_SHARD_COUNT": "auto", "WOLFHOWL_SHARD_IDS": "[0]"}, '"auto" could differ between processes'),
        ({"WOLFHOWL_SHARD_COUNT": "0"}, 'WOLFHOWL_SHARD_COUNT=\'0\': Value error, at least 1 shard (or "auto"), not 0'),
        ({"WOLFHOWL_SHARD_COUNT": "many"}, 'WOLFHOWL_SHARD_COUNT=\'many\': Value error, a number of shards (1 or more) or "auto"'),
        ({"WOLFHOWL_SHARD_COUNT": "2", "WOLFHOWL_SHARD_IDS": "[1, 1]"}, "lists a shard twice: [1, 1]"),
    ],
)
def test_shard_settings_that_cannot_work_are_refused(env: dict[str, str], says: str, tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("WOLFHOWL_CONFIG", raising=False)
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    with pytest.raises(ConfigError) as refused:
        load_discord_config()
    assert says in str(refused.value)


def test_shard_settings_read_from_the_file(tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("WOLFHOWL_CONFIG", raising=False)
    (tmp_path / "config.toml").write_text("shard_count = 8\nshard_ids = [5, 6, 7]\n")
    config = load_discord_config()
    assert (config.shard_count, config.shard_ids, config.shards_label()) == (8, [5, 6, 7], "5-7/8")
    (tmp_path / "config.toml").write_text('shard_count = ""\nshard_ids = []\n')
    assert not load_discord_config().sharded


async def test_a_sharded_process_holds_its_shards_servers_and_reaches_the_others_by_rest(sqlite_url: str) -> None:
    async with Emulator(heartbeat_interval=0.5) as emu:
        with emu.patch_discord():
            owner = emu.create_user("owner")
            mine = emu.create_guild("on shard 1", owner=owner, shard=(1, 2))
            theirs = emu.create_guild("on shard 0", owner=owner, shard=(0, 2))
            config = DiscordConfig(database_url=sqlite_url, token=emu.token, shard_count=2, shard_ids=[1], sync_commands=False)
            bot = WolfBot(config, run_tasks=False)
            task = await start_until_ready(bot, emu.token, timeout=15)
            try:
                assert shard_of(mine.id, 2) == 1 and bot.get_guild(mine.id) is not None
                assert bot.get_guild(theirs.id) is None and not bot.holds_guild(theirs.id)
                assert sorted(bot.shards) == [1] and {s.shard for s in emu.ctx.gateway.sessions.values()} == {(1, 2)}
                assert bot.gateway_open()
                other = next(c for c in theirs.channels.values())
                channel = bot.messageable(other.id, theirs.id)
                assert isinstance(channel, discord.PartialMessageable)
                sent = await channel.send("by REST")
                assert emu.channel_messages(other)[-1].id == sent.id
                own = next(c for c in mine.channels.values())
                assert isinstance(bot.messageable(own.id, mine.id), discord.TextChannel)
                # A channel of its own shard's server that is not in the cache is gone.
                assert bot.messageable(12345, mine.id) is None
            finally:
                await bot.close()
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(task, 5)
            assert emu.server_errors == []


async def test_a_moderator_of_a_server_on_another_shard_is_known_by_rest(sqlite_url: str) -> None:
    """The process holding shard 0 answers every DM: a moderator's roles in a server on
    another shard are read by REST, and someone who left that server is known to have."""
    from bot.discord.guild.checks import member_in, member_is_moderator, still_member
    from discord_emulator import permissions as perm

    async with Emulator(heartbeat_interval=0.5) as emu:
        with emu.patch_discord():
            owner = emu.create_user("owner")
            elsewhere = emu.create_guild("on shard 1", owner=owner, shard=(1, 2))
            gm, player, gone = emu.create_user("gm"), emu.create_user("player"), emu.create_user("gone")
            for user in (gm, player):
                emu.add_member(elsewhere, user)
            emu.give_role(elsewhere, gm, emu.create_role(elsewhere, "GM", permissions=perm.MANAGE_GUILD))
            config = DiscordConfig(database_url=sqlite_url, token=emu.token, shard_count=2, shard_ids=[0], sync_commands=False)
            bot = WolfBot(config, run_tasks=False)
            task = await start_until_ready(bot, emu.token, timeout=15)
            try:
                assert bot.get_guild(elsewhere.id) is None
                moderator = await member_in(bot, elsewhere.id, discord.Object(gm.id))  # type: ignore[arg-type]
                assert moderator is not None and member_is_moderator(moderator, "")
                member = await member_in(bot, elsewhere.id, discord.Object(player.id))  # type: ignore[arg-type]
                assert member is not None and not member_is_moderator(member, "")
                assert await member_in(bot, elsewhere.id, discord.Object(gone.id)) is None  # type: ignore[arg-type]
                assert await still_member(bot, elsewhere.id, discord.Object(player.id))
                assert not await still_member(bot, elsewhere.id, discord.Object(gone.id))
            finally:
                await bot.close()
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(task, 5)
            assert emu.server_errors == []
