"""/mod settings in the lobby keeps the lobby post true; /mod replace seats only a member
of the game's server."""

from __future__ import annotations

from bot.features.lobby.games import get_game
from discord_emulator import permissions as perm
from tests.bot.conftest import Table, open_lobby, reply_text, started_game


async def test_settings_in_the_lobby_update_the_lobby_post_at_once(table: Table):
    lobby, join_id = await open_lobby(table)
    for p in table.players[:3]:
        await (await table.emu.click(p, lobby, join_id)).wait(10)
    before = table.texts([table.emu.ctx.world.messages[lobby.id]])[0]
    assert "6–15 players" in before

    await table.run(table.mod, "mod settings", {"max_players": 7, "language": "zh-CN"})
    post = table.texts([table.emu.ctx.world.messages[lobby.id]])[0]
    assert "6–7" in post and "狼嚎酒馆" in post, post  # the new limit, in the game's new language
    assert "alice" in post and "carol" in post  # the roster is still there


async def test_replace_refuses_a_newcomer_who_is_not_in_the_server(table: Table):
    game_id = await started_game(table)
    outsider = table.emu.create_user("outsider")  # never added to the server
    before = await get_game(table.db, game_id)
    answer = await table.run(table.mod, "mod replace", {"player": "dave", "newcomer": outsider})
    assert answer.ephemeral
    assert f"<@{outsider.id}> is not a member of game #{game_id}'s server" in reply_text(answer)
    after = await get_game(table.db, game_id)
    assert after.players == before.players and after.version == before.version
    await table.delivered()
    assert table.emu.dms(outsider) == []

    # In the moderator's language; a member who is free takes the seat as before.
    zh_mod = table.emu.create_user("主持", locale="zh-CN")
    table.emu.add_member(table.guild, zh_mod)
    table.emu.give_role(table.guild, zh_mod, table.emu.create_role(table.guild, "主持人", permissions=perm.MANAGE_GUILD))
    refused = reply_text(await table.run(zh_mod, "mod replace", {"player": "dave", "newcomer": outsider}))
    assert f"<@{outsider.id}>不是第{game_id}局所在服务器的成员" in refused, refused
    grace = table.players[6]
    assert f"<@{grace.id}>" in reply_text(await table.run(table.mod, "mod replace", {"player": "dave", "newcomer": grace}))
    assert any(p.user_id == grace.id for p in (await get_game(table.db, game_id)).players)


async def test_the_player_whose_seat_is_handed_over_is_told_by_dm_in_their_language(table: Table):
    game_id = await started_game(table)
    dave, erin = table.players[3], table.players[4]  # dave reads Chinese
    newcomer = table.players[6]
    await table.run(table.mod, "mod replace", {"player": "dave", "newcomer": newcomer})
    await table.run(table.mod, "mod replace", {"player": "erin", "newcomer": _member(table, "heidi")})
    await table.delivered()
    told = table.texts([m for m in table.emu.dms(dave) if m.interaction_id is None])[-1]
    assert f"第{game_id}局" in told and "4号座位" in told and newcomer.username in told, told
    told_en = table.texts([m for m in table.emu.dms(erin) if m.interaction_id is None])[-1]
    assert f"your seat in game #{game_id} (seat 5) to heidi" in told_en and "may join another game" in told_en
    # Only the public line reaches the channel.
    public = "\n".join(table.texts(table.emu.channel_messages(table.channel, include_ephemeral=False)))
    assert "your seat" not in public and "heidi takes over seat 5 from erin" in public


def _member(table: Table, name: str):
    user = table.emu.create_user(name)
    table.emu.add_member(table.guild, user)
    return user
