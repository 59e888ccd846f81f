"""AI seats in the lobby as a moderator meets them: /mod settings ai_seats fills seats
named 🤖 on the lobby post; too many, or kicking one, is refused privately with a reason,
and nothing changes."""

from __future__ import annotations

import bot.service as service
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
    info = await service.get_game(table.db, game_id)
    assert info.settings.ai_seats == 4 and sum(1 for p in info.players if p.name.startswith("🤖")) == 4
    # An AI seat is not kicked: the settings say how many there are.
    ai_name = next(p.name for p in info.players if p.name.startswith("🤖"))
    kicked = await table.run(table.mod, "mod kick", {"player": ai_name})
    assert "is an AI seat" in reply_text(kicked) and "ai_seats" in reply_text(kicked), reply_text(kicked)
    assert len((await service.get_game(table.db, game_id)).players) == 6
    # Back to none.
    await table.run(table.mod, "mod settings", {"ai_seats": 0})
    await table.delivered()
    assert "🤖 " not in lobby_text(table)
    assert len((await service.get_game(table.db, game_id)).players) == 2
