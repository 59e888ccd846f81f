"""Early advance ("close early when everyone has sent", on by default) as the last player
at the table meets it.

At Dusk a player sends their orders and identifications a piece at a time (``/act
attack``, then ``/identify``…). The phase closes the moment every living player has sent
*some* orders; the Dusk then waits a short grace (the game's ``dusk_grace_seconds``,
60 s by default) so the last player's next pieces still count instead of being refused
as "too late"."""

from __future__ import annotations

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
        # ...and, everyone having sent, changes their mind within the grace: still Dusk.
        second = await last.command("act attack", {"player": "2"})
        return error_text(first.messages), error_text(second.messages)


def test_the_last_player_can_finish_their_orders():
    first, second = run(scenario())
    assert first == ""
    assert second == "", second
