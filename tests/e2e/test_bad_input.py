"""Every way to get a command wrong, as players do: the wrong phase, not in the game, dead,
wounded, a bad target, a number out of range, an unknown skill, a moderator command
from a player, a DM from a stranger. Each is answered with a clear error in the sender's
language, visible only to them, and changes nothing (the game's version, its
submissions and its outgoing messages are compared before and after).

The dead and the wounded player are made so by the test itself (it edits the stored
game state, as a god would): waiting for the dice to wound someone would make the test
long and fragile."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any

import pytest
from sqlalchemy import func, select

import engine
from bot.discord.errors import HINTS
from bot.sandbox import play_reader as reader
from bot.sandbox.people import Person, Reply
from bot.sandbox.play_game import GameOptions, TableGame
from bot.sandbox.play_table import GameClock, TableSpec, Tavern
from bot.sandbox.players import Player
from discord_emulator import Message
from tests.e2e.conftest import error_text, is_localized, run

# id -> (catalogue key of the expected answer, phase it is tried in)
CASES: dict[str, tuple[str, str]] = {
    "vote_in_the_day": ("error.wrong_phase", "day"),
    "attack_in_the_day_zh": ("error.wrong_phase", "day"),
    "not_in_this_game": ("svc.not_in_game", "day"),
    "stranger_in_dms": ("svc.no_active_game", "day"),
    "stranger_in_dms_zh": ("svc.no_active_game", "day"),
    "dead_sends_a_number": ("error.dead", "day"),
    "grail_zero": ("error.out_of_range", "day"),
    "grail_too_big_zh": ("error.out_of_range", "day"),
    "grail_form_not_a_number": ("reply.error.not_a_number", "day"),
    "grail_form_superscript_two": ("reply.error.not_a_number", "day"),
    "grail_form_below_one": ("error.out_of_range", "day"),
    "replace_with_a_player_of_a_game": ("svc.newcomer_busy", "day"),
    "player_starts_the_game": ("reply.error.not_moderator", "day"),
    "player_advances_the_phase_zh": ("reply.error.not_moderator", "day"),
    "player_kicks_someone": ("reply.error.not_moderator", "day"),
    "extend_by_seconds": ("reply.error.duration", "day"),
    "reminder_not_a_time_zh": ("reply.error.reminder", "day"),
    "attack_nobody": ("reply.error.player_unknown", "dusk"),
    "wounded_attacks": ("error.wounded", "dusk"),
    "unknown_skill": ("reply.error.skill_unknown", "dusk"),
    "spell_without_an_amount_zh": ("error.order_shape", "dusk"),
    "attack_oneself": ("error.self_target", "dusk"),
    "identify_the_dead": ("reply.error.player_gone", "dusk"),
    "unknown_guess_zh": ("reply.error.guess_unknown", "dusk"),
    "vote_for_oneself_zh": ("error.self_target", "morning"),
    "vote_for_the_dead": ("reply.error.player_gone", "morning"),
}


@dataclass
class Tried:
    locale: str
    messages: list[Message]
    ephemeral: bool
    before: tuple[Any, ...]
    after: tuple[Any, ...]


async def fingerprint(tavern: Tavern, game_id: int) -> tuple[Any, ...]:
    """What a refused command must not change: the game row, its submissions, its mail."""
    from bot.db.models import Game, OutboxMessage, Submission

    async with tavern.db.read() as s:
        game = await s.get(Game, game_id)
        assert game is not None
        subs = (
            await s.execute(
                select(func.count(), func.coalesce(func.sum(Submission.revision), 0)).where(
                    Submission.game_id == game_id
                )
            )
        ).one()
        mail = (
            await s.execute(select(func.count()).where(OutboxMessage.game_id == game_id))
        ).scalar_one()
        return (
            game.version,
            game.round,
            game.phase,
            game.status,
            tuple(subs),
            mail,
            str(game.state),
        )


async def edit_state(tavern: Tavern, game_id: int, seat: int, hp: int) -> None:
    """God's hand: set one seat's HP (0 wounds, below 0 kills)."""
    from bot.db.models import Game

    async with tavern.db.transaction() as s:
        game = await s.get(Game, game_id)
        assert game is not None and game.state is not None
        state = engine.GameState.from_dict(game.state)
        p = state.player(seat)
        p.hp = hp
        p.alive = hp >= 0
        game.state = state.to_dict()


async def make_class(tavern: Tavern, game_id: int, seat: int, class_id: str) -> None:
    """God's hand: give one seat another class (for a skill the deal may not include)."""
    from bot.db.models import Game

    async with tavern.db.transaction() as s:
        game = await s.get(Game, game_id)
        assert game is not None and game.state is not None
        state = engine.GameState.from_dict(game.state)
        state.player(seat).class_id = class_id
        game.state = state.to_dict()


async def scenario() -> dict[str, Tried]:
    async with Tavern(clock=GameClock(1.0), seed="bad-input") as tavern:
        seating = tavern.seat_table(TableSpec(players=6))
        game = TableGame(
            tavern, seating, GameOptions(day="1h", dusk="1h", morning="1h"), seed="bad-input"
        )
        assert tavern.guild is not None
        stranger = tavern.emu.create_user("mallory")
        tavern.emu.add_member(tavern.guild, stranger)
        stranger_zh = tavern.emu.create_user("小偷", locale="zh-CN")
        tavern.emu.add_member(tavern.guild, stranger_zh)
        await game.open()
        assert game.game_id is not None
        gid = game.game_id
        assert await game.next_phase(1, "day")
        for p in game.players:
            await p.read()
        alice, bob, amin, carol, dave, hong = game.players  # 阿明 and 小红 speak zh-CN
        assert amin.locale == "zh-CN" and hong.locale == "zh-CN"
        dead, wounded = carol, dave
        await edit_state(tavern, gid, dead.seat or 0, -1)
        await edit_state(tavern, gid, wounded.seat or 0, 0)
        someone = Person(tavern, stranger, seating.channel, game.stats, in_dm=False)
        someone_zh = Person(tavern, stranger_zh, seating.channel, game.stats, in_dm=True)
        results: dict[str, Tried] = {}

        async def attempt(case: str, who: Person, act: Any) -> None:
            before = await fingerprint(tavern, gid)
            reply: Reply = await act
            await asyncio.sleep(0)  # let anything the refusal might have set off start
            after = await fingerprint(tavern, gid)
            results[case] = Tried(
                who.locale, reply.messages, all(m.ephemeral for m in reply.messages), before, after
            )

        async def form_with(p: Player, text: str) -> Reply:
            opened = await p.command("orders")
            found = opened.find("wh:grail:")
            assert found, opened.text
            form = await p.click(*found)
            assert form.result is not None and form.result.modal
            from bot.sandbox.players import _text_input_id

            return await p.submit_form(form, {_text_input_id(form.result.modal): text})

        # -- Day 1 ------------------------------------------------------------------
        await attempt("vote_in_the_day", alice, alice.command("vote", {"player": "2"}))
        await attempt("attack_in_the_day_zh", amin, amin.command("act attack", {"player": "1"}))
        await attempt("not_in_this_game", someone, someone.command("grail", {"number": 50}))
        await attempt(
            "stranger_in_dms", someone, someone.command("grail", {"number": 50}, in_dm=True)
        )
        await attempt("stranger_in_dms_zh", someone_zh, someone_zh.command("me", in_dm=True))
        await attempt("dead_sends_a_number", dead, dead.command("grail", {"number": 50}))
        await attempt("grail_zero", alice, alice.command("grail", {"number": 0}))
        await attempt("grail_too_big_zh", amin, amin.command("grail", {"number": 101}))
        await attempt("grail_form_not_a_number", bob, form_with(bob, "abc"))
        await attempt("grail_form_superscript_two", bob, form_with(bob, "²"))  # a digit int() cannot read
        await attempt("grail_form_below_one", alice, form_with(alice, "-1"))
        await attempt(
            "replace_with_a_player_of_a_game",
            game.moderator,
            game.moderator.command("mod replace", {"player": str(alice.seat), "newcomer": bob.user}),
        )
        await attempt("player_starts_the_game", bob, bob.command("mod start", in_dm=True))
        await attempt(
            "player_advances_the_phase_zh", hong, hong.command("phase advance", in_dm=True)
        )
        await attempt(
            "player_kicks_someone", alice, alice.command("mod kick", {"player": "2"}, in_dm=True)
        )
        await attempt(
            "extend_by_seconds",
            game.moderator,
            game.moderator.command("phase extend", {"duration": "5s"}),
        )
        mod_zh = Person(tavern, tavern.emu.create_user("主持", locale="zh-CN"), seating.channel, game.stats, in_dm=False)
        tavern.emu.add_member(tavern.guild, mod_zh.user)
        tavern.emu.give_role(tavern.guild, mod_zh.user, tavern.moderators)
        await attempt("reminder_not_a_time_zh", mod_zh, mod_zh.command("mod settings", {"reminder": "马上"}))
        assert not (await game.moderator.command("mod settings", {"reminder": "OFF"})).error
        # Full-width digits, as a Chinese keyboard types them, are a number.
        assert not (await form_with(hong, "５０")).error
        for p in (alice, bob, amin, wounded):
            await p.command("grail", {"number": 50})
        assert not (await game.moderator.advance()).error
        assert await game.next_phase(1, "dusk")

        # -- Dusk 1 -----------------------------------------------------------------
        await attempt("attack_nobody", bob, bob.command("act attack", {"player": "nobody at all"}))
        await attempt(
            "wounded_attacks", wounded, wounded.command("act attack", {"player": str(alice.seat)})
        )
        await attempt("unknown_skill", alice, alice.command("act skill", {"skill": "teleport"}))
        await make_class(tavern, gid, amin.seat or 0, "sorcerer")
        await attempt(
            "spell_without_an_amount_zh",
            amin,
            amin.command("act skill", {"skill": "chaos_bolt", "target": str(alice.seat)}),
        )
        await attempt("attack_oneself", bob, bob.command("act attack", {"player": str(bob.seat)}))
        await attempt(
            "identify_the_dead",
            alice,
            alice.command("identify", {"player": str(dead.seat), "guess": "faction:lawful"}),
        )
        await attempt(
            "unknown_guess_zh", hong, hong.command("identify", {"player": "1", "guess": "龙骑士"})
        )
        assert not (await game.moderator.advance()).error
        assert await game.next_phase(1, "morning")

        # -- Morning 1 --------------------------------------------------------------
        await attempt("vote_for_oneself_zh", amin, amin.command("vote", {"player": str(amin.seat)}))
        await attempt("vote_for_the_dead", alice, alice.command("vote", {"player": str(dead.seat)}))
        assert tavern.emu.server_errors == []
        return results


@pytest.fixture(scope="module")
def tried() -> dict[str, Tried]:
    return run(scenario())


@pytest.mark.parametrize("case", list(CASES))
def test_a_mistake_gets_a_clear_private_answer_in_the_senders_language_and_changes_nothing(
    tried: dict[str, Tried], case: str
):
    key, _ = CASES[case]
    got = tried[case]
    text = error_text(got.messages)
    assert text, f"no error shown: {[reader.message_text(m) for m in got.messages]}"
    if key in HINTS:  # the refusal, then what to do next
        text, _, hint = text.rpartition("\n")
        assert is_localized(hint, HINTS[key], got.locale), (HINTS[key], got.locale, hint)
    assert is_localized(text, key, got.locale), (key, got.locale, text)
    assert got.ephemeral, "the answer was visible to others"
    assert got.before == got.after, "the refused command changed the game"
