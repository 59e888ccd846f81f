"""/rules names the rules version: the one new games are dealt under on every topic and
class, and, where the caller has a game, the one that game keeps to its end."""

from __future__ import annotations

import bot.service as service
import engine
from bot.i18n import t
from tests.bot.conftest import Table, open_lobby, reply_text


async def test_rules_names_the_version_new_games_get_and_the_games_own(table: Table):
    newest = engine.rules.CURRENT
    for topic in ({}, {"topic": "combat"}, {"topic": "barbarian"}):
        shown = reply_text(await table.run(table.players[0], "rules", topic, dm=True, locale="en-US"))
        assert t("rules.version", "en-US", version=newest) in shown, topic
    assert f"规则版本{newest}" in reply_text(await table.run(table.players[0], "rules", {"topic": "野蛮人"}, dm=True, locale="zh-CN"))
    lobby, join_id = await open_lobby(table)
    for p in table.players[:6]:
        await (await table.emu.click(p, lobby, join_id)).wait(10)
    await table.run(table.mod, "mod start")
    game = await service.latest_game_in_channel(table.db, table.channel.id)
    assert game is not None and game.rules_version == newest
    shown = reply_text(await table.run(table.players[1], "rules"))
    assert t("rules.game_version", "en-US", version=newest) in shown
    assert t("rules.this_game", "en-US", game=game.id) in shown
