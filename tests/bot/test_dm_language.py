"""The language of the bot's DMs to a player follows their Discord client, as their
latest command shows it."""

from __future__ import annotations

from tests.bot.conftest import Table, open_lobby, reply_text


async def test_a_player_who_switches_discords_language_gets_their_dms_in_the_new_one(table: Table):
    """The language of a player's DMs follows their Discord client, as their latest
    command shows it (it was fixed when they joined)."""
    lobby, join_id = await open_lobby(table)
    for p in table.players[:6]:
        await (await table.emu.click(p, lobby, join_id)).wait(10)
    bob = table.players[1]
    assert bob.locale == "en-US"
    bob.locale = "zh-CN"
    await table.run(bob, "rules", {"topic": "scoring"}, dm=True)
    await table.run(table.mod, "mod start")
    await table.delivered()
    sheet, prompt = table.texts(table.emu.dms(bob))[-2:]  # the sheet, then the Day's prompt
    assert "请保密" in sheet and "白天" in prompt, (sheet, prompt)


async def test_a_failure_to_record_the_language_costs_nobody_their_command(table: Table, monkeypatch):
    from bot.core import users

    async def broken(*args, **kwargs):
        raise RuntimeError("database unavailable")

    monkeypatch.setattr(users, "note_locale", broken)
    answer = await table.run(table.players[0], "rules", {"topic": "scoring"}, dm=True)
    assert "计分" in reply_text(answer)  # alice reads Chinese: answered as ever
