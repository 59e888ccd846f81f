"""The moderators' commands live in ``/mod``, which Discord lists only to members with
Manage Server (or to those a server admin lets see it in Server Settings → Integrations);
players find theirs where they were. What the bot registers stays inside Discord's
limits, and a start after an upgrade leaves no command of an earlier version behind."""

from __future__ import annotations

import re

import pytest

from bot.features.lobby.games import get_game, latest_game_in_channel
from discord_emulator import InvalidInvocation
from discord_emulator import permissions as perm
from tests.bot.conftest import Table, reply_text, started_game
from tests.bot.test_command_sync import running, world  # noqa: F401 (a fixture)

NAME = re.compile(r"^[-_\w]{1,32}$", re.UNICODE)
MODERATORS = {
    "mod create", "mod start", "mod settings", "phase pause", "phase resume", "mod replace", "mod kick",
    "mod end", "mod status", "mod log", "phase advance", "phase extend", "mod lineup", "mod house_rules",
    "mod season start", "mod season end",
}  # fmt: skip
PLAYERS = {
    "game join", "game leave", "game watch", "game unwatch", "grail", "identify", "act attack", "act skill", "orders", "vote", "me",
    "inbox", "rules", "help", "stats view", "stats hide", "stats show", "stats forget", "leaderboard", "game history", "recap", "table", "standby join", "standby leave",
    "settings prompts", "settings timezone", "practice start", "practice stop",
}  # fmt: skip


def check_limits(node: dict, where: str, problems: list[str]) -> int:
    """Discord's rules for one command or option (names 1–32 lowercase, descriptions
    1–100, the same for every localization, at most 25 options and 25 choices); returns
    its characters as Discord counts them toward 4,000, taking the longest of the
    default and every localization of each string."""
    names = [node["name"], *(node.get("name_localizations") or {}).values()]
    descriptions = [node.get("description", ""), *(node.get("description_localizations") or {}).values()]
    problems += [f"{where}: name {n!r}" for n in names if not (NAME.match(n) and n == n.lower())]
    problems += [f"{where}: description {d!r}" for d in descriptions if not 1 <= len(d) <= 100]
    size = max(map(len, names)) + max(map(len, descriptions))
    options = node.get("options") or []
    if len(options) > 25:
        problems.append(f"{where}: {len(options)} options")
    choices = node.get("choices") or []
    if len(choices) > 25:
        problems.append(f"{where}: {len(choices)} choices")
    for choice in choices:
        labels = [choice["name"], *(choice.get("name_localizations") or {}).values()]
        problems += [f"{where}: choice {c!r}" for c in labels if not 1 <= len(c) <= 100]
        size += max(map(len, labels)) + len(str(choice["value"]))
    for option in options:
        size += check_limits(option, f"{where} {option['name']}", problems)
    return size


async def test_the_registered_commands_stay_inside_discords_limits(table: Table):
    registered = table.emu.registered_commands()
    assert {c["name"] for c in registered} == {"game", "mod", "phase", "act", "grail", "identify", "orders", "vote", "me", "inbox", "rules", "help", "stats", "leaderboard", "recap", "standby", "table", "settings", "practice"}
    problems: list[str] = []
    for command in registered:
        size = check_limits(command, command["name"], problems)
        assert size <= 4000, (command["name"], size)
        assert set(command.get("name_localizations") or {}) >= {"zh-CN"}, command["name"]
    assert problems == []
    by_name = {c["name"]: c for c in registered}
    # Manage Server (1 << 5) for the moderators' groups, nothing for anyone else's.
    assert by_name["mod"]["default_member_permissions"] == by_name["phase"]["default_member_permissions"] == str(perm.MANAGE_GUILD)
    assert all(c["default_member_permissions"] is None for c in registered if c["name"] not in ("mod", "phase"))
    assert by_name["mod"]["name_localizations"]["zh-CN"] == "管理"
    assert by_name["phase"]["name_localizations"]["zh-CN"] == "阶段"
    assert {o["name"] for o in by_name["phase"]["options"]} == {"advance", "extend", "pause", "resume"}
    assert not {"advance", "extend", "pause", "resume"} & {o["name"] for o in by_name["mod"]["options"]}


async def test_a_player_is_not_listed_the_moderators_commands_and_a_moderator_is(table: Table):
    alice, bob = table.players[0], table.players[1]
    shown = set(table.emu.command_list(bob, channel=table.channel))
    assert shown == PLAYERS
    assert set(table.emu.command_list(table.mod, channel=table.channel)) == PLAYERS | MODERATORS
    # As a Chinese client shows them.
    assert {"管理 创建", "阶段 推进", "游戏 加入"} <= set(table.emu.command_list(table.mod, channel=table.channel, locale="zh-CN"))
    assert not any(c.startswith("管理") for c in table.emu.command_list(alice, channel=table.channel, locale="zh-CN"))
    # What is not listed cannot be run either.
    with pytest.raises(InvalidInvocation, match="hidden"):
        await table.emu.slash(bob, "mod create", channel=table.channel)
    with pytest.raises(InvalidInvocation, match="hidden"):
        await table.emu.slash(bob, "phase advance", channel=table.channel)
    # The owner and an administrator see everything.
    admin = table.emu.create_user("admin")
    table.emu.add_member(table.guild, admin, roles=[table.emu.create_role(table.guild, "Admins", permissions=perm.ADMINISTRATOR)])
    assert set(table.emu.command_list(admin, channel=table.channel)) >= MODERATORS


async def test_a_moderator_role_sees_the_group_once_the_admin_lets_it(table: Table):
    """The configured moderator role without Manage Server: the bot would accept it, but
    Discord lists /mod and /phase to it only once a server admin allows the role for
    each in Integrations."""
    carol = table.players[2]
    role = table.emu.create_role(table.guild, "Referees")
    table.emu.give_role(table.guild, carol, role)
    table.bot.config.moderator_role = "Referees"
    assert not MODERATORS & set(table.emu.command_list(carol, channel=table.channel))
    table.emu.set_command_permissions(table.guild, {role: True}, command="mod")
    shown = set(table.emu.command_list(carol, channel=table.channel))
    assert shown >= {m for m in MODERATORS if m.startswith("mod ")} and not {m for m in MODERATORS if m.startswith("phase ")} & shown
    table.emu.set_command_permissions(table.guild, {role: True}, command="phase")
    assert set(table.emu.command_list(carol, channel=table.channel)) >= MODERATORS
    assert not MODERATORS & set(table.emu.command_list(table.players[3], channel=table.channel))
    created = await table.run(carol, "mod create", {"max_players": 6})
    assert "Game #" in reply_text(created)
    # An admin who closes both groups to everyone but the role in one channel hides them there.
    table.emu.set_command_permissions(table.guild, {role: True, table.channel: False}, command="mod")
    table.emu.set_command_permissions(table.guild, {role: True, table.channel: False}, command="phase")
    assert not MODERATORS & set(table.emu.command_list(carol, channel=table.channel))


async def test_a_creator_without_manage_server_runs_their_game_from_a_dm(table: Table):
    """Discord applies no member permissions in a DM with the bot: /mod is listed to all
    there, and the bot's own check lets the game's creator through and nobody else."""
    alice, bob = table.players[0], table.players[1]
    role = table.emu.create_role(table.guild, "Referees")
    table.emu.give_role(table.guild, alice, role)
    table.bot.config.moderator_role = "Referees"
    table.emu.set_command_permissions(table.guild, {role: True}, command="mod")
    await table.run(alice, "mod create", {"max_players": 6})
    table.bot.config.moderator_role = ""  # alice is a moderator now only as the creator
    assert set(table.emu.command_list(bob, dm=True)) >= MODERATORS
    await table.run(bob, "game join")  # so that bob's DM is about this game
    refused = await table.run(bob, "mod status", dm=True)
    assert "Only a moderator" in reply_text(refused)
    game = await latest_game_in_channel(table.db, table.channel.id)
    assert game is not None and game.moderator_id == alice.id
    assert "Only a moderator" not in reply_text(await table.run(alice, "mod settings", {"win_score": 20}, dm=True))
    assert (await get_game(table.db, game.id)).settings.win_score == 20


async def test_the_moderators_group_still_refuses_a_member_let_in_without_being_a_moderator(table: Table):
    """An admin may open /phase (or /mod) to everyone; the bot still checks who moderates."""
    await started_game(table)
    table.emu.set_command_permissions(table.guild, {table.guild.everyone_role: True}, command="phase")
    bob = table.players[1]
    assert "phase advance" in table.emu.command_list(bob, channel=table.channel)
    assert "Only a moderator" in reply_text(await table.run(bob, "phase advance"))


async def test_the_first_start_after_the_upgrade_removes_the_old_commands(world):  # noqa: F811
    emu, db, tested, _ = world
    old = [
        {"name": "game", "description": "join, leave, and moderator tools", "type": 1,
         "options": [{"name": "end", "description": "end", "type": 1}, {"name": "join", "description": "join", "type": 1}]},
        {"name": "phase", "description": "close the phase now", "type": 1,
         "options": [{"name": "advance", "description": "advance", "type": 1}]},
    ]  # fmt: skip
    emu.ctx.commands.bulk_overwrite(None, old)
    async with running(emu, db):
        by_name = {c["name"]: c for c in emu.registered_commands()}
        assert {"game", "mod", "phase"} <= set(by_name)
        assert {o["name"] for o in by_name["game"]["options"]} == {"join", "leave", "watch", "unwatch", "history"}
        # The old /phase, listed to everyone, is replaced whole by the moderators' one.
        assert {o["name"] for o in by_name["phase"]["options"]} == {"advance", "extend", "pause", "resume"}
        assert by_name["phase"]["default_member_permissions"] == str(perm.MANAGE_GUILD)
    emu.ctx.commands.bulk_overwrite(tested.id, old)  # an earlier run with command_guild_ids
    async with running(emu, db, command_guild_ids=[tested.id]):
        phase = next(c for c in emu.registered_commands(tested) if c["name"] == "phase")
        assert phase["default_member_permissions"] == str(perm.MANAGE_GUILD) and len(phase["options"]) == 4


async def test_help_names_the_new_commands(table: Table):
    help_text = reply_text(await table.run(table.players[1], "help"))
    assert "`/mod create`" in help_text and "`/phase advance`" in help_text and "`/mod advance`" not in help_text
    assert "`/game end`" not in help_text


async def test_help_opens_with_practice_and_lists_every_command_whole(table: Table):
    """/help first points a newcomer at /practice start, in the reader's language; its
    command lists go on in further fields rather than being cut at 1,024 characters."""
    from bot.features.help.cog import HELP_SECTIONS

    for who, practice in ((table.players[1], "`/practice start`"), (table.players[0], "`/练习 开始`")):
        result = await table.run(who, "help", dm=True)
        embed = result.message.embeds[0]
        assert embed["description"].startswith("🌱") and practice in embed["description"].split("\n")[0]
        assert all(len(f["value"]) <= 1024 for f in embed["fields"])
    english = reply_text(await table.run(table.players[1], "help"))
    for _, paths in HELP_SECTIONS:
        for path in paths:
            assert f"`/{path}`" in english, path
