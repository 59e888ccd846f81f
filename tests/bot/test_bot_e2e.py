"""The real bot, connected to the local Discord emulator: slash commands, buttons, DMs,
errors, in both languages."""

from __future__ import annotations

import asyncio

import pytest

import bot.service as service
from discord_emulator import InvalidInvocation
from tests.bot.conftest import Table, reply_text, start_bot


async def test_help_in_a_dm_in_the_users_language(table: Table):
    alice, bob = table.players[0], table.players[1]
    zh = await table.run(alice, "help", dm=True)
    assert zh.ephemeral or zh.message is not None
    assert "狼嚎酒馆" in reply_text(zh)
    en = await table.run(bob, "help", dm=True)
    assert "Wolf Howl Tavern" in reply_text(en)


async def test_a_stranger_is_told_they_are_not_in_a_game(table: Table):
    bob = table.players[1]
    result = await table.run(bob, "grail", {"number": 50}, dm=True)
    assert "not in any game" in reply_text(result)
    zh = await table.run(table.players[0], "me", dm=True)
    assert "没有参加任何游戏" in reply_text(zh)


async def open_lobby(table: Table, **options):
    result = await table.run(table.mod, "mod create", options)
    assert "#" in reply_text(result), reply_text(result)
    await table.delivered()  # the lobby post comes through the outbox
    posts = [m for m in table.emu.channel_messages(table.channel, include_ephemeral=False) if m.custom_ids()]
    lobby = posts[-1]
    join_id = next(c for c in lobby.custom_ids() if c.startswith("wh:join:"))
    return lobby, join_id


async def test_create_join_by_button_and_command_then_start(table: Table):
    lobby, join_id = await open_lobby(table, day="2h", dusk="2h", morning="1h")
    for p in table.players[:5]:
        pressed = await table.emu.click(p, lobby, join_id)
        await pressed.wait(10)
        assert "joined" in reply_text(pressed) or "加入" in reply_text(pressed)
    await table.run(table.players[5], "game join")
    # The lobby post shows the roster.
    post = table.emu.ctx.world.messages[lobby.id]
    roster = table.texts([post])[0]
    assert "alice" in roster and "erin" in roster
    # Joining twice is refused, with the service's words.
    again = await table.emu.click(table.players[0], lobby, join_id)
    await again.wait(10)
    assert "你已经加入了这局游戏" in reply_text(again)
    # Players cannot start the game: Discord does not list /mod to them in the server,
    # and the bot refuses it where Discord does (a DM).
    with pytest.raises(InvalidInvocation, match="hidden"):
        await table.run(table.players[1], "mod start")
    refused = await table.run(table.players[1], "mod start", dm=True)
    assert "Only a moderator" in reply_text(refused)
    started = await table.run(table.mod, "mod start")
    assert "started" in reply_text(started)
    assert table.emu.ctx.world.messages[lobby.id].custom_ids() == []  # the lobby is closed
    await table.delivered()
    # Everyone got their sheet by DM, in their own language; the channel the table.
    alice_dm = table.texts(table.emu.dms(table.players[0]))
    assert any("保密" in t for t in alice_dm), alice_dm
    bob_dm = table.texts(table.emu.dms(table.players[1]))
    assert any("Keep it secret" in t for t in bob_dm)
    public = table.texts(table.emu.channel_messages(table.channel, include_ephemeral=False))
    assert any("The game begins" in t for t in public)
    assert any("Day 1" in t for t in public)


async def started_game(table: Table, n: int = 6, **options) -> int:
    lobby, join_id = await open_lobby(table, **({"day": "2h", "dusk": "2h", "morning": "1h"} | options))
    for p in table.players[:n]:
        await (await table.emu.click(p, lobby, join_id)).wait(10)
    await table.run(table.mod, "mod start")
    await table.delivered()
    return int(join_id.rsplit(":", 1)[1])


async def test_a_round_by_commands_with_every_kind_of_player_argument(table: Table):
    await started_game(table)
    alice, bob, carol, dave, erin, frank = table.players[:6]
    # Day: grail numbers, in a DM and (ephemerally) in the channel.
    out_of_range = await table.run(bob, "grail", {"number": 101}, dm=True)
    assert "1 to 100" in reply_text(out_of_range)
    assert "圣杯数字" in reply_text(await table.run(alice, "grail", {"number": 30}, dm=True))
    in_channel = await table.run(bob, "grail", {"number": 60})
    assert in_channel.ephemeral and "60" in reply_text(in_channel)
    # Wrong phase: a vote during Day.
    assert "only be sent during Morning" in reply_text(await table.run(bob, "vote", {"player": "1"}, dm=True))
    await table.run(table.mod, "mod advance")
    await table.delivered()
    # Dusk: attack by mention, by name, by seat; self-target refused; unknown player.
    # (Everyone attacks frank: no voter below can die tonight, whatever the classes.)
    r = await table.run(bob, "act attack", {"player": f"<@{frank.id}>"}, dm=True)
    assert "frank" in reply_text(r)
    assert "yourself" in reply_text(await table.run(carol, "act attack", {"player": "carol"}, dm=True))
    assert "No player matches" in reply_text(await table.run(carol, "act attack", {"player": "zed"}, dm=True))
    assert "received" in reply_text(await table.run(carol, "act attack", {"player": "#6"}, dm=True))
    # (No class has a skill by this name, whatever erin was dealt.)
    assert "no skill called" in reply_text(await table.run(erin, "act skill", {"skill": "dragon-breath"}, dm=True))
    # Identify with a guess typed in either language.
    # Identify with a guess the autocomplete offers (dave's own class's rule, in Chinese).
    offered = await table.emu.autocomplete(dave, "identify", focused="guess", value="", dm=True)
    assert offered and all("（" in c["name"] for c in offered)
    r = await table.run(dave, "identify", {"player": "bob", "guess": offered[0]["value"]}, dm=True)
    assert "bob" in reply_text(r) and offered[0]["name"].split("（")[0] in reply_text(r)
    # Status for the moderator: who has sent what kind, never the content.
    status = reply_text(await table.run(table.mod, "mod status"))
    assert "✅" in status and "#1 alice" in status
    assert "→" not in status and "Combat" not in status  # kinds only, never what was sent
    await table.run(table.mod, "mod advance")
    await table.delivered()
    # Morning: votes; a stranger from another server cannot vote.
    for voter in (alice, bob, dave):
        assert "erin" in reply_text(await table.run(voter, "vote", {"player": "erin"}, dm=True))
    assert "not in any game" in reply_text(await table.run(table.players[6], "vote", {"player": "erin"}, dm=True))
    await table.run(table.mod, "mod advance")
    await table.delivered()
    public = table.texts(table.emu.channel_messages(table.channel, include_ephemeral=False))
    announcement = next(t for t in public if "Morning announcement" in t)
    assert "erin **×3**" in announcement
    # The morning post says nothing of who voted for whom.
    assert not any(name in announcement for name in ("alice", "bob", "dave"))


async def test_moderator_errors_and_the_dead_stay_quiet(table: Table):
    await started_game(table)
    alice, bob = table.players[0], table.players[1]
    assert "Only a moderator" in reply_text(await table.run(bob, "mod advance", dm=True))
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
    info = await service.get_game(table.db, int(end_id.rsplit(":", 1)[1]))
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
    from bot.db import repositories as repo
    from bot.service.common import apply_state, state_of
    from discord_emulator import permissions as perm

    game_id = await started_game(table)
    bob = table.players[1]
    table.bot.dispatcher.stop()  # as if the bot had just started and sent nothing yet
    async with table.db.transaction() as s:
        game = await repo.get_game(s, game_id)
        state = state_of(game)
        state.player(2).hp, state.player(2).alive = -1, False
        apply_state(game, state)
    await service.pause_game(table.db, game_id)  # a post that waits
    await table.bot.resync()
    await table.bot.reconciler.run_once()
    assert table.emu.permissions_of(bob, table.channel) & perm.SEND_MESSAGES
    await table.bot.dispatcher.run_once()  # the post goes out; then the reconciler may act
    await table.bot.reconciler.run_once()  # (as it does after each of the dispatcher's passes)
    await table.emu.wait_for(lambda: not table.emu.permissions_of(bob, table.channel) & perm.SEND_MESSAGES, 5, "bob silenced")


async def started_with_closed_dms(table: Table, **options):
    """A started game of six whose sixth seat is grace, whose DMs are closed; grace."""
    grace = table.players[6]
    lobby, join_id = await open_lobby(table, **options)
    for p in [*table.players[:5], grace]:
        await (await table.emu.click(p, lobby, join_id)).wait(10)
    await table.run(table.mod, "mod start")
    await table.delivered()
    return grace


async def test_closed_dms_go_to_the_inbox_with_a_content_free_ping(table: Table):
    grace = await started_with_closed_dms(table)
    assert table.emu.dms(grace) == []
    pings = [m for m in table.emu.channel_messages(table.channel, include_ephemeral=False) if f"<@{grace.id}>" in (m.content or "")]
    assert len(pings) == 1
    assert "/inbox" in pings[0].content and "Druid" not in pings[0].content and not pings[0].embeds
    inbox = await table.run(grace, "inbox")
    assert inbox.ephemeral
    assert "Keep it secret" in reply_text(inbox)
    # Someone who never missed a DM has an empty inbox.
    assert "收件箱是空的" in reply_text(await table.run(table.players[0], "inbox"))


async def test_a_grail_won_behind_closed_dms_is_not_pinged_in_the_channel(table: Table):
    """Only the winner hears of the grail: a ping after Day would name them to everyone."""
    grace = await started_with_closed_dms(table)

    def pings() -> int:
        public = table.emu.channel_messages(table.channel, include_ephemeral=False)
        return sum(1 for m in public if f"<@{grace.id}>" in (m.content or ""))

    assert pings() == 1  # the sheet, which everyone gets
    # The mean is 45: grace's 50 is closest, so she wins this round's grail.
    for p, number in zip([*table.players[:5], grace], (10, 90, 10, 90, 20, 50), strict=True):
        await table.run(p, "grail", {"number": number}, dm=True)
    await table.run(table.mod, "mod advance")
    await table.delivered()
    news = [m for m in await service.read_inbox(table.db, grace.id, mark_read=False) if m.payload["type"] == "events"]
    assert any(e["kind"] == "GrailWon" for m in news for e in m.payload["events"])
    assert pings() == 1
    # She learns it privately instead: her own /me and /orders say that news waits.
    assert "2 private messages wait unread in /inbox" in reply_text(await table.run(grace, "me"))
    assert "2 private messages wait unread" in reply_text(await table.run(grace, "orders"))
    assert "wait unread" not in reply_text(await table.run(table.players[0], "me", dm=True))
    await table.run(grace, "inbox")
    await all_read(table, grace.id)  # (marked read just after the reply goes out)
    assert "unread" not in reply_text(await table.run(grace, "me"))


async def test_the_deadline_advances_and_reminds_those_who_have_not_sent(table: Table):
    await started_game(table, reminder="30m")
    alice, bob = table.players[0], table.players[1]
    await table.run(alice, "grail", {"number": 10}, dm=True)
    table.clock.advance(90 * 60)  # 30 minutes before the 2h deadline
    table.bot.wake_scheduler()
    await table.emu.wait_for(lambda: any("Reminder" in t for t in table.texts(table.emu.dms(bob))) or None, timeout=5)
    await table.delivered()
    assert not any("提醒" in t for t in table.texts(table.emu.dms(alice)))  # alice had sent
    table.clock.advance(31 * 60)
    table.bot.wake_scheduler()
    await table.emu.wait_for(
        lambda: any("Dusk 1" in t for t in table.texts(table.emu.channel_messages(table.channel, include_ephemeral=False))) or None,
        timeout=5,
    )


async def test_the_order_panel_by_menus_and_after_a_restart(table: Table):
    await started_game(table)
    alice, bob = table.players[0], table.players[1]
    post = next(m for m in table.emu.channel_messages(table.channel, include_ephemeral=False) if "wh:open:1" in m.custom_ids())
    opened = await (await table.emu.click(bob, post, "wh:open:1")).wait(10)
    panel = day_panel = next(m for m in [opened.message, *opened.followups] if m and "wh:grail:1:1" in m.custom_ids())
    assert panel.ephemeral
    modal_opener = await table.emu.click(bob, panel, "wh:grail:1:1")
    await table.emu.wait_for(lambda: modal_opener.modal, timeout=5)
    text_id = modal_opener.modal["components"][0]["components"][0]["custom_id"]
    submitted = await (await table.emu.submit_modal(bob, modal_opener, {text_id: "77"})).wait(10)
    assert submitted.rejected == []
    view = await table.run(bob, "orders", dm=True)
    assert "77" in reply_text(view)
    # Morning, by the moderator; then the bot restarts and the old panel still works.
    await table.run(table.mod, "mod advance")
    await table.run(table.mod, "mod advance")
    await table.delivered()
    opened = await (await table.emu.click(alice, post, "wh:open:1")).wait(10)
    panel = next(m for m in [opened.message, *opened.followups] if m and "wh:vote:1:1" in m.custom_ids())
    await table.bot.close()
    from bot.db.session import Database
    from bot.discord.client import WolfBot

    fresh = WolfBot(table.bot.config, db=Database(table.bot.config.database_url, clock=table.clock))
    task = await start_bot(fresh, table.emu.token)
    table.bot = fresh
    try:
        voted = await (await table.emu.select(alice, panel, "wh:vote:1:1", ["2"])).wait(10)
        assert voted.rejected == []
        assert "bob" in reply_text(await table.run(alice, "orders", dm=True))
        # A stale panel (this morning's Day) is refused, never applied to another phase:
        # at once, without a form to type a number into first.
        late = await (await table.emu.click(bob, day_panel, "wh:grail:1:1")).wait(10)
        assert late.modal is None and "Too late" in reply_text(late)
    finally:
        task.cancel()


async def test_a_grail_form_opened_before_a_restart_is_taken_after_it(table: Table):
    """A deploy while someone types their number: the form was drawn by the old process,
    its answer reaches the new one."""
    from bot.db.session import Database
    from bot.discord.client import WolfBot

    game_id = await started_game(table)
    bob = table.players[1]
    post = next(m for m in table.emu.channel_messages(table.channel, include_ephemeral=False) if f"wh:open:{game_id}" in m.custom_ids())
    opened = await (await table.emu.click(bob, post, f"wh:open:{game_id}")).wait(10)
    panel = next(m for m in [opened.message, *opened.followups] if m and f"wh:grail:{game_id}:1" in m.custom_ids())
    opener = await table.emu.click(bob, panel, f"wh:grail:{game_id}:1")
    await table.emu.wait_for(lambda: opener.modal, timeout=5)
    field = opener.modal["components"][0]["components"][0]["custom_id"]
    await table.bot.close()
    fresh = WolfBot(table.bot.config, db=Database(table.bot.config.database_url, clock=table.clock))
    task = await start_bot(fresh, table.emu.token)
    table.bot = fresh
    try:
        sent = await (await table.emu.submit_modal(bob, opener, {field: "42"})).wait(10)
        assert sent.rejected == [] and sent.acknowledged
        assert "42" in reply_text(await table.run(bob, "orders", dm=True))
    finally:
        task.cancel()


async def test_autocomplete_in_a_dm_lists_living_players_but_not_me(table: Table):
    await started_game(table)
    alice, bob = table.players[0], table.players[1]
    await table.run(table.mod, "mod kick", {"player": "3"})
    choices = await table.emu.autocomplete(alice, "vote", focused="player", value="", dm=True)
    assert [c["value"] for c in choices] == ["2", "4", "5", "6"]
    choices = await table.emu.autocomplete(bob, "act attack", focused="player", value="fr", dm=True)
    assert choices == [{"name": "#6 frank", "value": "6"}]


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
    assert "paused" in reply_text(await table.run(table.mod, "mod pause"))
    assert "paused" in reply_text(await table.run(bob, "grail", {"number": 3}, dm=True))
    assert "added to the paused clock" in reply_text(await table.run(table.mod, "mod extend", {"duration": "30m"}))
    assert "resumes" in reply_text(await table.run(table.mod, "mod resume"))
    assert "deadline" in reply_text(await table.run(table.mod, "mod extend", {"duration": "1h"})).lower()
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


async def test_skills_toggles_and_orders_clear_by_command(table: Table):
    await started_game(table)
    await table.run(table.mod, "mod advance")
    import bot.service as service
    from engine.classes import class_spec

    info = await service.game_in_channel(table.db, table.channel.id)
    views = {p.user_id: await service.player_view(table.db, p.user_id, info.id) for p in info.players}
    users = {u.id: u for u in table.players}
    # Someone with a toggle switches it on, then off, by name in their own language.
    toggler = next(uid for uid, v in views.items() if any(s.mode == "toggle" for s in class_spec(v.sheet["class_id"]).skills))
    toggle = next(s for s in class_spec(views[toggler].sheet["class_id"]).skills if s.mode == "toggle")
    loc = users[toggler].locale
    on = reply_text(await table.run(users[toggler], "act skill", {"skill": toggle.name[loc]}, dm=True))
    assert toggle.name[loc] in on and ("🔁" in on)
    off = reply_text(await table.run(users[toggler], "act skill", {"skill": toggle.id}, dm=True))
    assert "🔁" not in off
    # With `switch`, sending it twice (a retry after a lost answer) keeps it as asked.
    for _ in range(2):
        kept = reply_text(await table.run(users[toggler], "act skill", {"skill": toggle.id, "switch": True}, dm=True))
        assert "🔁" in kept
    off = reply_text(await table.run(users[toggler], "act skill", {"skill": toggle.id, "switch": False}, dm=True))
    assert "🔁" not in off
    # `switch` on a skill that is no toggle: refused, in the player's language, nothing sent.
    plain = next(s for s in class_spec(views[toggler].sheet["class_id"]).skills if s.mode == "active")
    before = (await service.player_view(table.db, toggler, info.id)).sent
    refused = await table.run(users[toggler], "act skill", {"skill": plain.id, "switch": True}, dm=True)
    assert ("`switch`" if loc == "en-US" else "`开关`") in reply_text(refused), reply_text(refused)
    assert (await service.player_view(table.db, toggler, info.id)).sent == before
    # Someone attacks, then clears the night's orders with /orders clear: withdrawn,
    # so nothing of that kind counts as sent any more.
    attacker = table.players[1]
    await table.run(attacker, "act attack", {"player": "#1"}, dm=True)
    assert "orders" in (await service.phase_status(table.db, info.id)).sent.get(2, ())
    cleared = reply_text(await table.run(attacker, "orders", {"clear": "orders"}, dm=True))
    assert "Night orders: withdrawn" in cleared and "Night orders: nothing yet" in cleared
    assert "orders" not in (await service.phase_status(table.db, info.id)).sent.get(2, ())
    again = reply_text(await table.run(attacker, "orders", {"clear": "orders"}, dm=True))
    assert "there was nothing to withdraw" in again
    # "Nothing tonight" sends empty orders instead: they count as sent.
    passed = reply_text(await table.run(attacker, "orders", {"clear": "pass"}, dm=True))
    assert "Nothing tonight (counts as sent)" in passed
    assert "orders" in (await service.phase_status(table.db, info.id)).sent.get(2, ())


async def test_create_checks_the_bots_permissions_and_explains(table: Table):
    from discord_emulator import permissions as perm

    table.emu.set_permissions(table.channel, table.emu.bot_user, deny=perm.EMBED_LINKS)
    await table.seen()
    refused = reply_text(await table.run(table.mod, "mod create"))
    assert "I lack permissions in this channel: Embed Links" in refused
    table.emu.ctx.guild_ops.delete_overwrite(table.channel, table.emu.bot_user.id)
    table.emu.set_bot_permissions(table.guild, perm.DEFAULT_BOT & ~perm.MANAGE_ROLES)
    await table.seen()
    created = reply_text(await table.run(table.mod, "mod create"))
    assert "Off: I would need these permissions: Manage Roles" in created
    assert not any(c.topic and "dead-of" in c.topic for c in table.guild.channels.values())
    assert "The dead stay quiet: no" in reply_text(await table.run(table.mod, "mod settings"))


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


async def test_ending_a_lobby_cancels_it_and_a_stale_cancel_cannot_cancel_a_started_game(table: Table):
    lobby, join_id = await open_lobby(table)
    confirm = await table.run(table.mod, "mod end")
    assert "Nobody has been dealt a class yet" in reply_text(confirm)
    message = next(m for m in [confirm.message, *confirm.followups] if m and m.custom_ids())
    cancel_id = message.custom_ids()[0]
    assert cancel_id.startswith("wh:cancel:")
    for p in table.players[:6]:
        await (await table.emu.click(p, lobby, join_id)).wait(10)
    await table.run(table.mod, "mod start")
    # The lobby was confirmed for cancelling; the game has started since: refused.
    stale = await (await table.emu.click(table.mod, message, cancel_id)).wait(10)
    assert "has started since" in reply_text(stale)
    game_id = int(cancel_id.rsplit(":", 1)[1])
    assert (await service.get_game(table.db, game_id)).status == "running"
    # A fresh lobby in the other channel, ended from its own /mod end: cancelled.
    general = next(c for c in table.guild.channels.values() if c.name == "general")
    await table.run(table.mod, "mod create", channel=general)
    confirm = await table.run(table.mod, "mod end", channel=general)
    message = next(m for m in [confirm.message, *confirm.followups] if m and m.custom_ids())
    done = await (await table.emu.click(table.mod, message, message.custom_ids()[0])).wait(10)
    assert "cancelled" in reply_text(done)
    other = await service.latest_game_in_channel(table.db, general.id)
    assert other is not None and other.status == "cancelled"
    # The channel reads that it was cancelled before it began, not ended like a game.
    await table.delivered()
    said = table.texts(table.emu.channel_messages(general, include_ephemeral=False))
    assert any("cancelled the game before it began" in t for t in said), said
    assert not any("has ended the game" in t for t in said)


async def test_the_inbox_shows_new_messages_first_and_marks_them_read(table: Table):
    grace = await started_with_closed_dms(table, day="2h", reminder="30m")
    first = reply_text(await table.run(grace, "inbox"))
    assert "1 new message that could not reach you by DM (1 in all)" in first and "Keep it secret" in first
    await all_read(table, grace.id)
    # Seen: the next look says nothing is new and shows it again as already seen.
    seen = reply_text(await table.run(grace, "inbox"))
    assert "No new messages. The last 1 of the 1 you have already seen" in seen and "Keep it secret" in seen
    # The reminder grace gets for not having sent goes to the inbox too: only it is new.
    table.clock.advance(90 * 60)
    for _ in range(100):
        table.bot.wake_scheduler()
        await table.delivered()
        if await service.read_inbox(table.db, grace.id, unread_only=True, mark_read=False):
            break
        await asyncio.sleep(0.05)
    waiting = await service.read_inbox(table.db, grace.id, unread_only=True, mark_read=False)
    assert [m.payload["type"] for m in waiting] == ["reminder"]
    news = reply_text(await table.run(grace, "inbox"))
    assert "1 new message that could not reach you by DM (2 in all)" in news
    assert "Reminder" in news and "Keep it secret" not in news
    await all_read(table, grace.id)
    assert "No new messages" in reply_text(await table.run(grace, "inbox"))


async def all_read(table: Table, user_id: int) -> None:
    """/inbox marks what it showed read just after its reply went out: wait for it."""
    for _ in range(100):
        if not await service.read_inbox(table.db, user_id, unread_only=True, mark_read=False):
            return
        await asyncio.sleep(0.05)
    raise AssertionError("the inbox was not marked read")


async def test_a_guess_outside_the_class_rule_is_refused_with_the_rule(table: Table):
    """Naming more players than the class may, each night, is refused with what the class
    may name, in the player's language; the guesses already sent stay."""
    from bot.render.sheet import identify_rule
    from bot.service.views import player_view

    game_id = await started_game(table)
    await table.run(table.mod, "mod advance")
    await table.delivered()
    bob = table.players[1]
    sheet = (await player_view(table.db, bob.id, game_id)).sheet
    slot = sheet["identify"][0]
    value = slot["values"][0] if slot["values"] else {"trait": "combat", "class": "warrior", "faction": "lawful"}[slot["what"]]
    answers = []
    for seat in (1, 3, 4, 5, 6):
        answers.append(reply_text(await table.run(bob, "identify", {"player": str(seat), "guess": f"{slot['what']}:{value}"}, dm=True)))
    refused = [a for a in answers if "does not fit" in a]
    assert refused, answers
    rule_lines = identify_rule(sheet, "en-US").splitlines()
    assert all(line in refused[0] for line in rule_lines) and "/orders clear:" in refused[0]
    assert "Identifications: " in reply_text(await table.run(bob, "orders", dm=True))
