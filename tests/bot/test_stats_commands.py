"""/stats and /leaderboard as members meet them on the local Discord: nothing to see
while the game is live, the record once it has ended (privately, or posted on request,
with its chart), a hidden profile refused to others and off the board, the board's page
buttons, its bad pages, and forgetting one's records behind a confirmation."""

from __future__ import annotations

from typing import Any

from sqlalchemy import func, select

from bot.core.types import GameSettings, UserRef
from bot.db.models import SeatRecord
from bot.features.lobby.games import create_game, join_game, start_game
from tests.bot.conftest import Table, reply_text, started_game
from tests.bot.test_orphans import restarted
from tests.service.helpers import play_to_end, sees


def _with_buttons(result: Any) -> Any:
    return next(m for m in [result.message, *result.followups] if m is not None and m.custom_ids())


async def _finished_game(table: Table) -> int:
    game_id = await started_game(table)
    await play_to_end(table.db, game_id)
    await table.delivered()
    return game_id


async def _more_players(table: Table, count: int, first: int) -> None:
    """``count`` more people with a finished game in this server (two tables of them)."""
    for start in range(first, first + count, 6):
        info = await create_game(
            table.db, guild_id=table.guild.id, channel_id=table.channel.id, moderator=UserRef(table.mod.id, "gm"),
            settings=GameSettings.build(), seed=f"more-players-{start}",
        )
        for i in range(start, start + 6):
            await join_game(table.db, info.id, UserRef(900_000 + i, f"guest{i}"), await sees(table.db, info.id, UserRef(900_000 + i, f"guest{i}")))
        await start_game(table.db, info.id)
        await play_to_end(table.db, info.id)


async def test_stats_say_nothing_during_the_game_and_everything_after(table: Table) -> None:
    alice, bob, carol = table.players[:3]  # alice reads Chinese
    game_id = await started_game(table)
    live = await table.run(bob, "stats view")
    assert live.ephemeral and "no finished games here yet" in reply_text(live)
    await play_to_end(table.db, game_id)
    await table.delivered()

    mine = await table.run(bob, "stats view")
    text = reply_text(mine)
    assert mine.ephemeral and "bob's record" in text and "**1** game" in text and "Last games" in text
    assert f"#{game_id}" in text and "The 95% interval shows from 5 games on." in text
    png = [a for m in [mine.message, *mine.followups] if m for a in m.attachments if a.filename == "stats.png"]
    assert png and png[0].data.startswith(b"\x89PNG")
    zh = reply_text(await table.run(alice, "stats view", {"player": bob}))
    assert "bob的战绩" in zh and "最近对局" in zh
    everywhere = reply_text(await table.run(carol, "stats view", {"all_servers": True}, dm=True))
    assert "In every server" in everywhere and "carol's record" in everywhere

    before = len(table.emu.channel_messages(table.channel, include_ephemeral=False))
    posted = await table.run(carol, "stats view", {"public": True})
    assert not posted.ephemeral
    public = table.emu.channel_messages(table.channel, include_ephemeral=False)
    assert len(public) == before + 1 and "carol's record" in table.texts(public[-1:])[0]


async def test_a_hidden_profile_and_bad_input_get_a_private_refusal(table: Table) -> None:
    alice, bob, carol = table.players[:3]
    await _finished_game(table)
    assert "hidden now" in reply_text(await table.run(bob, "stats hide"))
    assert "already hidden" in reply_text(await table.run(bob, "stats hide"))
    before = len(table.emu.channel_messages(table.channel, include_ephemeral=False))
    refused = await table.run(carol, "stats view", {"player": bob, "public": True})
    assert refused.ephemeral and reply_text(refused).endswith("bob keeps their stats private.")
    assert "bob没有公开自己的战绩" in reply_text(await table.run(alice, "stats view", {"player": bob}))
    assert len(table.emu.channel_messages(table.channel, include_ephemeral=False)) == before  # nothing posted
    assert "bob's record" in reply_text(await table.run(bob, "stats view"))  # their own, always
    board = reply_text(await table.run(carol, "leaderboard", {"sort": "games"}))
    assert "carol" in board and "bob" not in board
    # A stranger with no games; a page that is not there; the board outside a server.
    stranger = table.emu.create_user("zed")
    table.emu.add_member(table.guild, stranger)
    assert "zed has no finished games here yet" in reply_text(await table.run(carol, "stats view", {"player": stranger}))
    out = await table.run(carol, "leaderboard", {"page": 3})
    assert out.ephemeral and "There is no page 3: the leaderboard has 1." in reply_text(out)
    assert "没有第3页" in reply_text(await table.run(alice, "leaderboard", {"page": 3}))
    assert reply_text(await table.run(carol, "leaderboard", dm=True)).endswith("This works only in a server channel.")
    assert "bob" not in reply_text(await table.run(carol, "leaderboard"))
    assert "can be seen again" in reply_text(await table.run(bob, "stats show"))
    assert "bob" in reply_text(await table.run(carol, "leaderboard", {"sort": "games"}))


async def test_leaderboard_pages_by_buttons_with_the_callers_row(table: Table) -> None:
    await _finished_game(table)
    await _more_players(table, 12, 1)
    carol = table.players[2]
    first = await table.run(carol, "leaderboard", {"sort": "win_rate", "min_games": 1})
    text = reply_text(first)
    assert "Page 1 of 2 · 18 players" in text and "Ranked by win rate from 1 games on." in text
    ids = _with_buttons(first).custom_ids()
    assert ids == [f"wh:lb:{table.guild.id}:win_rate:1:0", f"wh:lb:{table.guild.id}:win_rate:1:2"]
    pressed = await table.emu.click(carol, _with_buttons(first), ids[1])
    await pressed.wait(10)
    edited = table.emu.ctx.world.messages[_with_buttons(first).id]
    page2 = table.texts([edited])[0]
    assert edited.embeds[0]["footer"]["text"] == "Page 2 of 2 · 18 players"
    assert "**11.**" in page2 and "**18.**" in page2 and "**10.**" not in page2
    # The caller's own row comes with a page that does not hold it, and only then.
    rank = page2.split(" carol —")[0].rsplit("**", 2)[-2]  # carol is on page 2 (seeded games)
    assert f"Your place: **{rank}** carol —" in text and "Your place" not in page2
    assert edited.custom_ids() == [f"wh:lb:{table.guild.id}:win_rate:1:1", f"wh:lb:{table.guild.id}:win_rate:1:3"]
    # Ranked by games with 5 needed for win rate: nobody has 5, so nobody is on that board.
    empty = reply_text(await table.run(carol, "leaderboard", {"sort": "win_rate"}))
    assert "Nobody is ranked here yet" in empty and "Page 1 of 1" in empty
    # The bot restarts: the old message's buttons still turn its pages.
    await table.bot.close()
    task = await restarted(table)
    try:
        back = await table.emu.click(carol, edited, f"wh:lb:{table.guild.id}:win_rate:1:1")
        await back.wait(10)
        again = table.emu.ctx.world.messages[edited.id]
        assert again.embeds[0]["footer"]["text"] == "Page 1 of 2 · 18 players"
        assert "**1.**" in table.texts([again])[0] and f"Your place: **{rank}** carol —" in table.texts([again])[0]
    finally:
        task.cancel()


async def test_forget_needs_the_users_own_confirmation(table: Table) -> None:
    alice, bob, carol = table.players[:3]
    game_id = await _finished_game(table)
    asked = await table.run(bob, "stats forget")
    assert "Are you sure?" in reply_text(asked)
    message = _with_buttons(asked)
    assert message.custom_ids() == [f"wh:forget:{bob.id}"]
    async with table.db.read() as s:
        mine = await s.scalar(select(func.count()).select_from(SeatRecord).where(SeatRecord.user_id == bob.id))
    assert mine == 1
    assert "bob's record" in reply_text(await table.run(bob, "stats view"))  # asking deleted nothing
    done = await table.emu.click(bob, message, f"wh:forget:{bob.id}")
    await done.wait(10)
    assert "Done: 1 record no longer names you" in reply_text(done)
    assert "no finished games" in reply_text(await table.run(bob, "stats view"))
    async with table.db.read() as s:
        seats = (await s.execute(select(SeatRecord).where(SeatRecord.game_id == game_id))).scalars().all()
    assert len(seats) == 6 and sum(r.user_id is None for r in seats) == 1  # the seat stays, without bob
    assert "bob" not in reply_text(await table.run(alice, "leaderboard", {"sort": "games"}))
    # The game itself forgets him: its history names his seat "a former player".
    history = reply_text(await table.run(carol, "game history"))
    assert f"**#{game_id}**" in history and "bob" not in history and "a former player" in history and "alice" in history
    assert "一位前玩家" in reply_text(await table.run(alice, "game history"))


async def test_forget_waits_for_the_end_of_the_players_game(table: Table) -> None:
    """Bob, still at a table, is told to wait for its end; nothing of his is forgotten."""
    bob = table.players[1]
    await _finished_game(table)
    live = await started_game(table)
    asked = await table.run(bob, "stats forget")
    done = await table.emu.click(bob, _with_buttons(asked), f"wh:forget:{bob.id}")
    await done.wait(10)
    assert f"You are still in game #{live}" in reply_text(done) and done.ephemeral
    assert "bob's record" in reply_text(await table.run(bob, "stats view"))
    assert "bob" in reply_text(await table.run(bob, "game history"))
