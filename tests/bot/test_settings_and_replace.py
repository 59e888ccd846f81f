"""/game settings in the lobby keeps the lobby post true."""

from __future__ import annotations

from tests.bot.conftest import Table
from tests.bot.test_bot_e2e import open_lobby


async def test_settings_in_the_lobby_update_the_lobby_post_at_once(table: Table):
    lobby, join_id = await open_lobby(table)
    for p in table.players[:3]:
        await (await table.emu.click(p, lobby, join_id)).wait(10)
    before = table.texts([table.emu.ctx.world.messages[lobby.id]])[0]
    assert "6–15 players" in before

    await table.run(table.mod, "game settings", {"max_players": 7, "language": "zh-CN"})
    post = table.texts([table.emu.ctx.world.messages[lobby.id]])[0]
    assert "6–7" in post and "狼嚎酒馆" in post, post  # the new limit, in the game's new language
    assert "alice" in post and "carol" in post  # the roster is still there

