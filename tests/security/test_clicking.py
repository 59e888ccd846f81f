"""Clicking: a button's custom id names a game or a server, and a forged press can name
any. The service decides from who pressed, not from where the id came from: a finished
game's replay goes to those who sat in it or can see its channel, a server's leaderboard
to its members; anyone else is refused in their language and gets nothing."""

from __future__ import annotations

from bot.features.lobby.games import get_game
from bot.i18n import t
from discord_emulator import permissions as perm
from tests.bot.conftest import Table, reply_text, started_game
from tests.bot.test_replay_offer import files
from tests.security.forge import press
from tests.service.helpers import play_to_end


async def finished(table: Table) -> int:
    game_id = await started_game(table)
    await play_to_end(table.db, game_id)
    await table.delivered()
    return game_id


async def test_a_replay_button_forged_in_another_server_gives_nothing(table: Table) -> None:
    game_id = await finished(table)
    rival = table.emu.create_user("rival", locale="zh-CN")
    elsewhere = table.emu.create_guild("Rival Inn", owner=rival, channels=("bar",))
    bar = next(c for c in elsewhere.channels.values() if c.name == "bar")
    notice = await table.run(rival, "help", channel=bar)
    result = await press(table.emu, rival, notice.message, f"wh:replay:{game_id}").wait(20)
    assert result.ephemeral and t("svc.not_your_game", "zh-CN", game_id=game_id) in reply_text(result)
    assert files(result) == []


async def test_a_member_who_cannot_see_the_channel_gets_no_replay(table: Table) -> None:
    game_id = await finished(table)
    peeker = table.emu.create_user("peeker")
    table.emu.add_member(table.guild, peeker)
    table.emu.set_permissions(table.channel, peeker, deny=perm.VIEW_CHANNEL)
    await table.seen()
    general = next(c for c in table.guild.channels.values() if c.name == "general")
    notice = await table.run(peeker, "help", channel=general)
    result = await press(table.emu, peeker, notice.message, f"wh:replay:{game_id}").wait(20)
    assert t("svc.not_your_game", "en-US", game_id=game_id) in reply_text(result) and files(result) == []


async def test_a_player_who_cannot_see_the_channel_any_more_still_gets_their_game(table: Table) -> None:
    game_id = await finished(table)
    bob = table.players[1]
    table.emu.set_permissions(table.channel, bob, deny=perm.VIEW_CHANNEL)
    await table.seen()
    result = await press(table.emu, bob, (await table.run(bob, "help", dm=True)).message, f"wh:replay:{game_id}").wait(20)
    assert [f.filename for f in files(result)] == [f"wolfhowl-game-{game_id}.html"], reply_text(result)


async def test_a_leaderboard_button_forged_for_another_server_is_refused(table: Table) -> None:
    rival = table.emu.create_user("rival")
    elsewhere = table.emu.create_guild("Rival Inn", owner=rival, channels=("bar",))
    bar = next(c for c in elsewhere.channels.values() if c.name == "bar")
    notice = await table.run(rival, "help", channel=bar)
    result = await press(table.emu, rival, notice.message, f"wh:lb:{table.guild.id}:rating:1:1").wait(10)
    assert result.response_type != 7 and t("svc.board_not_member", "en-US") in reply_text(result)  # not turned into the board
    # The server's own members turn its pages as before.
    bob = table.players[1]
    own = await table.run(bob, "help")
    page = await press(table.emu, bob, own.message, f"wh:lb:{table.guild.id}:rating:1:1").wait(10)
    assert page.response_type == 7 and "Leaderboard" in reply_text(page)  # the message turned to the board


async def test_an_end_button_forged_by_another_servers_owner_ends_nothing(table: Table) -> None:
    game_id = await started_game(table)
    rival = table.emu.create_user("rival")
    elsewhere = table.emu.create_guild("Rival Inn", owner=rival, channels=("bar",))  # Manage Server there
    bar = next(c for c in elsewhere.channels.values() if c.name == "bar")
    notice = await table.run(rival, "help", channel=bar)
    for custom_id in (f"wh:end:{game_id}", f"wh:cancel:{game_id}"):
        result = await press(table.emu, rival, notice.message, custom_id).wait(10)
        assert t("reply.error.not_moderator", "en-US") in reply_text(result), reply_text(result)
    assert (await get_game(table.db, game_id)).status == "running"


async def _records_of(table: Table, user_id: int) -> tuple[int, int]:
    """The seat records and game rows that carry ``user_id``."""
    from sqlalchemy import func, select

    from bot.db.models import GamePlayer, SeatRecord

    async with table.db.read() as s:
        records = (await s.execute(select(func.count()).select_from(SeatRecord).where(SeatRecord.user_id == user_id))).scalar_one()
        rows = (await s.execute(select(func.count()).select_from(GamePlayer).where(GamePlayer.user_id == user_id))).scalar_one()
    return int(records), int(rows)


async def test_a_forget_button_forged_for_someone_else_forgets_nobody(table: Table) -> None:
    await finished(table)
    victim = table.players[1]
    before = await _records_of(table, victim.id)
    assert before == (1, 1)
    mallory = table.emu.create_user("mallory", locale="zh-CN")
    table.emu.add_member(table.guild, mallory)
    for where in ({"channel": table.channel}, {"dm": True}):
        notice = await table.run(mallory, "help", **where)
        result = await press(table.emu, mallory, notice.message, f"wh:forget:{victim.id}").wait(10)
        assert result.ephemeral and t("svc.forget_not_yours", "zh-CN") in reply_text(result), reply_text(result)
    assert await _records_of(table, victim.id) == before
    # The one it names still can.
    own = await press(table.emu, victim, (await table.run(victim, "help", dm=True)).message, f"wh:forget:{victim.id}").wait(10)
    assert t("stats.forgotten", victim.locale, count=1) in reply_text(own), reply_text(own)
    assert await _records_of(table, victim.id) == (0, 0)
