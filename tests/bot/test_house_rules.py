"""House rules through Discord: chosen in the lobby with /mod house_rules, shown in the
lobby post, /mod settings and /rules, fixed once the classes are dealt; /mod create and
/mod settings do not offer them."""

from __future__ import annotations

from bot.features.lobby.games import get_game, latest_game_in_channel
from bot.i18n import t
from tests.bot.conftest import Table, open_lobby, reply_text


def line(rule: str, value: str, loc: str = "en-US") -> str:
    return t(f"reply.settings.{rule}", loc, value=t(f"cmd.choice.{rule}_{value}", loc))


async def test_house_rules_are_chosen_shown_and_fixed_at_the_start(table: Table):
    lobby, join_id = await open_lobby(table)
    chosen = reply_text(await table.run(table.mod, "mod house_rules", {"killing_blow": "killer_takes"}))
    assert line("killing_blow", "killer_takes") in chosen
    await table.delivered()
    post = table.texts([table.emu.ctx.world.messages[lobby.id]])[0]
    assert line("killing_blow", "killer_takes") in post
    assert line("departures", "dawn") in post and line("vote_damage", "public") in post
    changed = reply_text(await table.run(table.mod, "mod house_rules", {"departures": "morning", "vote_damage": "private"}))
    assert line("departures", "morning") in changed and line("vote_damage", "private") in changed
    await table.delivered()
    post = table.texts([table.emu.ctx.world.messages[lobby.id]])[0]
    assert line("departures", "morning") in post  # the lobby post follows
    for p in table.players[:6]:
        await (await table.emu.click(p, lobby, join_id)).wait(10)
    await table.run(table.mod, "mod start")
    game = await latest_game_in_channel(table.db, table.channel.id)
    assert game is not None
    # A player reads the game's house rules with /rules, in their language.
    alice, bob = table.players[0], table.players[1]
    shown = reply_text(await table.run(bob, "rules"))
    assert t("rules.this_game", "en-US", game=game.id) in shown and line("killing_blow", "killer_takes") in shown
    assert line("departures", "morning", "zh-CN") in reply_text(await table.run(alice, "rules", {"topic": "房规"}, dm=True))
    # Once the classes are dealt a house rule is fixed: refused, nothing saved.
    refused = reply_text(await table.run(table.mod, "mod house_rules", {"killing_blow": "steal"}))
    assert "killing_blow is fixed once the game has started" in refused
    assert (await get_game(table.db, game.id)).settings.killing_blow == "killer_takes"
