"""The real bot on the local Discord emulator, a player whose DMs are closed: their news
waits in /inbox behind a content-free ping, a grail they won is not pinged, and the inbox
shows what is new first and marks it read."""

from __future__ import annotations

import asyncio

from bot.features.me.inbox import read_inbox
from tests.bot.conftest import Table, all_read, reply_text, started_with_closed_dms


async def test_closed_dms_go_to_the_inbox_with_a_content_free_ping(table: Table):
    grace = await started_with_closed_dms(table)
    assert table.emu.dms(grace) == []
    pings = [m for m in table.emu.channel_messages(table.channel, include_ephemeral=False) if f"<@{grace.id}>" in (m.content or "")]
    assert len(pings) == 1
    assert "/inbox" in pings[0].content and "Druid" not in pings[0].content and not pings[0].embeds
    inbox = await table.run(grace, "inbox")
    assert inbox.ephemeral
    assert "Keep it secret" in reply_text(inbox)
    # Someone who never missed a DM has an empty inbox.
    assert "收件箱是空的" in reply_text(await table.run(table.players[0], "inbox"))


async def test_a_grail_won_behind_closed_dms_is_not_pinged_in_the_channel(table: Table):
    """Only the winner hears of the grail: a ping after Day would name them to everyone."""
    grace = await started_with_closed_dms(table)

    def pings() -> int:
        public = table.emu.channel_messages(table.channel, include_ephemeral=False)
        return sum(1 for m in public if f"<@{grace.id}>" in (m.content or ""))

    assert pings() == 1  # the sheet, which everyone gets
    # The mean is 45: grace's 50 is closest, so she wins this round's grail.
    for p, number in zip([*table.players[:5], grace], (10, 90, 10, 90, 20, 50), strict=True):
        await table.run(p, "grail", {"number": number}, dm=True)
    await table.run(table.mod, "phase advance")
    await table.delivered()
    news = [m for m in await read_inbox(table.db, grace.id, mark_read=False) if m.payload["type"] == "events"]
    assert any(e["kind"] == "GrailWon" for m in news for e in m.payload["events"])
    assert pings() == 1
    # She learns it privately instead: her own /me and /orders say that news waits (her
    # sheet, the Day's prompt, the grail's news and the Dusk's prompt).
    assert "4 private messages wait unread in /inbox" in reply_text(await table.run(grace, "me"))
    assert "4 private messages wait unread" in reply_text(await table.run(grace, "orders"))
    assert "wait unread" not in reply_text(await table.run(table.players[0], "me", dm=True))
    await table.run(grace, "inbox")
    await all_read(table, grace.id)  # (marked read just after the reply goes out)
    assert "unread" not in reply_text(await table.run(grace, "me"))


async def test_the_inbox_shows_new_messages_first_and_marks_them_read(table: Table):
    grace = await started_with_closed_dms(table, day="2h", reminder="30m", prompts=False)
    first = reply_text(await table.run(grace, "inbox"))
    assert "1 new message that could not reach you by DM (1 in all)" in first and "Keep it secret" in first
    await all_read(table, grace.id)
    # Seen: the next look says nothing is new and shows it again as already seen.
    seen = reply_text(await table.run(grace, "inbox"))
    assert "No new messages. The last 1 of the 1 you have already seen" in seen and "Keep it secret" in seen
    # The reminder grace gets for not having sent goes to the inbox too: only it is new.
    table.clock.advance(90 * 60)
    for _ in range(100):
        table.bot.wake_scheduler()
        await table.delivered()
        if await read_inbox(table.db, grace.id, unread_only=True, mark_read=False):
            break
        await asyncio.sleep(0.05)
    waiting = await read_inbox(table.db, grace.id, unread_only=True, mark_read=False)
    assert [m.payload["type"] for m in waiting] == ["reminder"]
    news = reply_text(await table.run(grace, "inbox"))
    assert "1 new message that could not reach you by DM (2 in all)" in news
    assert "Reminder" in news and "Keep it secret" not in news
    await all_read(table, grace.id)
    assert "No new messages" in reply_text(await table.run(grace, "inbox"))
