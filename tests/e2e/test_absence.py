"""A slow game on the local Discord: day-long phases, the clock moved forward to each
deadline. Two players go quiet from the first Day: each is warned after each missed
phase (one by DM, in Chinese; one whose DMs are closed, in /inbox), the Dusk's reminder
says how many they have missed in a row, and at the second miss the game's default
policy acts: the first seat is offered to the one standby, who accepts with the DM's
button; nobody is left for the second, which is removed. The bot is restarted between
the two misses. The game then plays to its end; its log replays (`wolfhowl verify`) and
the public channel leaks nothing."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import pytest

from bot.features.lobby.games import get_game
from bot.features.replay.verify import verify_log
from bot.i18n import t
from bot.sandbox import play_reader as reader
from bot.sandbox.play_game import TableGame
from bot.sandbox.play_slow import play_on, quiet_phase, seat_offer, slow_options, to_deadline
from bot.sandbox.play_table import GameClock, TableSpec, Tavern
from bot.sandbox.players import Player
from discord_emulator import Message
from tests.e2e.conftest import game_log, run, snapshot
from tests.e2e.test_leaks import leaks


@dataclass
class Slow:
    over: bool
    starts: int
    warned_dm: list[str]  # the zh-CN quiet player's DMs after the first Day
    warned_inbox: str  # the quiet player with closed DMs: /inbox after the first Day
    reminded: list[str]  # the zh-CN quiet player's DMs after the Dusk's reminder
    standby_joined: str
    standby_over: str
    accepted: str
    accepted_again: str
    public: list[str]
    sub_seat: int | None
    gone: dict[str, int | None]
    log: dict[str, Any] | None
    leaks: list[str]
    sends: list[Any]
    errors: list[BaseException]
    refusals: list[tuple[str, str, str]] = field(default_factory=list)


def _texts(messages: list[Message]) -> list[str]:
    return [reader.message_text(m) for m in messages]


async def scenario() -> Slow:
    clock = GameClock(1.0)
    async with Tavern(clock=clock, seed="absence") as tavern:
        seating = tavern.seat_table(TableSpec(players=7, closed_dms=(4,)))
        sub_user = seating.players.pop()  # the seventh member stands by
        options = slow_options(lean=True)
        game = TableGame(tavern, seating, options, seed="absence")
        await game.open()
        assert game.game_id is not None
        game_id = game.game_id
        sub = Player(tavern, sub_user, seating.channel, game.stats, seed="absence", lean=True)
        sub.game_id = game_id
        standby_joined = (await sub.command("standby join", in_dm=False)).text
        quiet_zh, quiet_closed = game.players[2], game.players[4]  # a zh-CN speaker; DMs closed
        active = [p for p in game.players if p not in (quiet_zh, quiet_closed)]
        seats = {p.user_id: p.seat for p in (await get_game(tavern.db, game_id)).players}

        # Day 1: the quiet two send nothing; the deadline closes it.
        assert await quiet_phase(tavern, clock, game, 1, "day", active)
        assert await game.next_phase(1, "dusk")
        await tavern.drained()
        warned_dm = _texts(tavern.dms(quiet_zh.user))
        warned_inbox = (await quiet_closed.command("inbox")).text

        # A deploy between the two misses.
        await tavern.restart_bot()

        # Dusk 1: the reminder an hour before the deadline, then the deadline.
        await game.play_phase(1, "dusk", active)
        seen = len(tavern.dms(quiet_zh.user))
        await to_deadline(tavern, clock, game_id, before=3600)
        await tavern.emu.wait_for(lambda: len(tavern.dms(quiet_zh.user)) > seen, 20, "the reminder")
        reminded = _texts(tavern.dms(quiet_zh.user)[seen:])
        await to_deadline(tavern, clock, game_id)
        assert await game.next_phase(1, "morning")
        await tavern.drained()

        # The seat offered to the standby, by DM with a button.
        await tavern.emu.wait_for(lambda: seat_offer(tavern, sub) is not None, 20, "the standby's offer")
        found = seat_offer(tavern, sub)
        assert found is not None
        accepted = (await sub.click(*found)).text
        accepted_again = (await sub.click(*found)).text
        await tavern.drained()

        # Then the game plays on, the standby in the seat, to its end.
        over = await play_on(tavern, clock, game, [*active, sub], 1, "morning")
        await tavern.drained()
        standby_over = (await sub.command("standby join", {"game": game_id}, in_dm=True)).text
        final = await get_game(tavern.db, game_id)
        sub_seat = next((p.seat for p in final.players if p.user_id == sub_user.id), None)
        log = await game_log(game)
        played = snapshot(tavern, game)
        sends = [
            (r.json or {}).get("nonce")
            for r in tavern.emu.requests
            if r.route == "POST /channels/{channel_id}/messages" and r.status == 200 and isinstance(r.json, dict)
        ]
        return Slow(
            over=over,
            starts=tavern.starts,
            warned_dm=warned_dm,
            warned_inbox=warned_inbox,
            reminded=reminded,
            standby_joined=standby_joined,
            standby_over=standby_over,
            accepted=accepted,
            accepted_again=accepted_again,
            public=played.public_texts(),
            sub_seat=sub_seat,
            gone={p.name: seats[p.user.id] for p in (quiet_zh, quiet_closed)},
            log=log,
            leaks=leaks(played),
            sends=sends,
            errors=list(tavern.emu.server_errors),
            refusals=list(game.stats.refusals),
        )


@pytest.fixture(scope="module")
def slow() -> Slow:
    return run(scenario())


def test_the_slow_game_ends_after_a_restart(slow: Slow) -> None:
    assert slow.over and slow.starts == 2
    assert slow.errors == []
    assert reader.match("absence.standby_joined", slow.standby_joined.strip()), slow.standby_joined


def test_each_quiet_player_is_warned_in_their_language_or_inbox(slow: Slow) -> None:
    zh_next = t("absence.next_replace", "zh-CN", count=1)
    assert any(zh_next in x for x in slow.warned_dm), slow.warned_dm
    en_next = t("absence.next_replace_one", "en-US", count=1)
    assert en_next in slow.warned_inbox, slow.warned_inbox


def test_the_reminder_says_how_many_phases_were_missed(slow: Slow) -> None:
    run_line = t("absence.reminder_run", "zh-CN", count=1)
    assert any(run_line in x for x in slow.reminded), slow.reminded


def test_one_seat_went_to_the_standby_and_one_was_removed(slow: Slow) -> None:
    assert "🪑" in slow.accepted and "⚠️" not in slow.accepted
    assert "⚠️" in slow.accepted_again  # taken: refused, nothing changed
    assert slow.log is not None
    steps = slow.log["steps"]
    replaced = [st["inputs"] for st in steps if st["kind"] == "replace"]
    removed = [st["inputs"] for st in steps if st["kind"] == "remove"]
    assert len(replaced) == 1 and replaced[0]["reason"] == "absence"
    assert len(removed) == 1 and removed[0]["reason"] == "absence"
    assert slow.sub_seat == replaced[0]["seat"]
    assert {replaced[0]["seat"], removed[0]["seat"]} == set(slow.gone.values())


def test_the_table_sees_the_replacement_line_and_nothing_of_the_standby_list(slow: Slow) -> None:
    replaced = [x for x in slow.public if reader.match("reply.post.replaced", x.strip())]
    assert len(replaced) == 1, slow.public
    for text in slow.public:
        for key in ("absence.offer", "absence.offered", "absence.moderator", "absence.warning"):
            assert not reader.match(key, text.strip()), text


def test_standing_by_for_a_game_that_is_over_is_refused(slow: Slow) -> None:
    assert "⚠️" in slow.standby_over, slow.standby_over


def test_the_log_replays_and_nothing_leaked_or_went_twice(slow: Slow) -> None:
    assert slow.log is not None and verify_log(slow.log).ok
    assert slow.leaks == []
    twice = {n: c for n, c in Counter(slow.sends).items() if n and c > 1}
    assert not twice
