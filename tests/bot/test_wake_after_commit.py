"""A moderator's or a player's action is delivered at once over the local Discord though no
handler wakes the outbox loop: the unit of work signals its messages as it commits
(bot.db.signals). Here the loop's poll never comes (its pause lasts until a wake), so a
message that arrives was brought by the signal alone."""

from __future__ import annotations

import asyncio

from bot.core.background import BackgroundLoop
from discord_emulator import User
from tests.bot.conftest import Table, reply_text, started_game

BOUND = 20.0  # how long a loaded machine may need; a bound, not a timing claim


async def only_woken(table: Table, monkeypatch) -> None:
    """From now on the dispatcher passes only when woken (or stopped): its pause never
    times out. Returns once the loop rests in such a pause."""
    dispatcher = table.bot.dispatcher
    resting = asyncio.Event()

    async def pause(seconds: float) -> None:
        resting.set()
        try:
            await BackgroundLoop.pause(dispatcher, 86400)
        finally:
            resting.clear()

    monkeypatch.setattr(dispatcher, "pause", pause)
    dispatcher.wake()  # ends the pause under way, so the next one is ours
    await asyncio.wait_for(resting.wait(), BOUND)


def offers_to(table: Table, user: User) -> int:
    """The seat offers in ``user``'s DMs (a message with the Accept button)."""
    return sum(1 for m in table.emu.dms(user) if any(c.startswith("wh:offer:") for c in m.custom_ids()))


async def test_an_offered_seat_and_a_standby_leaving_reach_the_standbys_at_once(table: Table, monkeypatch):
    heidi, ivan = (table.emu.create_user(name) for name in ("heidi", "ivan"))
    for u in (heidi, ivan):
        table.emu.add_member(table.guild, u)
    await started_game(table)
    for u in (heidi, ivan):
        assert "#" in reply_text(await table.run(u, "standby join"))
    await table.delivered()
    await only_woken(table, monkeypatch)

    offered = reply_text(await table.run(table.mod, "mod replace", {"player": "frank"}))
    assert "6" in offered, offered
    await table.emu.wait_for(lambda: offers_to(table, heidi) == 1 or None, BOUND, "the seat offered to heidi, the first standby")

    # The first standby leaves the list: the offer is withdrawn and goes to the next one.
    await table.run(heidi, "standby leave")
    await table.emu.wait_for(lambda: offers_to(table, ivan) == 1 or None, BOUND, "the seat offered to ivan, the next standby")
    assert offers_to(table, heidi) == 1
