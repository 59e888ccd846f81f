"""/phase extend as a moderator meets it: the reply says what the phase now has, and an
extension past the longest a phase may run is refused without a word to the channel."""

from __future__ import annotations

from discord_emulator import permissions as perm
from tests.bot.conftest import Table, reply_text, started_game


async def test_extend_says_what_the_paused_clock_holds_and_refuses_past_the_limit(table: Table):
    await started_game(table, day="2h")
    await table.run(table.mod, "phase pause")
    paused = reply_text(await table.run(table.mod, "phase extend", {"duration": "30m"}))
    assert "the phase will have 2h 30m left when the game resumes" in paused, paused
    capped = reply_text(await table.run(table.mod, "phase extend", {"duration": "7d"}))
    assert "the phase will have 7d left" in capped, capped  # not "7d added": it holds at most 7d
    refused = await table.run(table.mod, "phase extend", {"duration": "1h"})
    assert "nothing was changed" in reply_text(refused) and refused.ephemeral

    await table.run(table.mod, "phase resume")
    await table.delivered()
    posts = len(table.emu.channel_messages(table.channel, include_ephemeral=False))
    zh = table.players[0]  # alice reads Chinese; a moderator in her language is refused in it
    table.emu.give_role(table.guild, zh, table.emu.create_role(table.guild, "主持人", permissions=perm.MANAGE_GUILD))
    answer = reply_text(await table.run(zh, "phase extend", {"duration": "1h"}))
    assert "本阶段剩余时间已达上限（7天）" in answer, answer
    await table.delivered()
    assert len(table.emu.channel_messages(table.channel, include_ephemeral=False)) == posts  # no "more time" post
