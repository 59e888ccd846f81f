"""The real bot on the local Discord emulator, the moderator's tools: settings, pause,
extend, replace, a player leaving the lobby, the rules; and what the bot posts at the end
(the scoreboard with its chart, the seed, the log)."""

from __future__ import annotations

from tests.bot.conftest import Table, open_lobby, reply_text, started_game


async def test_moderator_tools_settings_pause_extend_replace_leave_and_rules(table: Table):
    alice, bob, carol, dave, erin, frank, grace = table.players
    lobby, join_id = await open_lobby(table, day="1h")
    for p in (alice, bob, carol, dave, erin, frank, grace):
        await (await table.emu.click(p, lobby, join_id)).wait(10)
    left = await (await table.emu.click(grace, lobby, lobby.custom_ids()[1])).wait(10)
    assert "left game" in reply_text(left)
    assert "grace" not in table.texts([table.emu.ctx.world.messages[lobby.id]])[0]
    # Settings: shown, changed in the lobby, a bad duration refused with the range.
    shown = reply_text(await table.run(table.mod, "mod settings"))
    assert "Day 1h" in shown and "The dead stay quiet: yes" in shown
    changed = reply_text(await table.run(table.mod, "mod settings", {"dusk": "90m", "vote_tie": "nobody", "language": "zh-CN"}))
    assert "Dusk 1h 30m" in changed and "nobody is hurt" in changed and "中文" in changed
    assert "not a duration" in reply_text(await table.run(table.mod, "mod settings", {"day": "soon"}))
    await table.run(table.mod, "mod start")
    await table.delivered()
    public = table.texts(table.emu.channel_messages(table.channel, include_ephemeral=False))
    assert any("游戏开始" in t for t in public)  # the game's language is now Chinese
    # Rules that fix the game cannot change once it runs; the lengths can.
    assert "vote_tie is fixed once the game has started" in reply_text(await table.run(table.mod, "mod settings", {"vote_tie": "all"}))
    assert "Morning 2h" in reply_text(await table.run(table.mod, "mod settings", {"morning": "2h"}))
    # Pause: submissions refused; extend while paused; resume.
    assert "paused" in reply_text(await table.run(table.mod, "phase pause"))
    assert "paused" in reply_text(await table.run(bob, "grail", {"number": 3}, dm=True))
    assert "added to the paused clock" in reply_text(await table.run(table.mod, "phase extend", {"duration": "30m"}))
    assert "resumes" in reply_text(await table.run(table.mod, "phase resume"))
    assert "deadline" in reply_text(await table.run(table.mod, "phase extend", {"duration": "1h"})).lower()
    # Replace: grace takes frank's seat and gets the sheet (by inbox: her DMs are closed).
    replaced = await table.run(table.mod, "mod replace", {"player": "frank", "newcomer": grace})
    assert "Seat 6" in reply_text(replaced)
    await table.delivered()
    assert "Seat 6" in reply_text(await table.run(grace, "me"))
    assert "not in any game" in reply_text(await table.run(frank, "me", dm=True))
    # Rules, by topic and by class, in each reader's language.
    assert "Warrior" in reply_text(await table.run(bob, "rules", {"topic": "warrior"}, dm=True))
    assert "计分" in reply_text(await table.run(alice, "rules", {"topic": "scoring"}, dm=True))
    topics = await table.emu.autocomplete(alice, "rules", focused="topic", value="战", dm=True)
    assert any(c["value"] == "warrior" for c in topics)


async def test_the_end_scoreboard_with_its_chart_and_the_seed(table: Table):
    """The players' moves go straight to the service here (the commands are tested above);
    what matters is what the bot posts when the game ends."""
    from tests.service.helpers import play_to_end

    game_id = await started_game(table)
    await play_to_end(table.db, game_id)
    await table.delivered()
    posts = table.emu.channel_messages(table.channel, include_ephemeral=False)
    board = next(m for m in posts if m.attachments and any("Game over" in (e.get("title") or "") for e in m.embeds))
    assert board.attachments[0].filename == "scoreboard.png"
    assert any((e.get("image") or {}).get("url", "").endswith("scoreboard.png") for e in board.embeds)
    texts = table.texts(posts)
    assert any("Seed:" in t for t in texts)
    # Everyone has their voice back, and the log is there for the moderator.
    log = await table.run(table.mod, "mod log")
    assert [a.filename for m in [log.message, *log.followups] if m for a in m.attachments]
    # Once a new lobby is open in the channel, the log there is still the ended game's.
    await table.run(table.mod, "mod create")
    log = await table.run(table.mod, "mod log")
    assert {a.filename for m in [log.message, *log.followups] if m for a in m.attachments} == {f"wolfhowl-game-{game_id}.json"}
