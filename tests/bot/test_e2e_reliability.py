"""Reliability on the local Discord: a moderator asks a minimum in the lobby (``/mod
settings``); a player below it is refused at the Join button, at ``/game join`` and at
``/standby join``, privately, in their own language, with their figure, the games it is over, the
minimum and how to raise it; a player with no record is let in; ``/mod settings`` shows
and changes it; ``/stats view`` shows the figure, or "new" below three games."""

from __future__ import annotations

from tests.bot.conftest import Table, open_lobby, reply_text
from tests.records.test_reliability import seed_records


async def test_a_lobby_refuses_a_player_below_its_minimum_in_their_language(table: Table) -> None:
    alice, bob, carol, dave = table.players[:4]  # alice and dave read Chinese
    guild = table.guild.id
    rows = []
    for g in range(1, 5):  # alice and bob: 4 games here, 6 of 10 phases sent
        rows += [(g, guild, alice.id, False, (10, 6, 0)), (g, guild, bob.id, False, (10, 6, 0))]
    rows += [(g, guild, dave.id, False, (10, 2, 0)) for g in (5, 6)]  # dave: 2 games, "new"
    await seed_records(table.db, rows)

    lobby, join_id = await open_lobby(table, min_reliability=75)
    pressed = await table.emu.click(bob, lobby, join_id)
    await pressed.wait(10)
    text = reply_text(pressed)
    assert pressed.ephemeral
    assert "This game asks for a reliability of at least 75%: yours in this server is 60%" in text
    assert "over your last 4 games" in text and "finish games without missing a phase" in text
    zh = await table.run(alice, "game join")
    assert zh.ephemeral and "这局要求可靠度至少75%：你在本服务器的可靠度是60%" in reply_text(zh)
    assert "最近4局" in reply_text(zh) and "不错过任何阶段" in reply_text(zh)
    standby = await table.run(bob, "standby join")
    assert "at least 75%" in reply_text(standby)
    # A player with no record, and one with too few games to tell, are let in.
    for newcomer in (carol, dave):
        joined = await table.emu.click(newcomer, lobby, join_id)
        await joined.wait(10)
        assert "75%" not in reply_text(joined), reply_text(joined)
    roster = table.texts([table.emu.ctx.world.messages[lobby.id]])[0]
    assert "carol" in roster and "dave" in roster and "bob" not in roster and "alice" not in roster

    # The settings say the minimum; lowered to 60%, bob gets in.
    shown = reply_text(await table.run(table.mod, "mod settings", {"min_reliability": 60}))
    assert "Reliability needed to join: 60%" in shown, shown
    again = await table.emu.click(bob, lobby, join_id)
    await again.wait(10)
    assert "bob" in table.texts([table.emu.ctx.world.messages[lobby.id]])[0]

    # /stats view: the figure with the games it is over, or "new".
    mine = reply_text(await table.run(bob, "stats view"))
    assert "Reliability: **60%** of phases sent (last 4 games here)" in mine
    assert "可靠度：提交了**60%**的阶段（本服最近4局）" in reply_text(await table.run(alice, "stats view"))
    assert "可靠度：新玩家（满3局后显示）" in reply_text(await table.run(dave, "stats view"))
    assert "Reliability: new (shown from 3 games on)" in reply_text(await table.run(carol, "stats view", {"player": dave}))
