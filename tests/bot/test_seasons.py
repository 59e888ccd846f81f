"""Seasons as a server meets them on the local Discord: a moderator starts one (a player
may not), a game ends in it, the season's board and a player's /stats list it (in each
reader's language), the end posts the summary and awards in the channel once, and the
board's page buttons stay on the season."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select

from bot.core.messages import decode
from bot.db.models import OutboxMessage
from bot.features.seasons import seasons as service
from bot.features.seasons.look import summary_embed
from tests.bot.conftest import Table, reply_text, started_game
from tests.bot.test_stats_commands import _more_players
from tests.service.helpers import play_to_end


def _embed_text(embed: Any) -> str:
    fields = "\n".join(f"{f.name}\n{f.value}" for f in embed.fields)
    return f"{embed.title}\n{embed.description}\n{fields}\n{embed.footer.text if embed.footer else ''}"


async def test_a_season_from_its_start_to_its_summary(table: Table) -> None:
    alice, bob = table.players[:2]  # alice reads Chinese
    # An admin lets everyone see /mod: a player is still refused, and nothing opens.
    table.emu.set_command_permissions(table.guild, {table.guild.everyone_role: True}, command="mod")
    refused = reply_text(await table.run(bob, "mod season start", {"name": "Bob's"}))
    assert "moderator" in refused.lower()
    assert await service.seasons_of(table.db, table.guild.id) == []
    started = reply_text(await table.run(table.mod, "mod season start", {"name": "Spring **2027**"}))
    assert "Season 1: Spring \\*\\*2027\\*\\* has started" in started
    again = reply_text(await table.run(table.mod, "mod season start"))
    assert "Season 1 is still open" in again

    game_id = await started_game(table)
    await play_to_end(table.db, game_id)
    await table.delivered()

    board = reply_text(await table.run(bob, "leaderboard", {"season": 0}))
    assert "Season 1: Spring \\*\\*2027\\*\\* (open)" in board and "bob" in board
    assert "All-time" in reply_text(await table.run(bob, "leaderboard"))
    assert "没有第7赛季" in reply_text(await table.run(alice, "leaderboard", {"season": 7}))
    offered = await table.emu.autocomplete(bob, "leaderboard", focused="season", value="spr", channel=table.channel)
    assert [c["value"] for c in offered] == [1] and offered[0]["name"].startswith("Season 1: Spring")
    mine = reply_text(await table.run(bob, "stats view"))
    assert "Seasons" in mine and "Season 1: Spring \\*\\*2027\\*\\* (open): " in mine
    assert "赛季" in reply_text(await table.run(alice, "stats view"))

    before = len(table.emu.channel_messages(table.channel, include_ephemeral=False))
    ended = reply_text(await table.run(table.mod, "mod season end"))
    assert "is over after 1 game" in ended
    await table.delivered()
    posts = table.emu.channel_messages(table.channel, include_ephemeral=False)[before:]
    texts = table.texts(posts)
    assert len(texts) == 1 and "Season 1: Spring \\*\\*2027\\*\\* is over" in texts[0]
    assert "Awards" in texts[0] and "Most points" in texts[0] and "1 game finished, 6 players took part." in texts[0]
    await table.delivered()  # delivered once, whatever more passes run
    assert len(table.emu.channel_messages(table.channel, include_ephemeral=False)) == before + 1
    assert "No season is open" in reply_text(await table.run(table.mod, "mod season end"))
    assert "(ended)" in reply_text(await table.run(bob, "leaderboard", {"season": 1}))

    # The same post in Chinese, as a Chinese-speaking server's season is posted.
    async with table.db.read() as s:
        row = (await s.execute(select(OutboxMessage).where(OutboxMessage.game_id.is_(None)))).scalar_one()
    zh = _embed_text(summary_embed(decode(row.payload), "zh-CN"))
    assert "第1赛季：Spring \\*\\*2027\\*\\*结束了" in zh and "奖项" in zh and "得分最多" in zh


async def test_a_season_board_keeps_its_season_on_its_pages(table: Table) -> None:
    bob = table.players[1]
    await table.run(table.mod, "mod season start")
    await _more_players(table, 12, first=1)
    await table.delivered()
    first = await table.run(bob, "leaderboard", {"season": 1})
    message = next(m for m in [first.message, *first.followups] if m is not None and m.custom_ids())
    ids = message.custom_ids()
    assert any(i.endswith(":2:s1") for i in ids)
    pressed = await table.emu.click(bob, message, next(i for i in ids if i.endswith(":2:s1")))
    await pressed.wait(10)
    assert "Season 1 (open)" in reply_text(pressed) and "Page 2 of 2" in reply_text(pressed)
