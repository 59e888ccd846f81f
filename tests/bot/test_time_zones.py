"""Time zones as players and a moderator meet them on the local Discord: /settings
timezone with its suggestions (set, shown, refused, cleared, in each reader's language),
the moderator's deadline hours typed on their own clock and shown on each player's, and
a phase prompt that says the deadline's hour on its reader's clock."""

from __future__ import annotations

from datetime import UTC, datetime

from bot.features.lobby.games import get_game
from tests.bot.conftest import Table, open_lobby, reply_text


async def test_a_player_sets_their_zone_and_sees_it_in_their_language(table: Table) -> None:
    alice, bob = table.players[:2]  # alice reads Chinese
    offered = await table.emu.autocomplete(bob, "settings timezone", focused="zone", value="berl", dm=True)
    assert offered[0]["value"] == "Europe/Berlin" and offered[0]["name"].startswith("Europe/Berlin (UTC+0")
    assert "You have not set a time zone" in reply_text(await table.run(bob, "settings timezone", dm=True))
    assert "Europe/Berlin (UTC+0" in reply_text(await table.run(bob, "settings timezone", {"zone": "europe/berlin"}, dm=True))
    assert "Your time zone: Europe/Berlin" in reply_text(await table.run(bob, "settings timezone", dm=True))
    refused = reply_text(await table.run(alice, "settings timezone", {"zone": "火星"}, dm=True))
    assert "没有“火星”这个时区" in refused
    assert "你的时区已设为 Asia/Shanghai" in reply_text(await table.run(alice, "settings timezone", {"zone": "Asia/Shanghai"}, dm=True))
    assert "你的时区已清除" in reply_text(await table.run(alice, "settings timezone", {"zone": "off"}, dm=True))
    assert "Your time zone: Europe/Berlin" in reply_text(await table.run(bob, "settings timezone", dm=True))


async def test_deadline_hours_on_the_moderators_clock_and_each_players(table: Table) -> None:
    alice, bob, carol = table.players[:3]
    await table.run(table.mod, "settings timezone", {"zone": "Asia/Shanghai"}, dm=True)
    await table.run(alice, "settings timezone", {"zone": "Asia/Shanghai"}, dm=True)
    await table.run(bob, "settings timezone", {"zone": "America/New_York"}, dm=True)
    lobby, join_id = await open_lobby(table, day="1d", dusk="1d", morning="1d", prompts=True)
    for p in table.players[:6]:
        await (await table.emu.click(p, lobby, join_id)).wait(10)
    refused = reply_text(await table.run(table.mod, "mod settings", {"deadline_hours": "6pm"}))
    assert "is not a list of hours" in refused
    shown = reply_text(await table.run(table.mod, "mod settings", {"deadline_hours": "20, 9"}))
    assert "each phase closes at 20:00, 09:00 (Asia/Shanghai)" in shown
    assert "alice (Asia/Shanghai): 20:00 · 09:00" in shown
    assert "bob (America/New_York): 07:00 · 20:00" in shown  # 20:00 Shanghai is 07:00 in New York
    assert "4 players have not set a time zone" in shown
    info = await get_game(table.db, int(join_id.rsplit(":", 1)[1]))
    assert (info.settings.deadline_hours, info.settings.deadline_zone) == ((20, 9), "Asia/Shanghai")

    table.clock.now = datetime(2026, 12, 7, 1, 0, tzinfo=UTC)  # 09:00 in Shanghai
    await table.run(table.mod, "mod start")
    await table.delivered()
    started = await get_game(table.db, info.id)
    assert started.deadline == datetime(2026, 12, 8, 12, 0, tzinfo=UTC)  # 20:00 Shanghai, the next day (12 h at least)
    prompts = {u.username: [x for x in table.texts(table.emu.dms(u)) if "Day 1" in x or "第1轮" in x or "第 1 轮" in x] for u in (alice, carol)}
    assert any("你的时间 20:00，Asia/Shanghai" in x for x in prompts["alice"]), prompts["alice"]
    assert prompts["carol"] and not any("your time" in x for x in prompts["carol"])  # no zone: Discord's timestamp alone
