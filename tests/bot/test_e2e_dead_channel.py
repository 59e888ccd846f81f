"""The real bot on the local Discord emulator: the dead stay quiet in the game channel and
talk in the dead channel, until the end gives them their voice back; the dead channel of
an earlier game, and the start-up check's order (the dawn post before the silencing)."""

from __future__ import annotations

from bot.features.lobby.games import get_game
from bot.features.moderation.moderation import pause_game
from tests.bot.conftest import Table, reply_text, started_game


async def test_moderator_errors_and_the_dead_stay_quiet(table: Table):
    await started_game(table)
    alice, bob = table.players[0], table.players[1]
    assert "Only a moderator" in reply_text(await table.run(bob, "phase advance", dm=True))
    assert "Only a moderator" in reply_text(await table.run(bob, "mod kick", {"player": "alice"}, dm=True))
    kicked = await table.run(table.mod, "mod kick", {"player": f"<@{alice.id}>"})
    assert "removed" in reply_text(kicked)
    await table.delivered()
    # alice may no longer write in the game channel, and may in the dead channel.
    dead = next(c for c in table.guild.channels.values() if c.topic and f"dead-of:{table.channel.id}" in c.topic)
    from discord_emulator import permissions as perm

    assert not table.emu.permissions_of(alice, table.channel) & perm.SEND_MESSAGES
    assert table.emu.permissions_of(alice, dead) & perm.SEND_MESSAGES
    assert not table.emu.permissions_of(bob, dead) & perm.VIEW_CHANNEL
    assert table.emu.permissions_of(bob, table.channel) & perm.SEND_MESSAGES
    # The dead are refused, in their own language.
    refused = reply_text(await table.run(alice, "grail", {"number": 5}, dm=True))
    assert "没有参加任何游戏" in refused, refused
    # Ending the game gives everyone their voice back and reveals the seed.
    confirm = await table.run(table.mod, "mod end")
    message = next(m for m in [confirm.message, *confirm.followups] if m and m.custom_ids())
    end_id = message.custom_ids()[0]
    assert end_id.startswith("wh:end:")
    assert "scored as if it had ended naturally" in reply_text(confirm)
    ended = await (await table.emu.click(table.mod, message, end_id)).wait(10)
    assert "ended" in reply_text(ended)
    await table.delivered()
    assert table.emu.permissions_of(alice, table.channel) & perm.SEND_MESSAGES
    # ...and closes the dead channel: it is for the dead of a running game only.
    assert not table.emu.permissions_of(alice, dead) & perm.VIEW_CHANNEL
    posts = table.emu.channel_messages(table.channel, include_ephemeral=False)
    public = table.texts(posts)
    assert any("Seed:" in t for t in public)
    # Scored, not cancelled: the moderator's end, then the scoreboard with its chart.
    board = next(m for m in posts if any("Game over" in (e.get("title") or "") for e in m.embeds))
    titles = [e.get("title") or "" for e in board.embeds]
    assert titles[0] == "🛑 A moderator has ended the game" and "a moderator ended the game" in table.texts([board])[0]
    assert board.attachments and board.attachments[0].filename == "scoreboard.png"
    info = await get_game(table.db, int(end_id.rsplit(":", 1)[1]))
    assert info.status == "over" and info.winners
    again = await (await table.emu.click(table.mod, message, end_id)).wait(10)
    assert "has ended" in reply_text(again)
    log = await table.run(table.mod, "mod log")
    files = [a for m in [log.message, *log.followups] if m for a in m.attachments]
    assert files and files[0].filename.endswith(".json")


async def test_a_player_who_died_in_an_earlier_game_cannot_read_this_games_dead(table: Table):
    """The dead channel is the same for every game of a channel. Someone who kept access
    from an earlier game (here: as if that game's end could not close it) loses it when
    they sit at a new game, and the new game's dead get it."""
    from discord_emulator import permissions as perm

    await started_game(table)
    alice, bob = table.players[0], table.players[1]
    dead = next(c for c in table.guild.channels.values() if c.topic and f"dead-of:{table.channel.id}" in c.topic)
    confirm = await table.run(table.mod, "mod end")
    message = next(m for m in [confirm.message, *confirm.followups] if m and m.custom_ids())
    await (await table.emu.click(table.mod, message, message.custom_ids()[0])).wait(10)
    await table.delivered()
    table.emu.set_permissions(dead, alice, allow=perm.VIEW_CHANNEL | perm.SEND_MESSAGES)
    await started_game(table)
    assert not table.emu.permissions_of(alice, dead) & perm.VIEW_CHANNEL
    await table.run(table.mod, "mod kick", {"player": "bob"})
    await table.delivered()
    assert table.emu.permissions_of(bob, dead) & perm.VIEW_CHANNEL
    assert not table.emu.permissions_of(alice, dead) & perm.VIEW_CHANNEL


async def test_at_start_up_a_death_is_not_shown_by_silencing_before_its_post(table: Table):
    """The start-up check has the dead of each live game silenced, but not while a post
    of that game still waits: the dawn post that names the night's dead must come first."""
    from bot.core.rules import state_of
    from bot.db import repositories as repo
    from discord_emulator import permissions as perm
    from tests.service.helpers import apply_state

    game_id = await started_game(table)
    bob = table.players[1]
    await table.stop_dispatcher()  # as if the bot had just started and sent nothing yet
    async with table.db.transaction() as s:
        game = await repo.get_game(s, game_id)
        state = state_of(game)
        state.player(2).hp, state.player(2).alive = -1, False
        apply_state(game, state)
    await pause_game(table.db, game_id)  # a post that waits
    await table.bot.resync()
    await table.bot.reconciler.run_once()
    assert table.emu.permissions_of(bob, table.channel) & perm.SEND_MESSAGES
    await table.bot.dispatcher.run_once()  # the post goes out; then the reconciler may act
    await table.bot.reconciler.run_once()  # (as it does after each of the dispatcher's passes)
    await table.emu.wait_for(lambda: not table.emu.permissions_of(bob, table.channel) & perm.SEND_MESSAGES, 5, "bob silenced")
