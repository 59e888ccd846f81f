"""Quiet dead when the server gets in its way: the dead channel deleted mid-game, the bot's
Manage Roles or Manage Channels taken away, the server at Discord's channel limit. The
moderator is told what could not be done and why; the dead end up muted once the bot can
again, and everyone gets their voice back at the end."""

from __future__ import annotations

import re
from pathlib import Path

from bot.features.lobby.games import game_in_channel, get_game
from bot.features.moderation.moderation import remove_player
from discord_emulator import permissions as perm
from tests.bot.conftest import Table, reply_text, started_game


def dead_channels(table: Table, tag: str = "dead-of") -> list:
    return [c for c in table.guild.channels.values() if c.topic and f"[wolfhowl:{tag}:{table.channel.id}]" in c.topic]


def can_send(table: Table, user) -> bool:
    return bool(table.emu.permissions_of(user, table.channel) & perm.SEND_MESSAGES)


async def bigger_game(table: Table, n: int = 10) -> int:
    """A game of ``n``: a few removals do not end it."""
    for i in range(n - len(table.players)):
        newcomer = table.emu.create_user(f"extra{i}")
        table.emu.add_member(table.guild, newcomer)
        table.players.append(newcomer)
    return await started_game(table, n=n)


async def end_game(table: Table) -> str:
    asked = await table.run(table.mod, "mod end")
    confirm = next(m for m in [asked.message, *asked.followups] if m is not None and m.custom_ids())
    done = await (await table.emu.click(table.mod, confirm, confirm.custom_ids()[0])).wait(10)
    await table.delivered()
    return reply_text(done)


async def test_a_deleted_dead_channel_is_made_again_and_the_end_frees_everyone(table: Table):
    game_id = await bigger_game(table)
    alice, bob = table.players[0], table.players[1]
    await table.run(table.mod, "mod kick", {"player": "alice"})
    await table.delivered()
    assert not can_send(table, alice)
    [first] = dead_channels(table)

    table.emu.delete_channel(first)  # a server admin deletes it
    await table.emu.wait_for(lambda: [c for c in dead_channels(table) if c.id != first.id], 10, "the dead channel made again")
    [again] = dead_channels(table)
    await table.emu.wait_for(lambda: table.emu.permissions_of(alice, again) & perm.VIEW_CHANNEL, 10, "alice let into it")
    assert not can_send(table, alice)
    settings = reply_text(await table.run(table.mod, "mod settings"))
    assert "The dead stay quiet: yes" in settings

    await table.run(table.mod, "mod kick", {"player": "bob"})
    await table.delivered()
    assert not can_send(table, bob) and table.emu.permissions_of(bob, again) & perm.VIEW_CHANNEL
    await end_game(table)
    assert (await get_game(table.db, game_id)).status == "over"
    assert can_send(table, alice) and can_send(table, bob)


async def test_without_a_dead_channel_the_departed_stay_muted_and_the_end_frees_them(table: Table):
    """The channel cannot be made again (no Manage Channels): quiet dead stays on all the
    same, in the game channel."""
    await bigger_game(table)
    alice, bob = table.players[0], table.players[1]
    await table.run(table.mod, "mod kick", {"player": "alice"})
    await table.delivered()
    table.emu.set_bot_permissions(table.guild, perm.DEFAULT_BOT & ~perm.MANAGE_CHANNELS)
    table.emu.delete_channel(dead_channels(table)[0])
    await table.seen()
    assert dead_channels(table) == []
    assert "The dead stay quiet: yes" in reply_text(await table.run(table.mod, "mod settings"))

    await table.run(table.mod, "mod kick", {"player": "bob"})
    await table.delivered()
    assert not can_send(table, alice) and not can_send(table, bob)
    await end_game(table)
    assert can_send(table, alice) and can_send(table, bob)


async def test_a_kick_without_manage_roles_says_who_kept_their_voice_and_the_next_sync_mutes_them(table: Table):
    await bigger_game(table)
    alice, bob = table.players[0], table.players[1]
    table.emu.set_bot_permissions(table.guild, perm.DEFAULT_BOT & ~perm.MANAGE_ROLES)
    await table.seen()
    dms_before = len(table.emu.dms(table.mod))
    kicked = reply_text(await table.run(table.mod, "mod kick", {"player": "alice"}))
    await table.delivered()
    assert "has been removed" in kicked
    assert f"<@{alice.id}> could not be muted in <#{table.channel.id}>" in kicked and "Manage Roles" in kicked, kicked
    assert can_send(table, alice)
    # The removal post's sync finds the same: the moderator was told already, no DM.
    assert table.texts(table.emu.dms(table.mod))[dms_before:] == []

    table.emu.set_bot_permissions(table.guild, perm.DEFAULT_BOT)  # given back
    await table.seen()
    kicked = reply_text(await table.run(table.mod, "mod kick", {"player": "bob"}))
    await table.delivered()
    assert "could not" not in kicked, kicked
    assert not can_send(table, bob) and not can_send(table, alice)  # alice too, at last


async def test_a_departure_announced_without_manage_roles_is_reported_to_the_moderator_by_dm(table: Table):
    game_id = await bigger_game(table)
    carol = table.players[2]
    table.emu.set_bot_permissions(table.guild, perm.DEFAULT_BOT & ~perm.MANAGE_ROLES)
    await table.seen()
    dms_before = len(table.emu.dms(table.mod))
    seat = next(p.seat for p in (await get_game(table.db, game_id)).players if p.user_id == carol.id)
    await remove_player(table.db, game_id, seat)  # announced by the outbox, as a death is
    await table.delivered()
    await table.emu.wait_for(lambda: table.texts(table.emu.dms(table.mod))[dms_before:], 10, "the moderator's DM")
    [dm] = table.texts(table.emu.dms(table.mod))[dms_before:]
    assert f"Game #{game_id}" in dm and f"<@{carol.id}> could not be muted" in dm and "Manage Roles" in dm, dm
    assert can_send(table, carol)


async def test_settings_that_cannot_switch_quiet_dead_off_save_the_rest_and_say_so(table: Table):
    game_id = await bigger_game(table)
    alice = table.players[0]
    await table.run(table.mod, "mod kick", {"player": "alice"})
    await table.delivered()
    table.emu.set_bot_permissions(table.guild, perm.DEFAULT_BOT & ~perm.MANAGE_ROLES & ~perm.MANAGE_CHANNELS)
    await table.seen()
    answer = reply_text(await table.run(table.mod, "mod settings", {"day": "3h", "quiet_dead": False}))
    assert "something went wrong" not in answer
    assert "Still on: to switch it off I need these permissions: Manage Channels, Manage Roles" in answer, answer
    assert "Your other changes are saved." in answer and "Day 3h" in answer and "The dead stay quiet: yes" in answer
    assert (await get_game(table.db, game_id)).settings.day_seconds == 3 * 3600
    assert not can_send(table, alice) and len(dead_channels(table)) == 1


async def test_in_chinese_the_saved_changes_follow_the_refusal_without_a_space(table: Table):
    await bigger_game(table)
    await table.run(table.mod, "mod kick", {"player": "alice"})
    await table.delivered()
    table.emu.set_bot_permissions(table.guild, perm.DEFAULT_BOT & ~perm.MANAGE_ROLES & ~perm.MANAGE_CHANNELS)
    await table.seen()
    answer = reply_text(await table.run(table.mod, "mod settings", {"day": "3h", "quiet_dead": False}, channel=table.channel, locale="zh-CN"))
    assert "仍然开启：关闭它需要以下权限：管理频道、管理身份组（权限）。你的其他更改已保存。" in answer, answer


async def test_create_at_the_channel_limit_makes_the_game_without_quiet_dead_and_says_why(table: Table):
    for i in range(500 - len(table.guild.channels)):
        table.emu.create_text_channel(table.guild, f"c{i}")
    await table.seen()
    answer = reply_text(await table.run(table.mod, "mod create"))
    assert "something went wrong" not in answer and "Nothing was changed" not in answer
    assert "is open in this channel" in answer, answer
    assert "Off: I could not create the channel for the dead" in answer and "limit of 500 channels" in answer, answer
    assert await game_in_channel(table.db, table.channel.id) is not None
    assert dead_channels(table) == []


# A server whose members may not react or open threads: @everyone lacks them, so the bot
# holds them only if its invite gave them.
NO_THREADS_OR_REACTIONS = perm.DEFAULT_EVERYONE & ~(perm.ADD_REACTIONS | perm.CREATE_PUBLIC_THREADS | perm.SEND_MESSAGES_IN_THREADS)


def invite_permissions() -> int:
    """The permissions of the invite link in docs/deploy.md."""
    text = (Path(__file__).resolve().parents[2] / "docs" / "deploy.md").read_text(encoding="utf-8")
    return int(re.search(r"oauth2/authorize\?\S*permissions=(\d+)", text)[1])


async def test_the_documented_invite_is_enough_to_mute_where_members_may_not_react_or_open_threads(table: Table):
    """A mute denies what the bot holds itself: the invite link must give it those too."""
    table.emu.set_role_permissions(table.guild, table.guild.roles[table.guild.id], NO_THREADS_OR_REACTIONS)
    table.emu.set_bot_permissions(table.guild, invite_permissions())
    await table.seen()
    await bigger_game(table)
    alice = table.players[0]
    kicked = reply_text(await table.run(table.mod, "mod kick", {"player": "alice"}))
    await table.delivered()
    assert "could not" not in kicked, kicked
    assert not can_send(table, alice)


async def test_a_mute_the_bot_cannot_write_names_the_permission_it_lacks(table: Table):
    await bigger_game(table)
    alice = table.players[0]
    table.emu.set_role_permissions(table.guild, table.guild.roles[table.guild.id], NO_THREADS_OR_REACTIONS)
    table.emu.set_bot_permissions(table.guild, perm.DEFAULT_BOT & ~perm.CREATE_PUBLIC_THREADS)
    await table.seen()
    kicked = reply_text(await table.run(table.mod, "mod kick", {"player": "alice"}))
    await table.delivered()
    assert f"<@{alice.id}> could not be muted" in kicked and "Create Public Threads" in kicked, kicked
    assert "Discord refused" not in kicked


async def test_create_and_settings_say_whether_the_dead_stay_quiet(table: Table):
    """The settings /mod create answers with include the quiet dead (the configuration's
    default), and /mod settings' too, off as well as on."""
    on = reply_text(await table.run(table.mod, "mod create"))
    assert "The dead stay quiet: yes" in on, on
    off = reply_text(await table.run(table.mod, "mod settings", {"quiet_dead": False}))
    assert "The dead stay quiet: no" in off, off


async def test_a_muted_player_who_left_the_server_finds_their_voice_back_after_the_end(table: Table):
    """Discord keeps a member's overwrites when they leave the server, so the end must lift
    the mute of a departed player who is away then, or they come back to a channel they
    cannot write in (found by the monkey, tests/e2e/test_monkey.py, seed 38)."""
    await bigger_game(table)
    alice = table.players[0]
    await table.run(table.mod, "mod kick", {"player": "alice"})
    await table.delivered()
    [dead] = dead_channels(table)
    assert not can_send(table, alice) and table.emu.permissions_of(alice, dead) & perm.VIEW_CHANNEL

    table.emu.remove_member(table.guild, alice)
    await end_game(table)
    table.emu.add_member(table.guild, alice)
    assert can_send(table, alice)
    assert not table.emu.permissions_of(alice, dead) & perm.VIEW_CHANNEL


async def test_a_departed_player_back_in_the_server_is_muted_at_their_first_word(table: Table):
    """Removed while away from the server, nobody could mute them; the bot does not see
    them come back (no members intent), but their first message in the game channel
    shows it, and the mute follows."""
    await bigger_game(table)
    alice = table.players[0]
    table.emu.remove_member(table.guild, alice)
    await table.run(table.mod, "mod kick", {"player": "alice"})
    await table.delivered()
    table.emu.add_member(table.guild, alice)
    assert can_send(table, alice)  # back, with her voice
    await table.emu.send_user_message(alice, "hello again", channel=table.channel)
    [dead] = dead_channels(table)

    def quieted() -> bool | None:
        return (not can_send(table, alice) and bool(table.emu.permissions_of(alice, dead) & perm.VIEW_CHANNEL)) or None

    await table.emu.wait_for(quieted, 5, "alice to be muted and let into the dead channel")
    # The living talk on: a message from them changes nothing.
    bob = table.players[1]
    await table.emu.send_user_message(bob, "hi", channel=table.channel)
    assert can_send(table, bob)
