"""Two players fill the grail-number form (the order panel's "Grail number…" button) at
the same moment, as happens every Day at a busy table.

When discord.py kept open forms by custom id alone, a form id shared by the whole table
(``wh:grailmodal:<game>:<round>``) let the second opening replace the first and one number
land on the wrong player. Forms are now answered from their custom id and the user who
sends them (``panel.grail_form_submitted``); this test guards that each number lands on
its own player."""

from __future__ import annotations

import asyncio

from bot.sandbox.people import Reply
from bot.sandbox.play_game import GameOptions, TableGame
from bot.sandbox.play_table import GameClock, TableSpec, Tavern
from bot.sandbox.players import Player, _text_input_id
from tests.e2e.conftest import run


async def scenario() -> dict[str, str]:
    async with Tavern(clock=GameClock(1.0), seed="forms") as tavern:
        seating = tavern.seat_table(TableSpec(players=6))
        game = TableGame(
            tavern, seating, GameOptions(day="1h", dusk="1h", morning="1h"), seed="forms"
        )
        await game.open()
        assert await game.next_phase(1, "day")
        first, second = game.players[0], game.players[1]

        async def open_form(p: Player) -> Reply:
            panel = await p.command("orders")
            found = panel.find("wh:grail:")
            assert found, panel.text
            return await p.click(*found)

        # Both open the form, then both send it.
        forms = [await open_form(first), await open_form(second)]
        assert all(f.result is not None and f.result.modal for f in forms)
        sent = await asyncio.gather(
            *(
                p.submit_form(f, {_text_input_id(f.result.modal): str(n)})
                for p, f, n in zip((first, second), forms, (11, 77), strict=True)
            )  # type: ignore[union-attr]
        )
        assert tavern.emu.server_errors == []
        shown = {}
        for p, reply in zip((first, second), sent, strict=True):
            shown[p.name] = "no answer" if not reply.messages else (await p.command("orders")).text
        return shown


def test_two_players_fill_the_grail_form_at_once():
    shown = run(scenario())
    first, second = list(shown.values())
    assert "**11**" in first, first
    assert "**77**" in second, second
