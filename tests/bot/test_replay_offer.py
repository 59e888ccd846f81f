"""Seen from Discord: the end post offers the game's replay (a button anyone may press,
which answers them privately with the HTML file), and /game history lists the server's
finished games, a page at a time."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from bot.db.models import Game
from bot.i18n import t, terms
from bot.render import words
from tests.bot.conftest import Table, reply_text, started_game
from tests.bot.test_orphans import restarted
from tests.service.helpers import current_state, play_to_end


def files(result) -> list:
    messages = {m.id: m for m in [result.message, *result.followups] if m}
    return [a for m in messages.values() for a in m.attachments]


async def finished_game(table: Table) -> int:
    game_id = await started_game(table)
    await play_to_end(table.db, game_id)
    await table.delivered()
    return game_id


async def test_the_end_post_offers_the_replay_to_whoever_presses(table: Table):
    game_id = await finished_game(table)
    posts = table.emu.channel_messages(table.channel, include_ephemeral=False)
    board = next(m for m in posts if f"wh:replay:{game_id}" in m.custom_ids())
    assert any("Game over" in (e.get("title") or "") for e in board.embeds)  # on the scoreboard itself
    assert [m for m in posts if any(c.startswith("wh:replay:") for c in m.custom_ids())] == [board]

    alice = table.players[0]  # her Discord speaks Chinese; the game is in English
    pressed = await table.emu.click(alice, board, f"wh:replay:{game_id}")
    result = await pressed.wait(20)
    assert result.ephemeral and "复盘" in reply_text(result)
    [page] = files(result)
    assert page.filename == f"wolfhowl-game-{game_id}.html" and page.size < 10 * 1024 * 1024
    html = page.data.decode()
    final = await current_state(table.db, game_id)
    assert f"Wolf Howl Tavern — game #{game_id}" in html
    for p in final.players:
        assert terms.class_name(p.class_id, "en-US") in html and p.name in html
    assert "https://" not in html and "http://" not in html
    # Nothing was posted for it in the channel.
    assert table.emu.channel_messages(table.channel, include_ephemeral=False) == posts

    # The button still answers after a restart, in the presser's language.
    await table.bot.close()
    task = await restarted(table)
    try:
        again = await (await table.emu.click(table.players[1], board, f"wh:replay:{game_id}")).wait(20)
        assert "The replay of game" in reply_text(again) and [f.data for f in files(again)] == [page.data]
    finally:
        task.cancel()


async def test_history_lists_the_finished_game_with_its_players_and_winners(table: Table):
    empty = await table.run(table.players[1], "game history")
    assert "No game has finished in this server yet." in reply_text(empty)
    game_id = await finished_game(table)
    await table.run(table.mod, "mod create")  # a live lobby is not listed
    result = await table.run(table.players[1], "game history")
    text = reply_text(result)
    final = await current_state(table.db, game_id)
    winners = words.listing((terms.faction(w, "en-US") for w in final.winners), "en-US")
    assert f"**#{game_id}**" in text and f"{final.round} rounds · won by {winners}" in text
    assert all(p.name in text for p in final.players)
    assert "Page 1 of 1 · 2 games" not in text and "Page 1 of 1" in text
    assert result.ephemeral and not result.message.custom_ids()  # one page: no buttons
    zh = await table.run(table.players[0], "game history")
    assert f"**第{game_id}局**" in reply_text(zh)


async def test_history_in_a_dm_says_where_to_use_it(table: Table):
    result = await table.run(table.players[1], "game history", dm=True)
    assert t("history.guild_only", "en-US") in reply_text(result)


async def test_history_pages_by_buttons(table: Table):
    """Twelve finished games: two pages; the buttons turn them in place."""
    base = datetime(2026, 1, 1, tzinfo=UTC)
    async with table.db.transaction() as s:
        for i in range(12):
            state = {"players": [{"name": f"P{i}-{k}"} for k in range(6)], "winners": ["lawful"]}
            game = Game(
                guild_id=table.guild.id, channel_id=table.channel.id, moderator_id=table.mod.id, settings={},
                language="en-US", secret_seed="s" * 32, seed_sha256="0" * 64, status="over", phase="over",
                round=i + 1, state=state, version=1, end_reason="score", created_at=base,
                started_at=base, ended_at=base + timedelta(days=i),
            )  # fmt: skip
            s.add(game)
    bob = table.players[1]
    first = await table.run(bob, "game history")
    text = reply_text(first)
    assert "P11-0" in text and "P2-0" in text and "P1-0" not in text and "Page 1 of 2 · 12 games" in text
    older = next(c for c in first.message.custom_ids() if c.endswith(":o"))
    turned = await (await table.emu.click(bob, first.message, older)).wait(10)
    page2 = reply_text(turned)
    assert "Page 2 of 2 · 12 games" in page2 and "P1-0" in page2 and "P0-0" in page2 and "P11-0" not in page2
    newer = next(c for c in turned.message.custom_ids() if c.endswith(":n"))
    back = await (await table.emu.click(bob, turned.message, newer)).wait(10)
    assert "Page 1 of 2" in reply_text(back)


def test_a_live_games_replay_is_refused_in_the_readers_language():
    from bot.core.errors import GameNeverPlayedError, GameNotOverError
    from bot.discord.errors import error_text

    assert error_text(GameNotOverError(game_id=7), "en-US") == "Game #7 is not over yet: its replay and full log come once it has ended."
    assert error_text(GameNotOverError(game_id=7), "zh-CN") == "第7局还没有结束：复盘和完整记录要等游戏结束后才能获取。"
    assert "第7局在开始前就取消了" in (error_text(GameNeverPlayedError(game_id=7), "zh") or "")
