"""Hostile and clumsy people, beyond the everyday mistakes of ``test_bad_input``: numbers
far out of range, a toggle or a skill out of place, a once-per-game skill twice, a
player of another game in this game's channel, a moderator of another server, players
trying moderator commands that read secrets (status, log), a paused game, panels from a
closed phase, and everything tried again once the game has ended. Each refusal is a
clear error in the sender's language, seen only by them, and changes nothing.

And one thing that must *not* be refused: a player held in a grapple is never told so
(RULES: "It is not told it is grappled"), so their orders are taken like anyone's and
their own sheet does not name the hold."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any

import pytest

import engine
from bot.discord.errors import HINTS
from bot.i18n import t
from bot.sandbox import play_reader as reader
from bot.sandbox.people import Person, Reply
from bot.sandbox.play_game import GameOptions, TableGame
from bot.sandbox.play_table import GameClock, TableSpec, Tavern
from bot.sandbox.players import Player, _text_input_id
from discord_emulator import Message
from engine.model import Condition, State
from tests.e2e.conftest import error_text, is_localized, run
from tests.e2e.test_bad_input import fingerprint, make_class

# id -> catalogue key of the expected answer
CASES: dict[str, str] = {
    # a lobby beside the running games, and moderators' slips
    "create_in_a_dm": "reply.error.create_where",
    "create_by_a_player": "reply.error.not_moderator",
    "create_where_a_game_runs": "svc.channel_has_game",
    "join_in_a_dm_zh": "reply.error.join_where",
    "join_a_second_game_zh": "svc.already_in_game",
    "join_twice": "svc.already_joined",
    "join_a_running_game": "svc.lobby_closed",
    "leave_a_running_game": "svc.lobby_closed",
    "replace_with_a_bot": "reply.error.newcomer_bot",
    "replace_with_someone_from_another_server": "svc.newcomer_not_member",
    "pause_twice": "svc.already_paused",
    "resume_a_running_game": "svc.not_paused",
    "log_in_a_dm_without_a_number": "reply.error.log_which",
    "log_of_no_such_game": "svc.game_not_found",
    "rules_of_no_such_topic_zh": "reply.error.topic_unknown",
    # Day 1
    "grail_minus_five": "error.out_of_range",
    "grail_beyond_any_range_zh": "error.out_of_range",
    "grail_form_with_a_decimal": "reply.error.not_a_number",
    "player_of_another_game_in_this_channel": "svc.not_in_game",
    "toggle_in_the_day": "error.wrong_phase",
    "status_by_a_player": "reply.error.not_moderator",
    "log_by_a_player_zh": "reply.error.not_moderator",
    "pause_by_a_player": "reply.error.not_moderator",
    "end_by_a_player_zh": "reply.error.not_moderator",
    "settings_by_a_player": "reply.error.not_moderator",
    "extend_by_a_player": "reply.error.not_moderator",
    "moderator_of_another_server_advances": "reply.error.not_moderator",
    "moderator_of_another_server_reads_the_status": "reply.error.not_moderator",
    "moderator_of_another_server_reads_the_log_by_number": "reply.error.not_moderator",
    "grail_while_paused": "svc.game_paused",
    "grail_form_while_paused_zh": "svc.game_paused",
    "advance_while_paused": "svc.paused_advance",
    # Dusk 1
    "attack_the_bot": "reply.error.player_unknown",
    "attack_seat_zero": "reply.error.player_unknown",
    "attack_seat_ninety_nine_zh": "reply.error.player_unknown",
    "skill_of_another_class": "reply.error.skill_unknown",
    "passive_skill_ordered": "error.skill_unavailable",
    "spell_amount_huge": "error.out_of_range",
    "spell_amount_negative_zh": "error.out_of_range",
    "grail_form_of_the_closed_day": "svc.phase_closed",
    "grail_button_of_the_closed_day": "svc.phase_closed",
    "grail_button_while_paused_zh": "svc.game_paused",
    # Morning 1
    "attack_menu_of_the_closed_dusk_zh": "svc.phase_closed",
    "toggle_in_the_morning": "svc.phase_closed",
    "identify_menu_of_the_closed_dusk": "svc.phase_closed",
    "skill_menu_of_the_closed_dusk_zh": "svc.phase_closed",
    # Dusk 2
    "once_per_game_skill_twice": "error.skill_unavailable",
    "attack_a_removed_player_by_seat": "reply.error.player_gone",
    "attack_a_removed_player_by_mention_zh": "reply.error.player_gone",
    "identify_a_removed_player_by_name": "reply.error.player_gone",
    "attack_someone_not_playing": "reply.error.player_unknown",
    # after the end
    "vote_after_the_end": "svc.no_active_game",
    "vote_menu_after_the_end_zh": "svc.game_finished",
    "advance_after_the_end": "reply.error.no_game_here_elsewhere",  # game B still plays here
    "panel_button_after_the_end": "svc.game_finished",
}


@dataclass
class Tried:
    locale: str
    messages: list[Message]
    ephemeral: bool
    unchanged: bool


@dataclass
class Seen:
    tried: dict[str, Tried] = field(default_factory=dict)
    held_receipt: Reply | None = None
    held_sheet: str = ""
    free_receipt: Reply | None = None
    removed_moderator_status: str = ""


async def scenario() -> Seen:
    seen = Seen()
    async with Tavern(clock=GameClock(1.0), seed="hostile") as tavern:
        assert tavern.guild is not None
        slow = GameOptions(day="1h", dusk="1h", morning="1h")
        game = TableGame(tavern, tavern.seat_table(TableSpec(players=6)), slow, seed="hostile")
        other = TableGame(
            tavern,
            tavern.seat_table(TableSpec(players=6, name_prefix="b-"), "tavern-b"),
            slow,
            seed="hostile-b",
        )
        # The owner of another server (Manage Server there) is a plain member here.
        rival_user = tavern.emu.create_user("rival")
        tavern.emu.create_guild("Rival Inn", owner=rival_user)
        tavern.emu.add_member(tavern.guild, rival_user)
        await game.open()
        await other.open()
        gid = game.game_id
        assert gid is not None
        channel = game.seating.channel
        rival = Person(tavern, rival_user, channel, game.stats, in_dm=False)
        outsider = other.players[0]
        outsider.channel = channel  # a player of game B, typing in game A's channel
        outsider.in_dm = False
        mod = game.moderator
        assert await game.next_phase(1, "day")
        for p in game.players:
            await p.read()
        alice, bob, amin, carol, dave, hong = game.players  # 阿明 and 小红 speak zh-CN
        assert amin.locale == hong.locale == "zh-CN"

        async def attempt(case: str, who: Person, act: Any) -> Reply:
            before = await fingerprint(tavern, gid)
            reply: Reply = await act
            await asyncio.sleep(0)
            seen.tried[case] = Tried(
                who.locale,
                reply.messages,
                bool(reply.messages) and all(m.ephemeral for m in reply.messages),
                before == await fingerprint(tavern, gid),
            )
            return reply

        async def open_form(p: Player) -> Reply:
            opened = await p.command("orders")
            found = opened.find("wh:grail:")
            assert found, opened.text
            form = await p.click(*found)
            assert form.result is not None and form.result.modal
            return form

        async def fill(p: Player, form: Reply, text: str) -> Reply:
            assert form.result is not None and form.result.modal
            return await p.submit_form(form, {_text_input_id(form.result.modal): text})

        # -- Day 1 ------------------------------------------------------------------
        await attempt("grail_minus_five", alice, alice.command("grail", {"number": -5}))
        await attempt("grail_beyond_any_range_zh", amin, amin.command("grail", {"number": 2**53}))
        await attempt("grail_form_with_a_decimal", bob, fill(bob, await open_form(bob), "3.5"))
        await attempt(
            "player_of_another_game_in_this_channel",
            outsider,
            outsider.command("grail", {"number": 50}),
        )
        await make_class(tavern, gid, alice.seat or 0, "rogue")
        await attempt(
            "toggle_in_the_day", alice, alice.command("act skill", {"skill": "hide_in_shadows"})
        )
        await attempt("status_by_a_player", bob, bob.command("mod status", in_dm=True))
        await attempt("log_by_a_player_zh", amin, amin.command("mod log", {"game": gid}, in_dm=True))
        await attempt("pause_by_a_player", bob, bob.command("phase pause", in_dm=True))
        await attempt("end_by_a_player_zh", hong, hong.command("mod end", in_dm=True))
        await attempt(
            "settings_by_a_player", bob, bob.command("mod settings", {"day": "2h"}, in_dm=True)
        )
        await attempt(
            "extend_by_a_player", bob, bob.command("phase extend", {"duration": "1h"}, in_dm=True)
        )
        # From here this server's admin has opened /mod and /phase to everyone (Server
        # Settings → Integrations): Discord lists them to all, and the bot's own check refuses.
        for command in ("mod", "phase"):
            tavern.emu.set_command_permissions(tavern.guild, {tavern.guild.everyone_role: True}, command=command)
        await attempt("moderator_of_another_server_advances", rival, rival.command("phase advance"))
        await attempt(
            "moderator_of_another_server_reads_the_status", rival, rival.command("mod status")
        )
        await attempt(
            "moderator_of_another_server_reads_the_log_by_number",
            rival,
            rival.command("mod log", {"game": gid}, in_dm=True),
        )
        lobby_channel = tavern.emu.create_text_channel(tavern.guild, "tavern-c")
        mod_c = Person(tavern, mod.user, lobby_channel, game.stats, in_dm=False)
        assert not (await mod_c.command("mod create")).error
        stranger = Person(
            tavern, tavern.emu.create_user("mallory"), lobby_channel, game.stats, in_dm=False
        )
        tavern.emu.add_member(tavern.guild, stranger.user)
        assert not (await stranger.command("game join")).error
        await attempt("create_in_a_dm", mod, mod.command("mod create", in_dm=True))
        elsewhere = tavern.emu.create_text_channel(tavern.guild, "no-game-here")
        player_elsewhere = Person(tavern, stranger.user, elsewhere, game.stats, in_dm=False)
        await attempt("create_by_a_player", stranger, player_elsewhere.command("mod create"))
        await attempt("create_where_a_game_runs", mod, mod.command("mod create"))
        await attempt("join_in_a_dm_zh", hong, hong.command("game join", in_dm=True))
        amin_c = Person(tavern, amin.user, lobby_channel, game.stats, in_dm=False)
        await attempt("join_a_second_game_zh", amin_c, amin_c.command("game join"))
        await attempt("join_twice", stranger, stranger.command("game join"))
        stranger_a = Person(tavern, stranger.user, channel, game.stats, in_dm=False)
        await attempt("join_a_running_game", stranger_a, stranger_a.command("game join"))
        await attempt("leave_a_running_game", alice, alice.command("game leave", in_dm=False))
        await attempt(
            "replace_with_a_bot",
            mod,
            mod.command("mod replace", {"player": "1", "newcomer": tavern.emu.bot_user}),
        )
        far = tavern.emu.create_user("faraway")
        await attempt(
            "replace_with_someone_from_another_server",
            mod,
            mod.command("mod replace", {"player": "1", "newcomer": far}),
        )
        await attempt("resume_a_running_game", mod, mod.command("phase resume"))
        await attempt("log_in_a_dm_without_a_number", bob, bob.command("mod log", in_dm=True))
        await attempt("log_of_no_such_game", mod, mod.command("mod log", {"game": 9999}))
        await attempt(
            "rules_of_no_such_topic_zh", hong, hong.command("rules", {"topic": "龙骑士"})
        )
        day_form = await open_form(bob)  # kept open until the Day has closed
        day_panel = await bob.command("orders")  # its grail button pressed after the Day
        paused_form = await open_form(hong)  # opened before the pause, sent during it
        hong_panel = await hong.command("orders")
        assert not (await mod.command("phase pause")).error
        await attempt("grail_button_while_paused_zh", hong, hong.click(*hong_panel.find("wh:grail:")))
        await attempt("grail_while_paused", alice, alice.command("grail", {"number": 50}))
        await attempt("grail_form_while_paused_zh", hong, fill(hong, paused_form, "50"))
        await attempt("advance_while_paused", mod, mod.command("phase advance"))
        await attempt("pause_twice", mod, mod.command("phase pause"))
        assert not (await mod.command("phase resume")).error
        for p in game.players:
            assert not (await p.command("grail", {"number": 50})).error
        assert not (await mod.advance()).error
        assert await game.next_phase(1, "dusk")

        # -- Dusk 1 -----------------------------------------------------------------
        bot_mention = f"<@{tavern.emu.bot_user.id}>"
        await attempt("attack_the_bot", bob, bob.command("act attack", {"player": bot_mention}))
        await attempt("attack_seat_zero", bob, bob.command("act attack", {"player": "0"}))
        await attempt(
            "attack_seat_ninety_nine_zh", amin, amin.command("act attack", {"player": "99"})
        )
        await make_class(tavern, gid, bob.seat or 0, "warrior")
        await attempt(
            "skill_of_another_class",
            bob,
            bob.command("act skill", {"skill": "chaos_bolt", "target": str(alice.seat)}),
        )
        await attempt(
            "passive_skill_ordered", bob, bob.command("act skill", {"skill": "combat_reflexes"})
        )
        await make_class(tavern, gid, amin.seat or 0, "sorcerer")
        await attempt(
            "spell_amount_huge",
            amin,
            amin.command(
                "act skill", {"skill": "chaos_bolt", "target": str(alice.seat), "amount": 2**53}
            ),
        )
        await attempt(
            "spell_amount_negative_zh",
            amin,
            amin.command(
                "act skill", {"skill": "chaos_bolt", "target": str(alice.seat), "amount": -5}
            ),
        )
        await attempt("grail_form_of_the_closed_day", bob, fill(bob, day_form, "42"))
        await attempt("grail_button_of_the_closed_day", bob, bob.click(*day_panel.find("wh:grail:")))
        # carol is held by dave, a Monk: she is not told, and her orders are taken.
        await make_class(tavern, gid, dave.seat or 0, "monk")
        await hold(tavern, gid, held=carol.seat or 0, by=dave.seat or 0)
        seen.held_receipt = await carol.command("act attack", {"player": str(hong.seat)})
        seen.held_sheet = (await carol.command("me")).text
        seen.free_receipt = await hong.command("act attack", {"player": str(carol.seat)})
        await hong.command("orders", {"clear": "orders"})
        await carol.command("orders", {"clear": "orders"})
        await release(tavern, gid, held=carol.seat or 0, by=dave.seat or 0)
        # A once-per-game skill, used tonight.
        assert not (await bob.command("act skill", {"skill": "combat_expertise"})).error
        dusk_panel = await amin.command("orders")
        assert dusk_panel.find("wh:atk:"), dusk_panel.text
        alice_panel = await alice.command("orders")
        assert alice_panel.find("wh:idp:"), alice_panel.text
        assert not (await mod.advance()).error
        assert await game.next_phase(1, "morning")

        # -- Morning 1 --------------------------------------------------------------
        menu = dusk_panel.find("wh:atk:")
        assert menu is not None
        await attempt(
            "attack_menu_of_the_closed_dusk_zh",
            amin,
            amin.select(menu[0], menu[1], [str(alice.seat)]),
        )
        # The two-step menus say so at the first step, not after the last.
        idp = alice_panel.find("wh:idp:")
        assert idp is not None
        await attempt(
            "identify_menu_of_the_closed_dusk", alice, alice.select(idp[0], idp[1], [str(bob.seat)])
        )
        skills = dusk_panel.find("wh:skill:")
        assert skills is not None
        await attempt(
            "skill_menu_of_the_closed_dusk_zh", amin, amin.select(skills[0], skills[1], ["chaos_bolt"])
        )
        await attempt(
            "toggle_in_the_morning", alice, alice.command("act skill", {"skill": "hide_in_shadows"})
        )
        vote_panel = await hong.command("orders")
        vote_menu = vote_panel.find("wh:vote:")
        assert vote_menu is not None, vote_panel.text
        assert not (await mod.advance()).error
        assert await game.next_phase(2, "day")
        assert not (await mod.advance()).error
        assert await game.next_phase(2, "dusk")

        # -- Dusk 2 -----------------------------------------------------------------
        await attempt(
            "once_per_game_skill_twice",
            bob,
            bob.command("act skill", {"skill": "combat_expertise"}),
        )

        assert not (await mod.command("mod kick", {"player": str(dave.seat)})).error
        await attempt(
            "attack_a_removed_player_by_seat",
            bob,
            bob.command("act attack", {"player": str(dave.seat)}),
        )
        await attempt(
            "attack_a_removed_player_by_mention_zh",
            hong,
            hong.command("act attack", {"player": f"<@{dave.user.id}>"}),
        )
        await attempt(
            "identify_a_removed_player_by_name",
            alice,
            alice.command("identify", {"player": dave.name, "guess": "faction:lawful"}),
        )
        # dave, removed, is (or becomes) a moderator: his faction plays on, so he is
        # shown only the count of who has sent, as any moderator with a seat is.
        tavern.emu.give_role(tavern.guild, dave.user, tavern.moderators)
        seen.removed_moderator_status = (await dave.command("mod status", in_dm=False)).text
        await attempt(
            "attack_someone_not_playing",
            bob,
            bob.command("act attack", {"player": f"<@{rival_user.id}>"}),
        )

        # -- the end ----------------------------------------------------------------
        confirm = await mod.command("mod end")
        button = confirm.find("wh:end:")
        assert button is not None, confirm.text
        assert not (await mod.click(*button)).error
        await tavern.drained()
        await attempt("vote_after_the_end", alice, alice.command("vote", {"player": "2"}))
        await attempt(
            "vote_menu_after_the_end_zh",
            hong,
            hong.select(vote_menu[0], vote_menu[1], [str(alice.seat)]),
        )
        await attempt("advance_after_the_end", mod, mod.command("phase advance"))
        post = next(
            m for m in reversed(tavern.public(channel)) if f"wh:open:{gid}" in m.custom_ids()
        )
        await attempt("panel_button_after_the_end", bob, bob.click(post, f"wh:open:{gid}"))
        assert tavern.emu.server_errors == []
    return seen


async def hold(tavern: Tavern, game_id: int, *, held: int, by: int) -> None:
    """God's hand: seat ``by`` (a Monk) holds seat ``held`` in a grapple."""
    from bot.db.models import Game

    async with tavern.db.transaction() as s:
        game = await s.get(Game, game_id)
        assert game is not None and game.state is not None
        state = engine.GameState.from_dict(game.state)
        state.player(held).conditions[State.GRAPPLED] = Condition(
            source=by
        )
        state.player(by).memory["grappling"] = held
        game.state = state.to_dict()


async def release(tavern: Tavern, game_id: int, *, held: int, by: int) -> None:
    from bot.db.models import Game

    async with tavern.db.transaction() as s:
        game = await s.get(Game, game_id)
        assert game is not None and game.state is not None
        state = engine.GameState.from_dict(game.state)
        state.player(held).conditions.pop(State.GRAPPLED, None)
        state.player(by).memory.pop("grappling", None)
        game.state = state.to_dict()


@pytest.fixture(scope="module")
def seen() -> Seen:
    return run(scenario())


@pytest.mark.parametrize("case", list(CASES))
def test_a_hostile_input_gets_a_clear_private_answer_and_changes_nothing(
    seen: Seen, case: str
) -> None:
    key = CASES[case]
    got = seen.tried[case]
    text = error_text(got.messages)
    assert text, f"no error shown: {[reader.message_text(m) for m in got.messages]}"
    if key in HINTS:
        text, _, hint = text.rpartition("\n")
        assert is_localized(hint, HINTS[key], got.locale), (HINTS[key], got.locale, hint)
    assert is_localized(text, key, got.locale), (key, got.locale, text)
    assert got.ephemeral, "the answer was visible to others"
    assert got.unchanged, "the refused command changed the game"


def test_a_held_player_is_not_told_and_orders_as_anyone(seen: Seen) -> None:
    held, free = seen.held_receipt, seen.free_receipt
    assert held is not None and free is not None
    assert not held.error and not free.error, (held.text, free.text)
    # The same receipt, but for the names in it.
    assert [len(m.embeds) for m in held.messages] == [len(m.embeds) for m in free.messages]
    for loc in ("en-US", "zh-CN"):
        assert t("state.grappled", loc) not in seen.held_sheet, seen.held_sheet



def test_a_moderator_removed_from_the_game_sees_only_the_count(seen: Seen) -> None:
    assert t("reply.status.counts_only", "en-US") in seen.removed_moderator_status, (
        seen.removed_moderator_status
    )
