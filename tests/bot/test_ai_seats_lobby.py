"""AI seats in the lobby as a moderator meets them: /mod settings ai_seats fills seats
named 🤖 on the lobby post; too many, or kicking one, is refused privately with a reason,
and nothing changes."""

from __future__ import annotations

from bot.features.lobby.games import get_game
from tests.bot.conftest import Table, open_lobby, reply_text


def lobby_text(table: Table) -> str:
    posts = [m for m in table.emu.channel_messages(table.channel, include_ephemeral=False) if m.custom_ids()]
    return "\n".join(table.texts([posts[-1]]))


async def test_the_moderator_fills_and_empties_ai_seats(table: Table):
    lobby, join_id = await open_lobby(table)
    game_id = int(join_id.rsplit(":", 1)[1])
    for p in table.players[:2]:
        await (await table.emu.click(p, lobby, join_id)).wait(10)
    answer = await table.run(table.mod, "mod settings", {"ai_seats": 4})
    assert "AI seats (🤖): 4" in reply_text(answer)
    await table.delivered()
    assert lobby_text(table).count("🤖 ") == 4
    # Too many for the two who joined: refused, privately, nothing saved.
    refused = await table.run(table.mod, "mod settings", {"ai_seats": 14})
    assert refused.message.ephemeral and "Too many AI seats: at most 13" in reply_text(refused), reply_text(refused)
    info = await get_game(table.db, game_id)
    assert info.settings.ai_seats == 4 and sum(1 for p in info.players if p.name.startswith("🤖")) == 4
    # An AI seat is not kicked: the settings say how many there are.
    ai_name = next(p.name for p in info.players if p.name.startswith("🤖"))
    kicked = await table.run(table.mod, "mod kick", {"player": ai_name})
    assert "is an AI seat" in reply_text(kicked) and "ai_seats" in reply_text(kicked), reply_text(kicked)
    assert len((await get_game(table.db, game_id)).players) == 6
    # Back to none.
    await table.run(table.mod, "mod settings", {"ai_seats": 0})
    await table.delivered()
    assert "🤖 " not in lobby_text(table)
    assert len((await get_game(table.db, game_id)).players) == 2


async def test_a_lobby_fills_the_table_to_a_target_as_people_join_and_leave(table: Table):
    """fill_to, chosen as the lobby opens: the lobby post and /mod status name the AI seats
    and the target; each person who joins takes an AI seat's place, one who leaves gives
    it back."""
    lobby, join_id = await open_lobby(table, fill_to=8)
    game_id = int(join_id.rsplit(":", 1)[1])
    assert lobby_text(table).count("🤖 ") == 7
    assert "AI seats (🤖): 7, filling the table to 8 players" in lobby_text(table)
    for p in table.players[:3]:
        await (await table.emu.click(p, lobby, join_id)).wait(10)
    await table.delivered()
    text = lobby_text(table)
    assert text.count("🤖 ") == 5 and "AI seats (🤖): 5, filling the table to 8 players" in text, text
    status = reply_text(await table.run(table.mod, "mod status"))
    assert "AI seats (🤖): 5, filling the table to 8 players" in status, status
    await table.run(table.players[2], "game leave")
    await table.delivered()
    assert lobby_text(table).count("🤖 ") == 6
    info = await get_game(table.db, game_id)
    assert info.settings.fill_to == 8 and len(info.players) == 8


async def test_a_lobby_takes_a_fixed_count_and_refuses_both_at_once(table: Table):
    _, join_id = await open_lobby(table)
    game_id = int(join_id.rsplit(":", 1)[1])
    refused = await table.run(table.mod, "mod settings", {"ai_seats": 3, "fill_to": 9})
    assert refused.message.ephemeral and "either `ai_seats:`" in reply_text(refused), reply_text(refused)
    # In Chinese, a target below the smallest game.
    refused = await table.emu.slash(table.mod, "mod settings", {"fill_to": 4}, channel=table.channel, locale="zh-CN")
    text = reply_text(await refused.wait(10))
    assert "ai补足到" in text and "6到15人" in text, text
    info = await get_game(table.db, game_id)
    assert (info.settings.ai_seats, info.settings.fill_to, info.players) == (0, 0, ())
    await table.run(table.mod, "mod settings", {"ai_seats": 3})
    await table.delivered()
    assert lobby_text(table).count("🤖 ") == 3 and "AI seats (🤖): 3" in lobby_text(table)
    # Switched to a target in the lobby: the fixed count is off.
    answer = reply_text(await table.run(table.mod, "mod settings", {"fill_to": 10}))
    assert "AI seats (🤖): 9, filling the table to 10 players" in answer, answer
    await table.delivered()
    assert lobby_text(table).count("🤖 ") == 9
