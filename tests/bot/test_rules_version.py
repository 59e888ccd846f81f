"""/rules names the rules version: the one new games are dealt under on every topic and
class, and, where the caller has a game, the one that game keeps to its end."""

from __future__ import annotations

import engine
from bot.features.lobby.games import latest_game_in_channel
from bot.i18n import t
from engine.classes import ClassSpec, catalogue_of
from tests.bot.conftest import Table, open_lobby, reply_text
from tests.service.helpers import dealing_under


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
    game = await latest_game_in_channel(table.db, table.channel.id)
    assert game is not None and game.rules_version == newest
    shown = reply_text(await table.run(table.players[1], "rules"))
    assert t("rules.game_version", "en-US", version=newest) in shown
    assert t("rules.this_game", "en-US", game=game.id) in shown


async def test_rules_of_a_class_shows_the_numbers_of_the_callers_game(table: Table):
    """A game dealt under an older version plays by that version's numbers to its end:
    ``/rules barbarian`` shows them to its players (naming the version), and the newest
    to one who plays no game."""
    old = 2  # Barbarian HP 12 (10 from version 3)
    then, now = catalogue_of(old)["barbarian"], catalogue_of(engine.rules.CURRENT)["barbarian"]
    assert then.hp != now.hp
    lobby, join_id = await open_lobby(table)
    for p in table.players[:6]:
        await (await table.emu.click(p, lobby, join_id)).wait(10)
    with dealing_under(old):
        await table.run(table.mod, "mod start")
    game = await latest_game_in_channel(table.db, table.channel.id)
    assert game is not None and game.status == "running" and game.rules_version == old

    def hp(spec: ClassSpec) -> str:
        return t("sheet.stats", "en-US", hp=spec.hp, max_hp=spec.hp, ab=spec.ab, armor=spec.armor, dex=spec.dex, damage=spec.damage)

    for where in ({}, {"dm": True}):  # in the game's channel, and in the player's DM
        shown = reply_text(await table.run(table.players[1], "rules", {"topic": "barbarian"}, **where, locale="en-US"))
        assert hp(then) in shown and hp(now) not in shown, where
        assert t("rules.class_game_version", "en-US", game=game.id, version=old) in shown
        assert t("rules.version", "en-US", version=engine.rules.CURRENT) not in shown
    henry = table.emu.create_user("henry", locale="en-US")  # in no game
    stranger = reply_text(await table.run(henry, "rules", {"topic": "barbarian"}, dm=True, locale="en-US"))
    assert hp(now) in stranger and t("rules.version", "en-US", version=engine.rules.CURRENT) in stranger
