"""An interaction's first response (bot.discord.first_response), as the player's client
sees it: a quick answer to a command that may safely run twice is the first response
itself (one request, no "thinking…"); a slow one is acknowledged first and follows; any
other command is acknowledged before its work, as the claim between two processes."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from bot.core.views import view_at
from bot.discord import context, first_response
from tests.bot.conftest import Table, reply_text, started_game

CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE, UPDATE_MESSAGE = 4, 5, 7


@pytest.fixture
def patient(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every answer counts as quick, however busy the machine running the tests."""
    monkeypatch.setattr(first_response, "PROMPT_S", 60.0)


async def test_a_quick_answer_of_an_idempotent_command_is_the_first_response(table: Table, patient: None) -> None:
    await started_game(table)
    sheet = await table.run(table.players[1], "me")
    sent = await table.run(table.players[1], "grail", {"number": 42})
    for result in (sheet, sent):
        assert result.response_type == CHANNEL_MESSAGE
        assert result.followups == [] and result.ephemeral
    assert "42" in reply_text(sent)


async def test_the_read_only_commands_answer_at_once(table: Table, patient: None) -> None:
    """Help, rules, a history, a recap, stats and the leaderboard read and change nothing."""
    await started_game(table)
    for user, command, options in [
        (table.players[1], "help", {}),
        (table.players[1], "rules", {}),
        (table.players[1], "game history", {}),
        (table.players[1], "recap", {}),
        (table.players[1], "stats view", {}),
        (table.players[1], "leaderboard", {}),
    ]:
        result = await table.run(user, command, options)
        assert (command, result.response_type, result.followups) == (command, CHANNEL_MESSAGE, [])
        assert reply_text(result)


async def test_a_panel_redrawn_at_once_is_the_first_response(table: Table, patient: None) -> None:
    await started_game(table)
    panel = await table.run(table.players[1], "orders")
    refresh = next(c for c in panel.message.custom_ids() if c.startswith("wh:refresh:"))
    redrawn = await (await table.emu.click(table.players[1], panel.message, refresh)).wait(10)
    assert redrawn.response_type == UPDATE_MESSAGE
    assert redrawn.message.id == panel.message.id and redrawn.followups == []


async def test_a_slow_answer_is_acknowledged_first_then_fills_the_thinking_message(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    await started_game(table)
    released = asyncio.Event()
    read = view_at

    async def slow(*args: Any, **kwargs: Any) -> Any:
        await released.wait()  # held until the player has seen "thinking…"
        return await read(*args, **kwargs)

    monkeypatch.setattr(context, "view_at", slow)
    pending = await table.emu.slash(table.players[1], "me", {}, channel=table.channel)
    await table.emu.wait_for(lambda: pending.deferred or None, 10, "the acknowledgement")
    assert pending.message is not None and pending.message.ephemeral  # "thinking…", to the caller alone
    released.set()
    answered = await pending.wait(10)
    assert answered.response_type == DEFERRED_CHANNEL_MESSAGE
    assert reply_text(answered) == reply_text(await table.run(table.players[1], "me"))


async def test_a_command_that_must_run_once_is_acknowledged_before_its_work(table: Table) -> None:
    created = await table.run(table.mod, "mod create", {"day": "2h"})
    assert created.response_type == DEFERRED_CHANNEL_MESSAGE
    assert "Game #1 is open" in reply_text(created)


class _Response:
    """discord.py's InteractionResponse as far as first_response uses it: done once its
    request has returned, not when it is sent."""

    def __init__(self) -> None:
        self.done = False
        self.in_flight = asyncio.Event()
        self.let_through = asyncio.Event()
        self.calls: list[str] = []

    def is_done(self) -> bool:
        return self.done

    async def defer(self, **kwargs: Any) -> None:
        self.calls.append("defer")
        self.in_flight.set()
        await self.let_through.wait()
        self.done = True

    async def send_message(self, **kwargs: Any) -> None:
        self.calls.append("send_message")
        self.done = True


class _Followup:
    def __init__(self, response: _Response) -> None:
        self.response = response

    async def send(self, **kwargs: Any) -> None:
        self.response.calls.append("followup")


async def test_an_answer_ready_while_the_acknowledgement_is_in_flight_follows_it(monkeypatch: pytest.MonkeyPatch) -> None:
    from types import SimpleNamespace

    monkeypatch.setattr(first_response, "PROMPT_S", 0.0)
    response = _Response()
    interaction: Any = SimpleNamespace(id=1, extras={}, response=response, followup=_Followup(response))
    await first_response.begin(interaction, idempotent=True)
    await response.in_flight.wait()  # the timer's "thinking…" is on its way
    answer = asyncio.create_task(first_response.reply(interaction, content="done"))
    await asyncio.sleep(0)  # the answer waits for the acknowledgement, not beside it
    assert response.calls == ["defer"]
    response.let_through.set()
    await answer
    assert response.calls == ["defer", "followup"]  # one first response, then the answer after it


def test_a_skill_that_may_be_a_toggle_is_known_without_the_sheet() -> None:
    from bot.features.play.cog_choices import may_flip

    assert may_flip("rage") and may_flip("狂暴") and may_flip(" Mage Armor ")
    assert not may_flip("attack") and not may_flip("release") and not may_flip("")


async def test_a_skill_order_is_claimed_first_only_when_it_may_flip_a_toggle(table: Table, patient: None) -> None:
    """Sent without a switch, a toggle skill is flipped: that one is acknowledged before
    its work; any other skill order is answered at once (each is refused here: it is Day,
    or the player has no such skill)."""
    await started_game(table)
    flip = await table.run(table.players[1], "act skill", {"skill": "rage"})
    switched = await table.run(table.players[1], "act skill", {"skill": "rage", "switch": True})
    other = await table.run(table.players[1], "act skill", {"skill": "heal"})
    assert flip.response_type == DEFERRED_CHANNEL_MESSAGE
    assert switched.response_type == other.response_type == CHANNEL_MESSAGE
    assert all(reply_text(r).startswith("⚠️") for r in (flip, switched, other))
