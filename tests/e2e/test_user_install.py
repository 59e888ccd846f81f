"""The app installed to a person's own account (Discord's user install), on the local Discord.

Ann (English) and Lin (Chinese) installed the app to their accounts. In a server the bot
is not in, and in a DM with Bo (who did not install it), they run ``/help``, ``/rules``,
``/stats view`` and ``/practice start``: every answer comes through the interaction (the
bot cannot read or post there, and never tries), the practice game is played in their DM
with the bot and the answer says so. The server's commands (``/mod create``, ``/grail``)
are not offered there, nor is anything to Bo; the bot's own REST call into such a channel
is refused with Discord's 50001 Missing Access."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import aiohttp
import pytest

from bot.sandbox import play_reader as reader
from bot.sandbox.people import Reply
from bot.sandbox.play_table import GameClock, Tavern
from bot.sandbox.practice import Practiser
from discord_emulator import Message
from discord_emulator.options import InvalidInvocation
from tests.e2e.conftest import error_text, is_localized, run

PLACES = ("server", "private")
ANYWHERE = ["help", "practice start", "practice stop", "rules", "stats forget", "stats hide", "stats show", "stats view"]


@dataclass
class Seen:
    replies: dict[tuple[str, str, str], Reply] = field(default_factory=dict)  # (person, place, command)
    listed: dict[tuple[str, str], list[str]] = field(default_factory=dict)
    refused: dict[str, str] = field(default_factory=dict)  # what the client would not send
    bot_requests_there: list[str] = field(default_factory=list)
    bot_posts_there: list[Message] = field(default_factory=list)
    practice_dms: dict[str, list[Message]] = field(default_factory=dict)
    forced: tuple[int, int] = (0, 0)
    server_errors: list[BaseException] = field(default_factory=list)


async def _refused(call: Any) -> str:
    try:
        await call
    except InvalidInvocation as exc:
        return str(exc)
    return ""


async def scenario() -> Seen:
    seen = Seen()
    async with Tavern(clock=GameClock(1.0), seed="user-install") as tavern:
        emu = tavern.emu
        ann = emu.create_user("ann", locale="en-US")
        lin = emu.create_user("lin", locale="zh-CN")
        bo = emu.create_user("bo", locale="en-US")
        elsewhere = emu.create_guild("Elsewhere", owner=bo, add_bot=False)
        general = next(c for c in elsewhere.channels.values() if c.name == "general")
        for user in (ann, lin):
            emu.add_member(elsewhere, user)
            emu.install_app(user)
        places = {"server": general, "private": None}
        people = {"ann": Practiser(tavern, ann), "lin": Practiser(tavern, lin)}
        for name, p in people.items():
            private = emu.private_channel(p.user, bo)
            for place in PLACES:
                where = places[place] or private
                seen.listed[(name, place)] = emu.command_list(p.user, channel=where)
                p.player.channel = where
                for command, options in (("help", {}), ("rules", {"topic": "phases"}), ("stats view", {})):
                    seen.replies[(name, place, command)] = await p.player.command(command, options, in_dm=False)
        # A practice started from each place is played in the person's DM with the bot.
        for name, place in (("ann", "server"), ("lin", "private")):
            p = people[name]
            where = places[place] or emu.private_channel(p.user, bo)
            seen.replies[(name, place, "practice start")] = await p.start({"players": 6}, channel=where)
            note = reader.text_of("practice.dm_note", p.user.locale)
            await p.wait_post(lambda m, note=note: bool(m.embeds) and note not in reader.message_text(m), "the practice game's first post in the DM")
            seen.practice_dms[name] = list(tavern.dms(p.user))
            p.player.channel = where
            seen.replies[(name, place, "practice stop")] = await p.player.command("practice stop", in_dm=False)
        private = emu.private_channel(ann, bo)
        seen.refused["mod create"] = await _refused(emu.slash(ann, "mod create", channel=general))
        seen.refused["grail"] = await _refused(emu.slash(ann, "grail", {"number": 50}, channel=private))
        seen.refused["bo help"] = await _refused(emu.slash(bo, "help", channel=private))
        seen.refused["bo in the server"] = await _refused(emu.slash(bo, "help", channel=general))
        await tavern.drained()
        unreachable = {str(general.id), str(private.id), str(emu.private_channel(lin, bo).id), str(elsewhere.id)}
        seen.bot_requests_there = [f"{r.method} {r.path}" for r in emu.requests if any(part in unreachable for part in r.path.split("/"))]
        seen.bot_posts_there = [m for c in (general, private) for m in emu.channel_messages(c) if m.author.bot and m.interaction_id is None]
        # The bot's REST call into such a channel (as a bot that tried would make it).
        async with aiohttp.ClientSession(headers={"Authorization": f"Bot {emu.token}"}) as http:
            codes = []
            for channel in (general, private):
                async with http.post(f"{emu.api_url}/channels/{channel.id}/messages", json={"content": "hello"}) as got:
                    codes.append((got.status, (await got.json())["code"]))
            seen.forced = tuple(codes[0]), tuple(codes[1])  # type: ignore[assignment]
        seen.server_errors = list(emu.server_errors)
    return seen


@pytest.fixture(scope="module")
def seen() -> Seen:
    return run(scenario())


def test_only_the_personal_commands_are_offered_where_the_bot_is_not(seen: Seen) -> None:
    for key, listed in seen.listed.items():
        assert listed == ANYWHERE, key
    assert "hidden" in seen.refused["mod create"]
    assert "hidden" in seen.refused["grail"]
    assert "between two other users" not in seen.refused["bo help"] and "hidden" in seen.refused["bo help"]
    assert "has not installed the app" in seen.refused["bo in the server"]


def test_help_rules_and_stats_answer_through_the_interaction(seen: Seen) -> None:
    for name, locale in (("ann", "en-US"), ("lin", "zh-CN")):
        for place in PLACES:
            help_, rules, stats = (seen.replies[(name, place, c)] for c in ("help", "rules", "stats view"))
            assert not help_.error and reader.text_of("help.title", locale) in help_.text, help_.text
            assert not rules.error and reader.text_of("rules.phases_title", locale) in rules.text, rules.text
            assert all(m.ephemeral for r in (help_, rules, stats) for m in r.messages)
            # Nobody has finished a game: the person's records across every server are
            # looked up, and there are none, said in their language (in a server without
            # the bot, saying why "here" would not do).
            key = "stats.no_records_anywhere" if place == "server" else "svc.no_records"
            assert stats.error and is_localized(error_text(stats.messages), key, locale), stats.text


def test_practice_from_there_is_played_in_the_dm_with_the_bot(seen: Seen) -> None:
    for name, place, locale in (("ann", "server", "en-US"), ("lin", "private", "zh-CN")):
        started = seen.replies[(name, place, "practice start")]
        assert not started.error, started.text
        assert reader.text_of("practice.in_your_dms", locale) in started.text
        assert reader.match("practice.started", started.text.splitlines()[-1], [locale]) or any(
            reader.match("practice.started", line, [locale]) for line in started.text.splitlines()
        )
        assert all(m.ephemeral for m in started.messages)
        dms = seen.practice_dms[name]
        assert any(reader.text_of("practice.dm_note", locale) in reader.message_text(m) for m in dms)
        assert len([m for m in dms if m.embeds]) >= 2  # the note, then the game's own posts
        stopped = seen.replies[(name, place, "practice stop")]
        assert not stopped.error and reader.match("practice.stopped", stopped.text, [locale]), stopped.text


def test_the_bot_never_reaches_into_a_place_it_is_not_in(seen: Seen) -> None:
    assert seen.bot_requests_there == []
    assert seen.bot_posts_there == []
    assert seen.forced == ((403, 50001), (403, 50001))
    assert seen.server_errors == []
