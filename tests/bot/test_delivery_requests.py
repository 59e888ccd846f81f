"""What a delivery costs in requests, counted in the emulator's request log: a DM to a
user whose DM channel is known is one request (the message), also after a restart (the
channel is remembered in the database); the first DM opens the channel once; a
remembered channel Discord no longer knows is opened again; and with Discord's global
limit of 50 requests a second switched on, a burst of deliveries gets no global 429."""

from __future__ import annotations

from sqlalchemy import insert, select

from bot.core.dm_channels import dm_channel_of, remember_dm_channel
from bot.db.models import OutboxMessage
from tests.bot.conftest import Table

OPEN_DM = "POST /users/@me/channels"
POST = "POST /channels/{channel_id}/messages"
GET_USER = "GET /users/{user_id}"


async def queue_dms(table: Table, users: list[int], each: int = 1, tag: str = "t") -> None:
    """``each`` notices by DM to each of ``users``, due now."""
    now = table.db.now()
    rows = [
        {"idempotency_key": f"{tag}:{uid}:{n}", "game_id": None, "recipient_kind": "user", "recipient_id": uid, "locale": "en",
         "payload": {"type": "seed_revealed", "seed": f"s{n}", "seed_sha256": "h"}, "status": "pending", "attempts": 0,
         "next_attempt_at": now, "created_at": now}
        for uid in users for n in range(each)
    ]  # fmt: skip
    async with table.db.transaction() as s:
        await s.execute(insert(OutboxMessage), rows)


def count(table: Table, route: str, since: int) -> int:
    return sum(1 for r in table.emu.requests[since:] if r.route == route)


async def test_a_dm_to_a_known_user_is_one_request_even_after_a_restart(table: Table) -> None:
    alice = table.players[0]
    await table.delivered()  # whatever the start-up sent
    mark = len(table.emu.requests)
    await queue_dms(table, [alice.id], tag="first")
    await table.delivered()
    assert [m.content or m.embeds[0]["description"] for m in table.emu.dms(alice.id)]
    # The first DM opens the channel (once) and sends; the user is never fetched.
    assert (count(table, OPEN_DM, mark), count(table, POST, mark), count(table, GET_USER, mark)) == (1, 1, 0)
    remembered = await dm_channel_of(table.db, alice.id)
    assert remembered is not None

    table.bot.dispatcher.sender._dm_ids.clear()  # what a restart forgets: only the database remembers
    mark = len(table.emu.requests)
    await queue_dms(table, [alice.id], each=2, tag="again")
    await table.delivered()
    assert (count(table, OPEN_DM, mark), count(table, POST, mark), count(table, GET_USER, mark)) == (0, 2, 0)
    assert len(table.emu.requests) - mark == 2
    assert len(table.emu.dms(alice.id)) == 3


async def test_a_remembered_dm_channel_discord_does_not_know_is_opened_again(table: Table) -> None:
    bob = table.players[1]
    await table.delivered()
    await remember_dm_channel(table.db, bob.id, 999_999_999_999_999_999)
    await queue_dms(table, [bob.id], tag="stale")
    await table.delivered()
    assert len(table.emu.dms(bob.id)) == 1  # delivered once, to the real channel
    assert await dm_channel_of(table.db, bob.id) not in (None, 999_999_999_999_999_999)
    async with table.db.read() as s:
        status = await s.scalar(select(OutboxMessage.status).where(OutboxMessage.idempotency_key == f"stale:{bob.id}:0"))
    assert status == "sent"  # not given up on as undeliverable (to the inbox)


async def test_a_burst_under_the_global_limit_gets_no_global_429(table: Table) -> None:
    users = []
    for i in range(60):
        u = table.emu.create_user(f"burst{i}")
        table.emu.add_member(table.guild, u)
        users.append(u.id)
    await table.delivered()
    table.emu.ratelimits.global_limit = 50
    mark = len(table.emu.requests)
    await queue_dms(table, users, each=2, tag="burst")
    await table.delivered()
    assert sum(len(table.emu.dms(uid)) for uid in users) == 120  # every one delivered, once
    refused = [r for r in table.emu.requests[mark:] if r.status == 429 and (r.response or {}).get("global")]
    assert refused == []
    assert table.bot.pacer.taken >= 180  # 60 channels opened and 120 messages, all paced
