"""A moderator (or an admin) takes the bot's right to post in the game channel away mid
game: the moderator is told by DM, once, and the posts waiting go out, in order, as soon
as the right is back."""

from __future__ import annotations

import asyncio

from sqlalchemy import select

from bot.db.models import OutboxMessage
from bot.sandbox import permissions as perm
from tests.bot.conftest import Table
from tests.bot.test_bot_e2e import started_game


async def test_losing_send_messages_warns_the_moderator_once_and_nothing_is_lost(table: Table):
    await started_game(table)
    bot_user = table.emu.ctx.bot
    table.emu.set_permissions(table.channel, bot_user, deny=perm.SEND_MESSAGES)
    dms_before = len(table.emu.dms(table.mod))

    def warnings() -> list[str]:
        return [t for t in table.texts(table.emu.dms(table.mod))[dms_before:] if "I cannot post in" in t]

    async def attempts_of_the_first_waiting_post() -> int:
        async with table.db.read() as session:
            first = (
                await session.execute(
                    select(OutboxMessage)
                    .where(OutboxMessage.recipient_kind == "channel", OutboxMessage.status == "pending")
                    .order_by(OutboxMessage.id)
                    .limit(1)
                )
            ).scalar_one()
            return first.attempts

    await table.run(table.mod, "phase advance")  # Day 1 closes: two posts for the channel
    await table.emu.wait_for(lambda: warnings(), 10, "the moderator's warning")
    await table.run(table.mod, "phase advance")  # Dusk 1 closes: more of them, held behind
    for _ in range(3):  # the first post's retries come due, and fail again
        tried = await attempts_of_the_first_waiting_post()
        table.clock.advance(3600)
        for _ in range(200):
            table.bot.wake_dispatcher()
            if await attempts_of_the_first_waiting_post() > tried:
                break
            await asyncio.sleep(0.05)
        assert await attempts_of_the_first_waiting_post() > tried
    assert len(warnings()) == 1, warnings()
    assert f"<#{table.channel.id}>" in warnings()[0] and "Send Messages" in warnings()[0]
    public_before = table.texts(table.emu.channel_messages(table.channel, include_ephemeral=False))
    assert not any("Dusk 1" in t for t in public_before)

    table.emu.set_permissions(table.channel, bot_user)  # the right is back
    table.clock.advance(2 * 3600)  # past every retry's backoff (at most an hour)
    await table.delivered()
    public = table.texts(table.emu.channel_messages(table.channel, include_ephemeral=False))[len(public_before):]
    order = [next(i for i, t in enumerate(public) if marker in t) for marker in ("Day 1", "Dusk 1", "Morning 1")]
    assert order == sorted(order), public
