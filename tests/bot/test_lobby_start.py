"""A lobby's start time over the local Discord: set at /game create (or /game settings),
shown in the lobby post; the members reminded by DM in their language; at the time the
game starts by itself and the lobby post closes, or, short of players, is cancelled
with a word about the standby list. A bad time gets a clear private reply."""

from __future__ import annotations

from bot.features.lobby.games import live_games
from bot.i18n import has_key
from discord_emulator import permissions as perm
from tests.bot.conftest import Table, open_lobby, reply_text


def _public(table: Table) -> str:
    return "\n".join(table.texts(table.emu.channel_messages(table.channel, include_ephemeral=False)))


async def test_a_lobby_with_a_start_time_reminds_its_members_then_starts(table: Table):
    lobby, join_id = await open_lobby(table, start_in="2h", reminder="30m")
    post = table.texts([table.emu.ctx.world.messages[lobby.id]])[0]
    assert "Start time" in post and "if at least 6 players have joined" in post, post
    for p in table.players[:6]:
        await (await table.emu.click(p, lobby, join_id)).wait(10)
    alice, bob = table.players[0], table.players[1]  # alice reads Chinese

    table.clock.advance(90 * 60)
    table.bot.wake_scheduler()
    await table.emu.wait_for(lambda: any("starts" in t for t in table.texts(table.emu.dms(bob))) or None, timeout=5)
    await table.delivered()
    assert any("将于" in t and "开局" in t for t in table.texts(table.emu.dms(alice)))

    table.clock.advance(31 * 60)
    table.bot.wake_scheduler()
    await table.emu.wait_for(lambda: "adventurers enter the Wolf Howl Tavern" in _public(table) or None, timeout=5)
    await table.delivered()
    info = (await live_games(table.db))[0]
    assert info.status == "running" and len(info.players) == 6
    # Each player has their class, and the lobby post has lost its buttons.
    assert all(any("Keep it secret" in t or "保密" in t for t in table.texts(table.emu.dms(p))) for p in table.players[:6])
    await table.emu.wait_for(lambda: not table.emu.ctx.world.messages[lobby.id].custom_ids() or None, timeout=5)


async def test_a_lobby_short_of_players_is_cancelled_and_points_to_the_standby_list(table: Table):
    lobby, join_id = await open_lobby(table)
    settings = await table.run(table.mod, "mod settings", {"start_in": "1h"})
    assert "Starts" in reply_text(settings)
    await table.emu.wait_for(lambda: "Start time" in table.texts([table.emu.ctx.world.messages[lobby.id]])[0] or None, timeout=5)
    for p in table.players[:3]:
        await (await table.emu.click(p, lobby, join_id)).wait(10)
    table.clock.advance(3601)
    table.bot.wake_scheduler()
    await table.emu.wait_for(lambda: "start time came with 3 players" in _public(table) or None, timeout=5)
    # Those who wanted to play are pointed to the standby list, by the command the bot has
    # for it (named only where there is one: a reply never names a command that is not).
    standby = "join its standby list with `/game standby`" in _public(table)
    assert standby is has_key("cmd.name.standby")
    assert await live_games(table.db) == []
    await table.emu.wait_for(lambda: not table.emu.ctx.world.messages[lobby.id].custom_ids() or None, timeout=5)


async def test_a_bad_start_time_is_refused_and_changes_nothing(table: Table):
    refused = await table.run(table.mod, "mod create", {"start_in": "soon"})
    assert refused.ephemeral and "“soon” is not a start time" in reply_text(refused)
    assert await live_games(table.db) == []
    await open_lobby(table)
    before = (await live_games(table.db))[0]
    refused = await table.run(table.mod, "mod settings", {"start_in": "45d"})
    assert "“45d” is not a start time" in reply_text(refused)
    zh_mod = table.emu.create_user("主持", locale="zh-CN")
    table.emu.add_member(table.guild, zh_mod)
    table.emu.give_role(table.guild, zh_mod, table.emu.create_role(table.guild, "主持人", permissions=perm.MANAGE_GUILD))
    assert "“45d”不是有效的开局时间" in reply_text(await table.run(zh_mod, "mod settings", {"start_in": "45d"}))
    assert (await live_games(table.db))[0] == before
    # Once the game runs, a start time is refused.
    for p in table.players[:6]:
        await table.run(p, "game join")
    await table.run(table.mod, "mod start")
    refused = await table.run(table.mod, "mod settings", {"start_in": "2h"})
    assert "already started" in reply_text(refused)
