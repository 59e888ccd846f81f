"""The start-up check of the live games is bounded: it reads where the games are (no
game's state), marks them for the reconciler, which works through them a batch per pass
in the background; a game whose Discord side is already as it should be costs no request
(no member looked up, no overwrite written), while one changed meanwhile is still put
right (the existing crash and restart tests cover those)."""

from __future__ import annotations

from typing import Any

import pytest

from bot.core.effects import games_to_reconcile, mark_effects_due
from bot.features.lobby import games
from bot.features.lobby.games import get_game
from discord_emulator import permissions as perm
from tests.bot.conftest import Table, started_game

MEMBER = "GET /guilds/{guild_id}/members/{user_id}"
OVERWRITE = "PUT /channels/{channel_id}/permissions/{overwrite_id}"


async def test_the_check_reads_no_game_state_and_costs_no_request_when_nothing_changed(table: Table, monkeypatch: pytest.MonkeyPatch) -> None:
    game_id = await started_game(table)
    alice = table.players[0]
    await table.run(table.mod, "mod kick", {"player": "alice"})
    await table.delivered()
    assert not table.emu.permissions_of(alice, table.channel) & perm.SEND_MESSAGES

    async def no_state(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("the start-up check read every live game's state")

    monkeypatch.setattr(games, "live_games", no_state)
    mark = len(table.emu.requests)
    await table.bot.resync()
    assert [g for g, _ in await games_to_reconcile(table.db)] == [game_id]  # marked, not yet done
    done = table.bot.reconciler.done
    await table.delivered()
    assert table.bot.reconciler.done == done + 1
    routes = [r.route for r in table.emu.requests[mark:]]
    assert MEMBER not in routes and OVERWRITE not in routes, routes
    assert not table.emu.permissions_of(alice, table.channel) & perm.SEND_MESSAGES  # still muted


async def test_the_reconciler_takes_the_games_a_batch_at_a_time(table: Table) -> None:
    game_id = await started_game(table)
    await table.delivered()
    table.bot.reconciler.batch = 1
    await table.stop_dispatcher()  # the test runs the passes itself
    other = await mark_effects_due(table.db, [game_id])
    assert other == 1
    assert await table.bot.reconciler.run_once() == 1
    assert table.bot.reconciler.more  # a full batch: others may wait, the next pass comes soon
    assert await table.bot.reconciler.run_once() == 0
    assert not table.bot.reconciler.more


HISTORY = "GET /channels/{channel_id}/messages"


async def test_the_check_of_a_game_unchanged_in_its_first_phase_does_not_look_for_its_lobby_post(table: Table) -> None:
    game_id = await started_game(table)
    assert (await get_game(table.db, game_id)).version == 1  # the lobby post was closed at the start
    await table.stop_dispatcher()  # the test runs the passes itself
    await table.bot.resync()
    mark = len(table.emu.requests)
    assert await table.bot.reconciler.run_once() == 1
    assert HISTORY not in [r.route for r in table.emu.requests[mark:]]
    assert not table.bot.reconciler.rechecks


async def test_a_game_changed_after_the_check_marked_it_is_brought_in_line_in_full(table: Table) -> None:
    game_id = await started_game(table)
    await table.stop_dispatcher()
    await table.bot.resync()
    assert table.bot.reconciler.rechecks == {game_id}
    await mark_effects_due(table.db, [game_id])  # a change of the game meanwhile
    mark = len(table.emu.requests)
    assert await table.bot.reconciler.run_once() == 1
    assert HISTORY in [r.route for r in table.emu.requests[mark:]]  # its lobby post looked at again
    assert not table.bot.reconciler.rechecks
