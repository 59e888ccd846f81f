"""Line-ups over the local Discord: /mod lineup suggests the presets with their classes
and reads what is typed; a line-up is answered at once while its odds are simulated in
a worker process (the bot answers other commands meanwhile), then the lobby post shows
each faction's estimated win rate with its interval; a bad line-up is refused with the
reason, nothing changed; fixed once the classes are dealt."""

from __future__ import annotations

from bot.features.lobby.games import get_game, latest_game_in_channel
from bot.i18n import t
from tests.bot.conftest import Table, open_lobby, reply_text

GAMES = 1000


def post_text(table: Table, lobby_id: int) -> str:
    return table.texts([table.emu.ctx.world.messages[lobby_id]])[0]


async def test_a_line_up_is_answered_at_once_and_its_odds_follow_on_the_lobby_post(table: Table):
    lobby, join_id = await open_lobby(table)
    for p in table.players[:6]:
        await (await table.emu.click(p, lobby, join_id)).wait(10)
    await table.delivered()
    table.bot.odds.games = GAMES  # (from here: the dealt-by-lot line-up is not simulated too)
    # Suggestions: each preset with its classes at this size, and what is typed, read.
    offered = await table.emu.autocomplete(table.mod, "mod lineup", focused="lineup", value="")
    assert [c["value"] for c in offered] == ["random", "classic", "balanced", "varied"]
    assert "Warrior, Paladin / Wizard, Druid / Barbarian, Bard" in offered[1]["name"]
    typed = await table.emu.autocomplete(table.mod, "mod lineup", focused="lineup", value="paladin,cleric/rogue,druid/ranger,knight")
    assert typed[0]["name"].startswith("✗") and "knight" in typed[0]["name"]
    # Set: the reply comes while the simulation is still running in the background.
    result = await table.run(table.mod, "mod lineup", {"lineup": "Paladin, Cleric / rogue, druid / ranger, bard"})
    own = "paladin,cleric/rogue,druid/ranger,bard"
    shown = reply_text(result)
    assert "Paladin, Cleric" in shown and t("lineup.odds_pending", "en-US") in shown
    info = await get_game(table.db, (await latest_game_in_channel(table.db, table.channel.id)).id)  # type: ignore[union-attr]
    assert info.settings.lineup == own and info.odds is not None
    task = table.bot.odds.running.get(info.odds.key)
    assert task is not None and not task.done() and info.odds.key not in table.bot.odds.finished
    # The event loop is free meanwhile: another command is answered before the odds are in.
    rules = reply_text(await table.run(table.players[1], "rules"))
    assert rules and not task.done()
    await task
    assert table.bot.odds.finished == [info.odds.key]
    await table.delivered()
    post = post_text(table, lobby.id)
    assert t("lineup.odds_field", "en-US", games=GAMES) in post
    for faction in ("Lawful", "Neutral", "Chaotic"):
        assert f"{faction}: " in post and "95% interval" in post
    assert "Median game" in post
    odds = (await get_game(table.db, info.id)).odds
    assert odds is not None and odds.known and odds.games == GAMES
    # Kept: asked again, nothing is simulated again.
    again = reply_text(await table.run(table.mod, "mod lineup"))
    assert t("lineup.odds_field", "en-US", games=GAMES) in again and not table.bot.odds.running
    # A bad line-up: refused with the reason, nothing changed.
    refused = reply_text(await table.run(table.mod, "mod lineup", {"lineup": "paladin,cleric/rogue,rogue/ranger,bard"}))
    assert "Neutral names Rogue twice" in refused
    assert (await get_game(table.db, info.id)).settings.lineup == own
    # Dealt from the seed at the start, then fixed.
    await table.run(table.mod, "mod start")
    state = (await get_game(table.db, info.id)).status
    assert state == "running"
    fixed = reply_text(await table.run(table.mod, "mod lineup", {"lineup": "classic"}))
    assert "lineup is fixed once the game has started" in fixed
