"""Who may run moderator commands (bot/discord/guild/checks.py): the game's creator, a member
with Manage Server, or a member with the configured moderator role — named or by id, in
the game channel or from a DM, where Discord sends no member and the bot looks the caller
up in the game's server. Anyone else is refused and nothing changes."""

from __future__ import annotations

from typing import Any

import pytest

from bot.core.views import player_view
from bot.features.lobby.games import create_game, game_in_channel, get_game
from bot.features.play.commands import AddAction, AddGuess, handle
from discord_emulator import InvalidInvocation
from discord_emulator import permissions as perm
from tests.bot.conftest import Table, reply_text, started_game


async def phase_of(table: Table, game_id: int) -> str | None:
    return (await get_game(table.db, game_id)).phase


async def test_the_configured_role_by_name_moderates_in_the_channel_and_from_a_dm(table: Table):
    role = table.emu.create_role(table.guild, "Game Masters")  # no permissions of its own
    alice, bob = table.players[0], table.players[1]
    table.emu.give_role(table.guild, alice, role)
    # The server's admin lets the role see /mod and /phase (Server Settings → Integrations).
    for command in ("mod", "phase"):
        table.emu.set_command_permissions(table.guild, {role: True}, command=command)
    game_id = await started_game(table)
    assert await phase_of(table, game_id) == "day"

    # Before the role is configured, holding it means nothing.
    refused = await table.run(alice, "phase advance")
    assert "只有管理员" in reply_text(refused)  # alice reads Chinese
    assert await phase_of(table, game_id) == "day"

    table.bot.config.moderator_role = "game masters"  # names match regardless of case
    assert "只有管理员" not in reply_text(await table.run(alice, "phase advance"))
    assert await phase_of(table, game_id) == "dusk"
    # A moderator who also plays sees how many have sent, not who: at Dusk, who has
    # not sent orders could betray a wounded player.
    status = reply_text(await table.run(alice, "mod status"))
    assert "(0/6)" in status or "（0/6）" in status
    assert "⬜" not in status and "bob" not in status
    assert "⬜" in reply_text(await table.run(table.mod, "mod status"))  # who does not play sees it all
    # From a DM (alice plays in the game, so the DM is about it): looked up in the server.
    await table.run(alice, "phase advance", dm=True)
    assert await phase_of(table, game_id) == "morning"

    # bob has neither the role nor Manage Server: Discord does not list /mod to him in
    # the server, and the bot refuses it in a DM (where Discord lists it to everyone).
    with pytest.raises(InvalidInvocation, match="hidden"):
        await table.run(bob, "phase advance")
    assert "Only a moderator" in reply_text(await table.run(bob, "phase advance", dm=True))
    assert await phase_of(table, game_id) == "morning"


async def test_the_configured_role_by_id_and_a_role_taken_away(table: Table):
    role = table.emu.create_role(table.guild, "Referees")
    carol = table.players[2]
    table.emu.give_role(table.guild, carol, role)
    table.emu.set_command_permissions(table.guild, {role: True}, command="mod")
    table.bot.config.moderator_role = str(role.id)
    game_id = await started_game(table)
    status = reply_text(await table.run(carol, "mod status"))
    assert "Only a moderator" not in status and "Day" in status
    await table.run(carol, "phase advance", dm=True)
    assert await phase_of(table, game_id) == "dusk"
    # Once the setting names another role, carol's role no longer moderates.
    table.bot.config.moderator_role = str(role.id + 1)
    assert "Only a moderator" in reply_text(await table.run(carol, "phase advance", dm=True))
    assert await phase_of(table, game_id) == "dusk"


async def test_a_co_moderator_who_does_not_play_runs_the_game_from_a_dm(table: Table):
    helper, stranger = table.emu.create_user("helper"), table.emu.create_user("stranger")
    table.emu.add_member(table.guild, helper)
    table.emu.add_member(table.guild, stranger)
    game_id = await started_game(table)
    # Before helper holds the role, a DM from someone who neither plays nor moderates is
    # about no game at all.
    assert "not in any game" in reply_text(await table.run(helper, "phase advance", dm=True))
    assert await phase_of(table, game_id) == "day"

    table.emu.give_role(table.guild, helper, table.emu.create_role(table.guild, "Referees"))
    table.bot.config.moderator_role = "Referees"
    await table.run(helper, "phase advance", dm=True)
    assert await phase_of(table, game_id) == "dusk"
    assert "Dusk" in reply_text(await table.run(helper, "mod status", dm=True))
    # /mod kick's player list works from the DM too.
    offered = await table.emu.autocomplete(helper, "mod kick", focused="player", value="", dm=True)
    assert [c["value"] for c in offered] == ["1", "2", "3", "4", "5", "6"]
    assert await table.emu.autocomplete(stranger, "mod kick", focused="player", value="", dm=True) == []
    # The stranger is still refused, and nothing moves.
    assert "not in any game" in reply_text(await table.run(stranger, "phase advance", dm=True))
    assert await phase_of(table, game_id) == "dusk"

    # With a second game in the server, a DM cannot tell which one is meant: it names both.
    general = next(c for c in table.guild.channels.values() if c.name == "general")
    await table.run(table.mod, "mod create", channel=general)
    answer = reply_text(await table.run(helper, "phase advance", dm=True))
    assert "several games" in answer and f"<#{table.channel.id}>" in answer and f"<#{general.id}>" in answer
    assert await phase_of(table, game_id) == "dusk"


async def test_a_moderator_who_joins_another_game_is_not_switched_to_it_from_a_dm(table: Table):
    """gm runs game 1 from DMs, then joins game 2 (another channel, another moderator) as
    a player. A DM command must not quietly go to game 2: gm moderates both (Manage
    Server), so the reply names both channels and nothing changes anywhere."""
    general = next(c for c in table.guild.channels.values() if c.name == "general")
    game_id = await started_game(table)
    await table.run(table.mod, "phase advance", dm=True)
    assert await phase_of(table, game_id) == "dusk"
    host = table.emu.create_user("host")
    table.emu.add_member(table.guild, host)
    table.emu.give_role(table.guild, host, table.emu.create_role(table.guild, "Host", permissions=perm.MANAGE_GUILD))
    await table.run(host, "mod create", channel=general)
    joined = await table.run(table.mod, "game join", channel=general)
    assert "joined" in reply_text(joined)
    for command, options in (("phase advance", {}), ("phase extend", {"duration": "1h"}), ("mod kick", {"player": "2"})):
        answer = reply_text(await table.run(table.mod, command, options, dm=True))
        assert "several games" in answer and f"<#{table.channel.id}>" in answer and f"<#{general.id}>" in answer, command
    assert await phase_of(table, game_id) == "dusk"
    assert all(p.alive for p in (await get_game(table.db, game_id)).players if p.seat)
    # In the game's channel there is no doubt.
    await table.run(table.mod, "phase advance")
    assert await phase_of(table, game_id) == "morning"


async def test_a_creator_who_left_the_server_no_longer_moderates_from_a_dm(table: Table):
    game_id = await started_game(table)
    await table.run(table.mod, "phase advance", dm=True)  # a member: fine
    assert await phase_of(table, game_id) == "dusk"
    del table.guild.members[table.mod.id]  # gm leaves the server (no event: no members intent)
    answer = reply_text(await table.run(table.mod, "phase advance", dm=True))
    assert "Only a moderator" in answer
    assert await phase_of(table, game_id) == "dusk"


async def test_turning_quiet_dead_off_mid_game_gives_the_silenced_their_voice_back(table: Table):
    from discord_emulator import permissions as perm

    def marked(tag: str) -> list:
        return [c for c in table.guild.channels.values() if c.topic and f"[wolfhowl:{tag}:{table.channel.id}]" in c.topic]

    for name in ("heidi", "ivan", "judy", "mallory", "niaj"):  # a table of 12: two kicks do not end it
        newcomer = table.emu.create_user(name)
        table.emu.add_member(table.guild, newcomer)
        table.players.append(newcomer)
    game_id = await started_game(table, n=12)
    alice, bob = table.players[0], table.players[1]
    await table.run(table.mod, "mod kick", {"player": "alice"})
    await table.delivered()
    assert not table.emu.permissions_of(alice, table.channel) & perm.SEND_MESSAGES
    off = reply_text(await table.run(table.mod, "mod settings", {"quiet_dead": False}))
    assert "The dead stay quiet: no" in off
    assert table.emu.permissions_of(alice, table.channel) & perm.SEND_MESSAGES
    assert table.emu.permissions_of(bob, table.channel) & perm.SEND_MESSAGES
    # The dead channel stays, with its history, marked as switched off, and closed to the
    # departed: with quiet dead off they talk where everyone does.
    assert marked("dead-of") == [] and len(marked("dead-off")) == 1
    [dead] = marked("dead-off")
    assert not table.emu.permissions_of(alice, dead) & perm.VIEW_CHANNEL
    # On again: the same channel, the departed so far let in again, and the next departure
    # is silenced.
    on = reply_text(await table.run(table.mod, "mod settings", {"quiet_dead": True}))
    assert "The dead stay quiet: yes" in on
    assert marked("dead-of") == [dead] and marked("dead-off") == []
    assert table.emu.permissions_of(alice, dead) & perm.VIEW_CHANNEL
    assert not table.emu.permissions_of(alice, table.channel) & perm.SEND_MESSAGES
    await table.run(table.mod, "mod kick", {"player": "bob"})
    await table.delivered()
    assert (await get_game(table.db, game_id)).status == "running"  # (the end gives voices back)
    assert not table.emu.permissions_of(bob, table.channel) & perm.SEND_MESSAGES
    assert table.emu.permissions_of(table.players[2], table.channel) & perm.SEND_MESSAGES
    # The server's audit log says why each change was made, in the server's language.
    reasons = [r.audit_reason for r in table.emu.requests if r.audit_reason and r.status < 300]
    for why in ("quiet dead (the departed", "left the game", "quiet dead switched off", "the game is over, or quiet dead is off"):
        assert any(r.startswith("Wolf Howl Tavern: " + why) for r in reasons), (why, reasons)


async def _dusk_with_the_moderator_playing(table: Table, *, wound: bool) -> tuple[int, dict[int, Any], int]:
    """A game of six, its moderator seated, at its first Dusk with early close on; one
    other seat (returned) wounded when ``wound``."""
    from bot.core.rules import state_of
    from bot.db import repositories as repo
    from tests.bot.conftest import open_lobby
    from tests.service.helpers import apply_state

    lobby, join_id = await open_lobby(table, day="2h", dusk="2h", morning="1h", early_advance=True)
    for p in [table.mod, *table.players[:5]]:
        await (await table.emu.click(p, lobby, join_id)).wait(10)
    await table.run(table.mod, "mod start")
    game_id = int(join_id.rsplit(":", 1)[1])
    await table.run(table.mod, "phase advance")
    await table.delivered()
    info = await get_game(table.db, game_id)
    by_seat = {p.seat: next(u for u in [table.mod, *table.players] if u.id == p.user_id) for p in info.players}
    victim = next(s for s, u in by_seat.items() if u.id != table.mod.id)
    if wound:
        async with table.db.transaction() as s:
            game = await repo.get_game(s, game_id)
            state = state_of(game)
            state.player(victim).hp = 0
            apply_state(game, state)
    return game_id, by_seat, victim


async def _all_but_one_order_and_it_identifies(table: Table, game_id: int, by_seat: dict[int, Any], victim: int) -> str:
    for seat, u in by_seat.items():
        if seat != victim:
            await handle(table.db, AddAction("attack", (victim,)), u.id, game_id=game_id)
    slot = (await player_view(table.db, by_seat[victim].id, game_id)).sheet["identify"][0]
    value = (slot["values"] or {"trait": ["combat"], "faction": ["lawful"], "class": ["warrior"]}[slot["what"]])[0]
    other = next(s for s in by_seat if s != victim)
    await handle(table.db, AddGuess(other, (slot["what"], value)), by_seat[victim].id, game_id=game_id)
    return reply_text(await table.run(table.mod, "mod status"))


async def test_a_playing_moderators_count_treats_the_wounded_as_the_early_close_does(table: Table):
    """A wounded player who identified counts as done for the early close; were the
    count of /mod status to disagree, a playing moderator would learn someone is hurt."""
    game_id, by_seat, victim = await _dusk_with_the_moderator_playing(table, wound=True)
    before = (await get_game(table.db, game_id)).deadline
    status = await _all_but_one_order_and_it_identifies(table, game_id, by_seat, victim)
    assert (await get_game(table.db, game_id)).deadline < before  # the early close is armed
    assert "Sent (6/6)" in status and "⬜" not in status, status


async def test_a_healthy_player_who_only_identified_is_not_counted_done(table: Table):
    game_id, by_seat, victim = await _dusk_with_the_moderator_playing(table, wound=False)
    before = (await get_game(table.db, game_id)).deadline
    status = await _all_but_one_order_and_it_identifies(table, game_id, by_seat, victim)
    assert (await get_game(table.db, game_id)).deadline == before
    assert "Sent (5/6)" in status, status


async def test_a_moderator_whose_seat_is_dead_still_sees_only_the_count(table: Table):
    """Their faction can still win: the dead play on through it."""
    from bot.core.rules import state_of
    from bot.db import repositories as repo
    from tests.service.helpers import apply_state

    game_id, by_seat, _ = await _dusk_with_the_moderator_playing(table, wound=False)
    mod_seat = next(s for s, u in by_seat.items() if u.id == table.mod.id)
    async with table.db.transaction() as s:
        game = await repo.get_game(s, game_id)
        state = state_of(game)
        state.player(mod_seat).hp, state.player(mod_seat).alive = -1, False
        apply_state(game, state)
    status = reply_text(await table.run(table.mod, "mod status"))
    assert "only the count is shown" in status and "⬜" not in status, status


async def test_a_referee_whose_role_was_taken_away_or_who_left_no_longer_moderates_from_a_dm(table: Table):
    """Without the members intent the bot never hears of a role taken away or of a
    member leaving; a DM carries no roles. The moderator check from a DM must see them
    as they are now."""
    referee, owner = table.emu.create_user("referee"), table.emu.create_user("owner")
    role = table.emu.create_role(table.guild, "Referees")
    boss = table.emu.create_role(table.guild, "Boss", permissions=perm.MANAGE_GUILD)
    table.emu.add_member(table.guild, referee, roles=[role])
    table.emu.add_member(table.guild, owner, roles=[boss])
    for command in ("mod", "phase"):
        table.emu.set_command_permissions(table.guild, {role: True}, command=command)
    table.bot.config.moderator_role = "Referees"
    game_id = await started_game(table)
    for who in (referee, owner):
        assert "Only a moderator" not in reply_text(await table.run(who, "mod status"))
        await table.run(who, "phase advance", dm=True)
    assert await phase_of(table, game_id) == "morning"

    table.guild.members[referee.id].role_ids.remove(role.id)  # no event reaches the bot
    del table.guild.members[owner.id]
    for who in (referee, owner):
        # Neither plays, so from a DM they are now about no game at all.
        assert "not in any game" in reply_text(await table.run(who, "phase advance", dm=True))
    assert await phase_of(table, game_id) == "morning"
    # The creator is untouched, and in the channel the member Discord sends is current.
    await table.run(table.mod, "phase advance", dm=True)
    assert await phase_of(table, game_id) != "morning"


async def test_a_moderator_command_in_a_channel_without_a_game_points_to_the_game(table: Table):
    """In another channel of the server nothing is guessed (advancing the wrong game
    cannot be undone), but the answer says where the game is."""
    await started_game(table)
    general = next(c for c in table.guild.channels.values() if c.name == "general")
    answer = reply_text(await table.run(table.mod, "phase advance", channel=general))
    assert "no game in this channel" in answer and f"<#{table.channel.id}>" in answer and "DM" in answer
    assert (await game_in_channel(table.db, table.channel.id)).phase == "day"  # not advanced


async def test_a_dm_command_asks_discord_about_a_bounded_few_servers_the_callers_first(table: Table):
    """A DM carries no server: the bot asks Discord, server by server, whether the caller
    moderates there. In a bot with live games in many servers it asks about at most
    ``SERVERS_ASKED_FROM_A_DM``, those where the caller has played first, so a referee
    who plays in the oldest game is still found and Discord is not asked about them all."""
    from bot.core.table import SERVERS_ASKED_FROM_A_DM
    from bot.core.types import UserRef

    role = table.emu.create_role(table.guild, "Referees")
    alice = table.players[0]
    table.emu.give_role(table.guild, alice, role)
    table.bot.config.moderator_role = "Referees"
    game_id = await started_game(table)  # the oldest live game: alice plays in it
    host = table.emu.create_user("host")
    guilds = []
    for n in range(SERVERS_ASKED_FROM_A_DM + 5):  # newer live games, each in a server of its own
        guild = table.emu.create_guild(f"Elsewhere {n}", channels=("table",))
        table.emu.add_member(guild, host)
        channel = next(iter(guild.channels.values()))
        await create_game(table.db, guild_id=guild.id, channel_id=channel.id, moderator=UserRef(host.id, "host"))
        guilds.append(guild)
    await table.emu.wait_for(lambda: all(table.bot.get_guild(g.id) for g in guilds), what="the bot in every server")
    mark = len(table.emu.requests)
    await table.run(alice, "phase advance", dm=True)
    assert await phase_of(table, game_id) == "dusk"
    asked = {r.params["guild_id"] for r in table.emu.requests[mark:] if r.route == "GET /guilds/{guild_id}/members/{user_id}"}
    assert len(asked) <= SERVERS_ASKED_FROM_A_DM
    assert str(table.guild.id) in asked
