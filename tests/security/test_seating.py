"""Seating: nobody outside the game's server, or who cannot read its channel, takes part
in it — not by the standby list from a DM, not by accepting a seat after leaving the
server, not by being named by a moderator, not by a join button pressed elsewhere. Each
attack is refused with the sender's own localized text and changes nothing."""

from __future__ import annotations

from sqlalchemy import func, select

from bot.db.models import GamePlayer, Standby
from bot.i18n import t
from discord_emulator import permissions as perm
from tests.bot.conftest import Table, open_lobby, reply_text, started_game
from tests.security.forge import press


async def count(table: Table, model: type) -> int:
    async with table.db.read() as s:
        return int((await s.execute(select(func.count()).select_from(model))).scalar_one())


def refused(result: object, key: str, locale: str = "en-US", **params: object) -> None:
    text = reply_text(result)
    assert getattr(result, "ephemeral", False), text
    assert t(f"svc.{key}", locale, **params).split("{")[0][:30] in text, (key, text)


async def test_a_stranger_cannot_stand_by_from_a_dm(table: Table) -> None:
    game_id = await started_game(table)
    mallory = table.emu.create_user("mallory")  # in no server of the bot's
    before = await count(table, Standby)
    result = await table.run(mallory, "standby join", {"game": game_id}, dm=True)
    refused(result, "not_server_member", game_id=game_id)
    assert await count(table, Standby) == before


async def test_a_member_who_cannot_see_the_channel_cannot_stand_by(table: Table) -> None:
    game_id = await started_game(table)
    outsider = table.emu.create_user("outsider", locale="zh-CN")
    table.emu.add_member(table.guild, outsider)
    table.emu.set_permissions(table.channel, outsider, deny=perm.VIEW_CHANNEL)
    await table.seen()
    result = await table.run(outsider, "standby join", {"game": game_id}, dm=True)
    text = reply_text(result)
    assert f"第{game_id}局" in text and "看不到" in text, text
    assert await count(table, Standby) == 0
    # Given the channel back, the same member may.
    table.emu.set_permissions(table.channel, outsider, allow=perm.VIEW_CHANNEL)
    await table.seen()
    ok = await table.run(outsider, "standby join", {"game": game_id}, dm=True)
    assert await count(table, Standby) == 1, reply_text(ok)


async def test_a_standby_who_left_the_server_cannot_accept_the_seat(table: Table) -> None:
    game_id = await started_game(table)
    sub = table.emu.create_user("sub")
    table.emu.add_member(table.guild, sub)
    await table.seen()
    joined = await table.run(sub, "standby join", {"game": game_id}, dm=True)
    assert await count(table, Standby) == 1, reply_text(joined)
    seat_of_bob = 2
    offered = await table.run(table.mod, "mod replace", {"player": str(seat_of_bob)})
    assert "sub" in reply_text(offered), reply_text(offered)
    await table.delivered()
    offer = next(m for m in table.emu.channel_messages(table.emu.dm_channel(sub)) if any(c.startswith("wh:offer:") for c in m.custom_ids()))
    holders = await _holders(table, game_id)

    table.emu.remove_member(table.guild, sub)  # gone before pressing Accept
    await table.seen()
    result = await (await table.emu.click(sub, offer, next(c for c in offer.custom_ids() if c.startswith("wh:offer:")))).wait(10)
    refused(result, "not_server_member", game_id=game_id)
    assert await _holders(table, game_id) == holders


async def test_a_moderator_cannot_seat_someone_who_cannot_see_the_channel(table: Table) -> None:
    game_id = await started_game(table)
    hidden = table.emu.create_user("hidden")
    table.emu.add_member(table.guild, hidden)
    table.emu.set_permissions(table.channel, hidden, deny=perm.VIEW_CHANNEL)
    await table.seen()
    holders = await _holders(table, game_id)
    result = await table.run(table.mod, "mod replace", {"player": "2", "newcomer": hidden})
    text = reply_text(result)
    assert f"<@{hidden.id}>" in text and f"game #{game_id}" in text and "cannot see" in text, text
    assert await _holders(table, game_id) == holders


async def test_a_join_button_pressed_from_another_server_seats_nobody(table: Table) -> None:
    lobby, join_id = await open_lobby(table)
    rival = table.emu.create_user("rival")
    elsewhere = table.emu.create_guild("Rival Inn", owner=rival, channels=("bar",))
    bar = next(c for c in elsewhere.channels.values() if c.name == "bar")
    notice = await table.run(rival, "help", channel=bar)  # any message of the bot's there
    before = await count(table, GamePlayer)
    result = await press(table.emu, rival, notice.message, join_id).wait(10)
    refused(result, "not_server_member", game_id=int(join_id.rsplit(":", 1)[1]))
    assert await count(table, GamePlayer) == before
    # Neither the pressed message nor the real lobby post was rewritten.
    assert not table.emu.ctx.world.messages[notice.message.id].revisions
    assert not table.emu.ctx.world.messages[lobby.id].revisions


async def test_a_member_who_cannot_see_the_channel_cannot_press_join(table: Table) -> None:
    _, join_id = await open_lobby(table)
    peeker = table.emu.create_user("peeker")
    table.emu.add_member(table.guild, peeker)
    general = next(c for c in table.guild.channels.values() if c.name == "general")
    table.emu.set_permissions(table.channel, peeker, deny=perm.VIEW_CHANNEL)
    await table.seen()
    notice = await table.run(peeker, "help", channel=general)
    result = await press(table.emu, peeker, notice.message, join_id).wait(10)
    refused(result, "cannot_see_channel", game_id=int(join_id.rsplit(":", 1)[1]), channel=f"<#{table.channel.id}>")
    assert await count(table, GamePlayer) == 0


async def _holders(table: Table, game_id: int) -> dict[int, int | None]:
    async with table.db.read() as s:
        rows = (await s.execute(select(GamePlayer.seat, GamePlayer.user_id).where(GamePlayer.game_id == game_id, GamePlayer.seat.is_not(None)))).all()
    return {seat: user for seat, user in rows}
