"""A game whose channel disappears — deleted by someone, or the bot kicked from the server
— is cancelled, and the players and the moderator learn it by DM, with the seed; other
games go on."""

from __future__ import annotations

import asyncio
import hashlib

from bot.features.lobby.games import game_in_channel, get_game
from bot.features.me.inbox import read_inbox
from bot.features.replay.export import export_game
from tests.bot.conftest import Table, open_lobby, reply_text, started_game


def dm_texts(table: Table, user) -> list[str]:
    return table.texts(table.emu.dms(user))


async def test_deleting_the_game_channel_cancels_the_game_and_tells_everyone_by_dm(table: Table):
    game_id = await started_game(table)
    alice, bob = table.players[0], table.players[1]
    before = {p.username: len(table.emu.dms(p)) for p in (alice, bob, table.mod)}
    table.emu.delete_channel(table.channel)
    await table.emu.wait_for(lambda: len(table.emu.dms(table.mod)) > before["gm"], 10, "the moderator's DM")
    await table.delivered()
    info = await get_game(table.db, game_id)
    assert info.status == "cancelled" and not info.winners
    seed = (await export_game(table.db, game_id))["game"]["seed"]
    assert hashlib.sha256(seed.encode()).hexdigest() == info.seed_sha256
    for who, lang_word in ((bob, "its channel was deleted"), (table.mod, "its channel was deleted"), (alice, "游戏频道已被删除")):
        news = dm_texts(table, who)[before.get(who.username, 0):]
        assert any(lang_word in t and seed in t for t in news), (who.username, news)
    # The players are free: a new game elsewhere is possible, and their commands say so.
    assert "not in any game" in reply_text(await table.run(bob, "me", dm=True))


async def test_a_lobby_whose_channel_is_deleted_tells_those_who_had_joined(table: Table):
    lobby, join_id = await open_lobby(table)
    alice, bob = table.players[0], table.players[1]
    for p in (alice, bob):
        await (await table.emu.click(p, lobby, join_id)).wait(10)
    before = {p.username: len(table.emu.dms(p)) for p in (alice, bob, table.mod)}
    table.emu.delete_channel(table.channel)
    await table.emu.wait_for(lambda: len(table.emu.dms(table.mod)) > before["gm"], 10, "the moderator's DM")
    await table.delivered()
    for who, lang_word in ((bob, "its channel was deleted"), (alice, "游戏频道已被删除")):
        news = dm_texts(table, who)[before[who.username]:]
        assert any(lang_word in t for t in news), (who.username, news)
    assert "not in any game" in reply_text(await table.run(bob, "me", dm=True))


async def test_the_bot_kicked_from_the_server_cancels_its_games_there_only(table: Table):
    """Once kicked, the bot shares no server with the players, so Discord refuses its DMs
    (50007): the notice waits in each one's inbox, as any undeliverable DM does."""
    game_id = await started_game(table)
    other_guild = table.emu.create_guild("Elsewhere", owner=table.mod, channels=("hall",))
    table.emu.remove_bot(other_guild)  # not this game's server: nothing happens to it
    await table.delivered()
    assert (await get_game(table.db, game_id)).status == "running"
    table.emu.remove_bot(table.guild)
    for _ in range(200):
        if (await get_game(table.db, game_id)).status == "cancelled":
            break
        await asyncio.sleep(0.05)
    await table.delivered()
    assert (await get_game(table.db, game_id)).status == "cancelled"
    for who in (table.mod, *table.players[:6]):
        notices = [m for m in await read_inbox(table.db, who.id, mark_read=False) if m.payload["type"] == "game_cancelled"]
        assert len(notices) == 1 and notices[0].payload["seed"], who.username


async def restarted(table: Table) -> asyncio.Task[None]:
    """A new bot process on the same database, connected and ready (the old one closed)."""
    from bot.db.session import Database
    from bot.discord.client import WolfBot
    from tests.bot.conftest import start_bot

    fresh = WolfBot(table.bot.config, db=Database(table.bot.config.database_url, clock=table.clock))
    task = await start_bot(fresh, table.emu.token)
    table.bot = fresh
    return task


async def status_once_settled(table: Table, game_id: int, wanted: str) -> str:
    for _ in range(200):
        status = (await get_game(table.db, game_id)).status
        if status == wanted:
            break
        await asyncio.sleep(0.05)
    return status


async def test_a_channel_deleted_while_the_bot_was_down_is_found_at_start_up(table: Table):
    game_id = await started_game(table)
    other = table.emu.create_text_channel(table.guild, "annex")
    await table.run(table.mod, "mod create", channel=other)  # a lobby whose channel stays
    kept = await game_in_channel(table.db, other.id)
    await table.bot.close()
    table.emu.delete_channel(table.channel)  # nobody is connected to see it go
    task = await restarted(table)
    try:
        assert await status_once_settled(table, game_id, "cancelled") == "cancelled"
        assert (await get_game(table.db, kept.id)).status == "lobby"
        await table.delivered()
        assert any("its channel was deleted" in t for t in dm_texts(table, table.mod))
    finally:
        task.cancel()


async def test_a_kick_while_the_bot_was_down_is_found_at_start_up_but_an_outage_is_not(table: Table):
    game_id = await started_game(table)
    far = table.emu.create_guild("Far", owner=table.mod, channels=("hall",))
    hall = next(c for c in far.channels.values() if c.name == "hall")
    await table.run(table.mod, "mod create", channel=hall)
    elsewhere = await game_in_channel(table.db, hall.id)
    await table.bot.close()
    table.emu.remove_bot(table.guild)  # kicked while nobody is connected
    table.emu.set_outage(far)  # listed as unavailable at the next start: proves nothing
    task = await restarted(table)
    try:
        assert await status_once_settled(table, game_id, "cancelled") == "cancelled"
        assert (await get_game(table.db, elsewhere.id)).status == "lobby"
        await table.delivered()
        # bob shares no server with the bot any more: the notice waits in his inbox.
        bob = table.players[1]
        notices = [m for m in await read_inbox(table.db, bob.id, mark_read=False) if m.payload["type"] == "game_cancelled"]
        assert len(notices) == 1 and notices[0].payload["seed"]
        # The outage ends: the lobby there is still open and answers.
        table.emu.set_outage(far, False)
        await table.emu.wait_for(lambda: table.bot.get_guild(far.id) and not table.bot.get_guild(far.id).unavailable, 10, "the server back")
        assert "the lobby" in reply_text(await table.run(table.mod, "mod status", channel=hall))
    finally:
        task.cancel()
