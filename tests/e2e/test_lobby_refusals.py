"""Before the start, as people try things in a lobby: a moderator closing a phase that
does not exist yet, players naming each other in orders and votes, a moderator removing
someone who joined. Each refusal says the game has not started, in the sender's
language, privately, and changes nothing; the removal takes the player off the roster
and the lobby post.

Also here: names and typed text that happen to look like the bot's own message keys
are shown as they are, never swapped for a translation."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any

import pytest

from bot.sandbox import play_reader as reader
from bot.sandbox.people import Person, Reply
from bot.sandbox.play_game import GameOptions, TableGame
from bot.sandbox.play_table import GameClock, TableSpec, Tavern
from tests.e2e.conftest import error_text, is_localized, run
from tests.e2e.test_bad_input import fingerprint

# id -> catalogue key of the expected refusal
CASES: dict[str, str] = {
    "advance_in_the_lobby": "svc.not_started",
    "advance_in_the_lobby_zh": "svc.not_started",
    "attack_in_the_lobby": "reply.error.not_started",
    "vote_in_the_lobby_zh": "reply.error.not_started",
    "identify_in_the_lobby": "reply.error.not_started",
    "replace_in_the_lobby": "reply.error.not_started",
    "join_again_after_a_kick": "svc.kicked_from_lobby",
}


@dataclass
class Tried:
    locale: str
    text: str
    ephemeral: bool
    unchanged: bool


@dataclass
class Seen:
    tried: dict[str, Tried]
    roster_after_kick: list[str]
    lobby_post_after_kick: str
    typed_key_reply: str
    departure_post: str
    odd_name: str
    kicked_dm: str


ODD_NAME = "phase.day"  # a display name that is also a catalogue key


async def scenario() -> Seen:
    async with Tavern(clock=GameClock(1.0), seed="lobby-refusals") as tavern:
        seating = tavern.seat_table(TableSpec(players=7))
        odd = tavern.emu.create_user(ODD_NAME)
        assert tavern.guild is not None
        tavern.emu.add_member(tavern.guild, odd)
        seating.players[-1] = odd
        game = TableGame(tavern, seating, GameOptions(day="1h", dusk="1h", morning="1h"), seed="lobby-refusals")
        mod = game.moderator
        mod_zh_user = tavern.emu.create_user("管理员", locale="zh-CN")
        tavern.emu.add_member(tavern.guild, mod_zh_user)
        tavern.emu.give_role(tavern.guild, mod_zh_user, tavern.moderators)
        mod_zh = Person(tavern, mod_zh_user, seating.channel, game.stats, in_dm=False)
        assert not (await mod.create(day="1h", dusk="1h", morning="1h", reminder="0")).error
        gid = mod.game_id
        assert gid is not None
        alice, bob, amin, carol, dave, _hong, odd_player = game.players
        for p in game.players:
            p.game_id = gid
            assert not (await p.command("game join", in_dm=False)).error
        tried: dict[str, Tried] = {}

        async def attempt(case: str, who: Person, act: Any) -> None:
            before = await fingerprint(tavern, gid)
            reply: Reply = await act
            await asyncio.sleep(0)
            tried[case] = Tried(
                who.locale,
                error_text(reply.messages),
                bool(reply.messages) and all(m.ephemeral for m in reply.messages),
                before == await fingerprint(tavern, gid),
            )

        await attempt("advance_in_the_lobby", mod, mod.command("phase advance"))
        await attempt("advance_in_the_lobby_zh", mod_zh, mod_zh.command("phase advance"))
        await attempt("attack_in_the_lobby", alice, alice.command("act attack", {"player": "bob"}))
        await attempt("vote_in_the_lobby_zh", amin, amin.command("vote", {"player": "alice"}))
        await attempt(
            "identify_in_the_lobby", bob, bob.command("identify", {"player": "alice", "guess": "faction:lawful"})
        )
        await attempt(
            "replace_in_the_lobby", mod, mod.command("mod replace", {"player": "alice", "newcomer": carol.user})
        )

        # The moderator removes dave from the lobby, picking him from the autocomplete.
        choices = await tavern.emu.autocomplete(
            mod.user, "mod kick", focused="player", value="dav", channel=seating.channel
        )
        assert [c["name"] for c in choices] == ["dave"], choices
        kicked = await mod.command("mod kick", {"player": choices[0]["value"]})
        assert not kicked.error, kicked.text
        await tavern.drained()
        kicked_dm = "\n".join(reader.message_text(m) for m in tavern.dms(dave.user))
        await attempt("join_again_after_a_kick", dave, dave.command("game join", in_dm=False))
        status = await mod.status()
        lobby_post = next(
            m for m in reversed(tavern.public(seating.channel)) if any(c.startswith("wh:join:") for c in m.custom_ids())
        )

        # Typed text that is a catalogue key is echoed, not translated.
        assert not (await mod.start()).error
        assert await game.next_phase(1, "day")
        typed = await alice.command("act attack", {"player": "reply.error.unexpected"})
        # The odd name leaves the game: the public post names them as they are called.
        seen = len(tavern.public(seating.channel))
        assert not (await mod.command("mod kick", {"player": ODD_NAME})).error
        await tavern.drained()
        departure = "\n".join(reader.message_text(m) for m in tavern.public(seating.channel)[seen:])
        return Seen(
            tried,
            [line for line in status.text.splitlines() if "dave" in line or "alice" in line],
            reader.message_text(lobby_post),
            error_text(typed.messages),
            departure,
            odd_player.user.username,
            kicked_dm,
        )


@pytest.fixture(scope="module")
def seen() -> Seen:
    return run(scenario())


@pytest.mark.parametrize("case", list(CASES))
def test_a_lobby_refusal_says_the_game_has_not_started(seen: Seen, case: str) -> None:
    got = seen.tried[case]
    assert is_localized(got.text, CASES[case], got.locale), (CASES[case], got.locale, got.text)
    assert got.ephemeral, "the answer was visible to others"
    assert got.unchanged, "the refused command changed the game"


def test_a_moderator_removes_a_joined_player_from_the_lobby(seen: Seen) -> None:
    assert not any("dave" in line for line in seen.roster_after_kick), seen.roster_after_kick
    assert any("alice" in line for line in seen.roster_after_kick)
    assert "dave" not in seen.lobby_post_after_kick and "alice" in seen.lobby_post_after_kick


def test_a_player_taken_out_of_the_lobby_is_told_and_cannot_join_it_again(seen: Seen) -> None:
    assert "taken you out of the lobby" in seen.kicked_dm, seen.kicked_dm
    assert seen.tried["join_again_after_a_kick"].unchanged


def test_text_that_looks_like_a_message_key_is_shown_as_typed(seen: Seen) -> None:
    assert "reply.error.unexpected" in seen.typed_key_reply, seen.typed_key_reply


def test_a_name_that_looks_like_a_message_key_is_shown_as_it_is(seen: Seen) -> None:
    assert seen.odd_name == ODD_NAME
    assert ODD_NAME in seen.departure_post, seen.departure_post
