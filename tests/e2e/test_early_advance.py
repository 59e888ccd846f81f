"""Early advance ("close early when everyone has sent", on by default) as the last player
at the table meets it.

At Dusk a player sends their orders and identifications a piece at a time (``/act
attack``, then ``/identify``…). The phase closes the moment every living player has sent
*some* orders, so the last player's first piece closes the Dusk and their next pieces
are refused as "too late". Kept as a strict xfail until the bot gives the last player a
moment (a short grace period, or an explicit "done"), so the day it changes is seen."""

from __future__ import annotations

import pytest

from bot.sandbox.play_game import GameOptions, TableGame
from bot.sandbox.play_table import GameClock, TableSpec, Tavern
from tests.e2e.conftest import error_text, run


async def scenario() -> tuple[str, str]:
    async with Tavern(clock=GameClock(1.0), seed="early") as tavern:
        seating = tavern.seat_table(TableSpec(players=6))
        options = GameOptions(
            day="1h", dusk="1h", morning="1h", early_advance=True, advance="deadline"
        )
        game = TableGame(tavern, seating, options, seed="early")
        await game.open()
        assert await game.next_phase(1, "day")
        for p in game.players:
            await p.read()
            assert not (await p.command("grail", {"number": 50})).error
        assert await game.next_phase(1, "dusk")  # everyone sent: the Day closed early
        *others, last = game.players
        for p in others:
            assert not (await p.command("act attack", {"player": str(last.seat)})).error
        first = await last.command("act attack", {"player": "1"})
        second = await last.command("identify", {"player": "2", "guess": "faction:lawful"})
        return error_text(first.messages), error_text(second.messages)


@pytest.mark.xfail(
    strict=True,
    reason="the last player's first order piece closes the Dusk (see the module docstring)",
)
def test_the_last_player_can_finish_their_orders():
    first, second = run(scenario())
    assert first == ""
    assert second == "", second
