"""The real bot on the local Discord emulator, before a game runs: help and a stranger's
commands in a DM, a lobby created, joined by button and command and started, the lobby
post never put back to an older roster, a lobby cancelled, and /mod create checking the
bot's permissions."""

from __future__ import annotations

import asyncio
from typing import Any
from unittest import mock

import discord
import pytest

from bot.features.lobby.components import refresh_lobby
from bot.features.lobby.games import game_in_channel, get_game, latest_game_in_channel, leave_game
from discord_emulator import InvalidInvocation
from tests.bot.conftest import Table, open_lobby, reply_text


async def test_help_in_a_dm_in_the_users_language(table: Table):
    alice, bob = table.players[0], table.players[1]
    zh = await table.run(alice, "help", dm=True)
    assert zh.ephemeral or zh.message is not None
    assert "狼嚎酒馆" in reply_text(zh)
    en = await table.run(bob, "help", dm=True)
    assert "Wolf Howl Tavern" in reply_text(en)


async def test_a_stranger_is_told_they_are_not_in_a_game(table: Table):
    bob = table.players[1]
    result = await table.run(bob, "grail", {"number": 50}, dm=True)
    assert "not in any game" in reply_text(result)
    zh = await table.run(table.players[0], "me", dm=True)
    assert "没有参加任何游戏" in reply_text(zh)


async def test_create_join_by_button_and_command_then_start(table: Table):
    lobby, join_id = await open_lobby(table, day="2h", dusk="2h", morning="1h")
    for p in table.players[:5]:
        pressed = await table.emu.click(p, lobby, join_id)
        await pressed.wait(10)
        assert "joined" in reply_text(pressed) or "加入" in reply_text(pressed)
    await table.run(table.players[5], "game join")
    # The lobby post shows the roster.
    post = table.emu.ctx.world.messages[lobby.id]
    roster = table.texts([post])[0]
    assert "alice" in roster and "erin" in roster
    # Joining twice is refused, with the service's words.
    again = await table.emu.click(table.players[0], lobby, join_id)
    await again.wait(10)
    assert "你已经加入了这局游戏" in reply_text(again)
    # Players cannot start the game: Discord does not list /mod to them in the server,
    # and the bot refuses it where Discord does (a DM).
    with pytest.raises(InvalidInvocation, match="hidden"):
        await table.run(table.players[1], "mod start")
    refused = await table.run(table.players[1], "mod start", dm=True)
    assert "Only a moderator" in reply_text(refused)
    started = await table.run(table.mod, "mod start")
    assert "started" in reply_text(started)
    assert table.emu.ctx.world.messages[lobby.id].custom_ids() == []  # the lobby is closed
    await table.delivered()
    # Everyone got their sheet by DM, in their own language; the channel the table.
    alice_dm = table.texts(table.emu.dms(table.players[0]))
    assert any("保密" in t for t in alice_dm), alice_dm
    bob_dm = table.texts(table.emu.dms(table.players[1]))
    assert any("Keep it secret" in t for t in bob_dm)
    public = table.texts(table.emu.channel_messages(table.channel, include_ephemeral=False))
    assert any("The game begins" in t for t in public)
    assert any("Day 1" in t for t in public)


async def test_a_refresh_read_before_a_join_never_puts_back_the_older_roster(table: Table):
    """The reconciler's refresh of the lobby post and a player's join overlap (the
    reconciler's edit is slow to land): whichever edit lands last, the post shows the
    roster as stored, with the player who joined."""
    lobby, join_id = await open_lobby(table)
    for p in table.players[:5]:
        await (await table.emu.click(p, lobby, join_id)).wait(10)
    game = await game_in_channel(table.db, table.channel.id)
    assert game is not None
    erin = table.players[4]
    await leave_game(table.db, game.id, erin.id)  # stored; the post still names her
    held, release = asyncio.Event(), asyncio.Event()
    real_edit = discord.Message.edit

    async def slow_edit(self: discord.Message, **fields: Any) -> Any:
        if asyncio.current_task() is stale:
            held.set()
            await release.wait()
        return await real_edit(self, **fields)

    async def joined() -> None:
        while erin.id not in {p.user_id for p in (await get_game(table.db, game.id)).players}:
            await asyncio.sleep(0.01)

    stale: asyncio.Task[None] | None = None
    with mock.patch.object(discord.Message, "edit", slow_edit):
        channel = table.bot.get_channel(table.channel.id)
        assert isinstance(channel, discord.abc.Messageable)
        post = await channel.fetch_message(lobby.id)  # as a press hands it: edited in any case
        stale = asyncio.create_task(refresh_lobby(table.bot, channel, game.id, post))  # four players, held
        await asyncio.wait_for(held.wait(), 5)
        pressed = await table.emu.click(erin, lobby, join_id)  # erin is back meanwhile
        await asyncio.wait_for(joined(), 5)
        release.set()
        assert "joined" in reply_text(await pressed.wait(10))
        await stale
    roster = table.texts([table.emu.ctx.world.messages[lobby.id]])[0]
    assert "erin" in roster and "Players (5)" in roster, roster


async def test_ending_a_lobby_cancels_it_and_a_stale_cancel_cannot_cancel_a_started_game(table: Table):
    lobby, join_id = await open_lobby(table)
    confirm = await table.run(table.mod, "mod end")
    assert "Nobody has been dealt a class yet" in reply_text(confirm)
    message = next(m for m in [confirm.message, *confirm.followups] if m and m.custom_ids())
    cancel_id = message.custom_ids()[0]
    assert cancel_id.startswith("wh:cancel:")
    for p in table.players[:6]:
        await (await table.emu.click(p, lobby, join_id)).wait(10)
    await table.run(table.mod, "mod start")
    # The lobby was confirmed for cancelling; the game has started since: refused.
    stale = await (await table.emu.click(table.mod, message, cancel_id)).wait(10)
    assert "has started since" in reply_text(stale)
    game_id = int(cancel_id.rsplit(":", 1)[1])
    assert (await get_game(table.db, game_id)).status == "running"
    # A fresh lobby in the other channel, ended from its own /mod end: cancelled.
    general = next(c for c in table.guild.channels.values() if c.name == "general")
    await table.run(table.mod, "mod create", channel=general)
    confirm = await table.run(table.mod, "mod end", channel=general)
    message = next(m for m in [confirm.message, *confirm.followups] if m and m.custom_ids())
    done = await (await table.emu.click(table.mod, message, message.custom_ids()[0])).wait(10)
    assert "cancelled" in reply_text(done)
    other = await latest_game_in_channel(table.db, general.id)
    assert other is not None and other.status == "cancelled"
    # The channel reads that it was cancelled before it began, not ended like a game.
    await table.delivered()
    said = table.texts(table.emu.channel_messages(general, include_ephemeral=False))
    assert any("cancelled the game before it began" in t for t in said), said
    assert not any("has ended the game" in t for t in said)


async def test_create_checks_the_bots_permissions_and_explains(table: Table):
    from discord_emulator import permissions as perm

    table.emu.set_permissions(table.channel, table.emu.bot_user, deny=perm.EMBED_LINKS)
    await table.seen()
    refused = reply_text(await table.run(table.mod, "mod create"))
    assert "I lack permissions in this channel: Embed Links" in refused
    table.emu.ctx.guild_ops.delete_overwrite(table.channel, table.emu.bot_user.id)
    table.emu.set_bot_permissions(table.guild, perm.DEFAULT_BOT & ~perm.MANAGE_ROLES)
    await table.seen()
    created = reply_text(await table.run(table.mod, "mod create"))
    assert "Off: I would need these permissions: Manage Roles" in created
    assert not any(c.topic and "dead-of" in c.topic for c in table.guild.channels.values())
    assert "The dead stay quiet: no" in reply_text(await table.run(table.mod, "mod settings"))
