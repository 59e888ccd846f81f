"""The outbox dispatcher against a fake Discord: retries with backoff on 429 and 5xx,
closed DMs to the inbox with a content-free ping, and never the same message twice."""

from __future__ import annotations

import asyncio
import contextlib
from datetime import timedelta
from types import SimpleNamespace
from typing import Any

import discord
import pytest
from sqlalchemy import select

from bot.core import dispatch as service_dispatch
from bot.core.dispatch import Dispatcher
from bot.core.errors import ServiceError
from bot.core.outbox import (
    claim_due_messages,
    delivered_message_id,
    mark_delivered,
    nonce_for,
    pending_count,
)
from bot.db.models import OutboxMessage
from bot.db.session import Database
from bot.discord.guild.channel_access import AccessWatch
from bot.discord.loops.dispatcher import DiscordSender, backoff
from bot.features.lobby.games import get_game
from bot.features.me.inbox import read_inbox
from bot.features.moderation.moderation import pause_game, resume_game
from tests.service.helpers import started, user

BOT_ID = 4242


def http_error(status: int, code: int = 0) -> discord.HTTPException:
    response = SimpleNamespace(status=status, reason="x")
    cls = {403: discord.Forbidden, 404: discord.NotFound}.get(status, discord.HTTPException)
    if status >= 500:
        cls = discord.DiscordServerError
    return cls(response, {"code": code, "message": "scripted"})  # type: ignore[arg-type]


class Target(discord.abc.Messageable):
    """A channel or DM that records what it receives and fails as scripted; with a
    ``clock``, it stamps each message and its history honours ``after``, as Discord's.
    A ``Messageable`` (the sender checks that a channel is one) whose ``send`` and
    ``history``, the two the sender uses, are its own."""

    def __init__(self, name: str, failures: list[BaseException] | None = None, clock: Any = None) -> None:
        self.name = name
        self.failures = list(failures or [])
        self.sent: list[dict[str, Any]] = []
        self.nonces: set[str] = set()
        self.clock = clock

    async def send(self, content: str | None = None, **kwargs: Any) -> Any:  # type: ignore[override]
        if self.failures:
            raise self.failures.pop(0)
        nonce = kwargs.get("nonce")
        message = SimpleNamespace(
            id=len(self.sent) + 1, author=SimpleNamespace(id=BOT_ID), content=content,
            embeds=kwargs.get("embeds") or [], nonce=nonce, created_at=self.clock() if self.clock else None,
        )  # fmt: skip
        if nonce in self.nonces:  # Discord with enforce_nonce: the same message again
            return next(m for m in self.sent if m.nonce == nonce)
        self.nonces.add(nonce)
        self.sent.append(message)
        return message

    async def history(self, limit: int = 100, after: Any = None, **kw: Any) -> Any:  # type: ignore[override]
        for m in list(self.sent)[-limit:]:
            if after is None or m.created_at is None or m.created_at > after:
                yield m


class FakeBot:
    """What the sender needs of the client: users, channels, itself, the database."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self.user = SimpleNamespace(id=BOT_ID)
        self.channels: dict[int, Target] = {}
        self.dms: dict[int, Target] = {}
        self.access = AccessWatch()

    def target(self, kind: str, rid: int) -> Target:
        store = self.dms if kind == "user" else self.channels
        return store.setdefault(rid, Target(f"{kind}:{rid}"))

    def get_user(self, uid: int) -> Any:
        return SimpleNamespace(id=uid, dm_channel=self.target("user", uid))

    def get_channel(self, cid: int) -> Any:
        return self.target("channel", cid)

    def get_guild(self, gid: int) -> None:
        return None

    def holds_guild(self, gid: int) -> bool:
        return True  # one unsharded process


class Sleeps(list):
    async def __call__(self, seconds: float) -> None:
        self.append(seconds)


@pytest.fixture
def fake(db: Database) -> tuple[FakeBot, Sleeps, Dispatcher]:
    bot = FakeBot(db)
    sleeps = Sleeps()
    return bot, sleeps, Dispatcher(db, DiscordSender(bot, sleep=sleeps))  # type: ignore[arg-type]


# The games here send no phase prompts: each pass delivers one step's messages (a
# prompt follows its phase's post, in a later pass; tests/service/test_prompts.py).


def all_sent(bot: FakeBot) -> list[Any]:
    return [m for t in [*bot.channels.values(), *bot.dms.values()] for m in t.sent]


async def test_a_started_game_is_delivered_once_each(db: Database, fake) -> None:
    bot, _, dispatcher = fake
    await started(db, 6, prompts=False)
    report = await dispatcher.run_once()
    assert report.sent == 8 and await pending_count(db) == 0  # table, phase post, six sheets
    assert len(bot.dms) == 6 and all(len(t.sent) == 1 for t in bot.dms.values())
    assert (await dispatcher.run_once()).total == 0
    assert len(all_sent(bot)) == 8


async def test_server_errors_are_retried_with_growing_backoff(db: Database, fake) -> None:
    bot, sleeps, dispatcher = fake
    await started(db, 6, prompts=False)
    bot.target("user", user(1).id).failures = [http_error(503), http_error(502)]
    await dispatcher.run_once()
    assert len(bot.dms[user(1).id].sent) == 1
    assert len(sleeps) == 2 and sleeps[1] > sleeps[0] > 0
    assert await pending_count(db) == 0


async def test_a_rate_limit_waits_as_long_as_discord_says(db: Database, fake) -> None:
    bot, sleeps, dispatcher = fake
    await started(db, 6, prompts=False)
    bot.target("user", user(2).id).failures = [discord.RateLimited(7.5)]
    await dispatcher.run_once()
    assert sleeps == [7.5]
    assert len(bot.dms[user(2).id].sent) == 1


async def test_after_the_tries_the_service_retries_later_and_order_is_kept(db: Database, fake, clock) -> None:
    bot, _sleeps, dispatcher = fake
    game_id = await started(db, 6, prompts=False)
    info = await get_game(db, game_id)
    channel = bot.target("channel", info.channel_id)
    channel.failures = [http_error(500)] * 3
    report = await dispatcher.run_once()
    assert report.retry == 1 and report.held == 1  # the phase post waits behind the table
    assert channel.sent == []
    assert (await dispatcher.run_once()).total == 0  # not due yet
    clock.advance(120)
    await dispatcher.run_once()
    titles = [m.embeds[0].title or m.embeds[0].description for m in channel.sent]
    assert len(titles) == 2 and "begins" in titles[0] and "Day 1" in titles[1]


async def test_closed_dms_go_to_the_inbox_and_the_channel_gets_one_ping(db: Database, fake) -> None:
    bot, _, dispatcher = fake
    game_id = await started(db, 6, prompts=False)
    info = await get_game(db, game_id)
    closed = user(3).id
    bot.target("user", closed).failures = [http_error(403, 50007)]
    report = await dispatcher.run_once()
    assert report.inbox == 1
    inbox = await read_inbox(db, closed)
    assert [m.payload["type"] for m in inbox] == ["sheet"]
    pings = [m for m in bot.channels[info.channel_id].sent if m.content and f"<@{closed}>" in m.content]
    assert len(pings) == 1 and not pings[0].embeds and "/inbox" in pings[0].content


async def test_after_a_crash_between_the_ping_and_the_inbox_mark_the_table_is_pinged_once(db: Database, fake, clock) -> None:
    bot, sleeps, dispatcher = fake
    game_id = await started(db, 6, prompts=False)
    info = await get_game(db, game_id)
    channel = bot.channels[info.channel_id] = Target("channel", clock=clock)
    closed = user(3).id
    bot.target("user", closed).failures = [http_error(403, 50007), http_error(403, 50007)]
    # A first process sends everything (the closed DMs get their ping), then dies before
    # marking anything.
    clock.advance(1)
    doomed = DiscordSender(bot, sleep=sleeps)  # type: ignore[arg-type]
    for message in await claim_due_messages(db):
        with contextlib.suppress(service_dispatch.Undeliverable):
            await doomed.send(message)
    channel.nonces.clear()  # long after: Discord's nonce memory is gone too
    clock.advance(3600)
    report = await dispatcher.run_once()  # a new process
    assert report.inbox == 1 and await pending_count(db) == 0
    pings = [m for m in channel.sent if m.content and f"<@{closed}>" in m.content]
    assert len(pings) == 1


async def test_a_failed_mark_never_causes_a_second_send(db: Database, fake, clock, monkeypatch) -> None:
    bot, _, dispatcher = fake
    await started(db, 6, prompts=False)
    real = mark_delivered
    calls = {"n": 0}

    async def flaky(db_: Any, key: str, message_id: int | None = None) -> bool:
        calls["n"] += 1
        if calls["n"] <= 3:
            raise ConnectionError("database unavailable")
        return await real(db_, key, message_id)

    monkeypatch.setattr(service_dispatch, "mark_delivered", flaky)
    await dispatcher.run_once()
    assert len(dispatcher.journal) == 3 and await pending_count(db) == 3
    journaled = dict(dispatcher.journal)
    clock.advance(3600)  # the leases expire: the unmarked messages are claimed again
    await dispatcher.run_once()
    assert dispatcher.journal == {} and await pending_count(db) == 0
    assert len(all_sent(bot)) == 8  # nothing was sent twice
    # The late marks recorded the ids the sends got.
    for key, message_id in journaled.items():
        assert message_id is not None and await delivered_message_id(db, key) == message_id


async def test_the_delivered_mark_records_the_discord_message_id(db: Database, fake) -> None:
    bot, _, dispatcher = fake
    game_id = await started(db, 6, prompts=False)
    await dispatcher.run_once()
    info = await get_game(db, game_id)
    async with db.read() as s:
        rows = (await s.execute(select(OutboxMessage).order_by(OutboxMessage.id))).scalars().all()
    rows = rows[1:]  # the lobby post, delivered by the test's helper
    assert len(rows) == 8 and all(r.status == "sent" for r in rows)
    table_post = bot.channels[info.channel_id].sent[0]
    assert rows[0].discord_message_id == table_post.id
    sheet = next(r for r in rows if r.recipient_id == user(1).id)
    assert sheet.discord_message_id == bot.dms[user(1).id].sent[0].id


async def test_a_message_another_dispatcher_delivered_meanwhile_is_not_resent(db: Database, fake, clock) -> None:
    """A dispatcher that stalls while sending loses its lease; a second one claims the
    messages, and by the time it would send them, the first has marked them delivered
    with their ids: the second finds them in the database, without reading any history."""
    bot, sleeps, second = fake
    await started(db, 6, prompts=False)
    stalled = DiscordSender(bot, sleep=sleeps)  # type: ignore[arg-type]
    claimed = await claim_due_messages(db)
    ids = {m.key: await stalled.send(m) for m in claimed}
    clock.advance(3600)
    reclaimed = await claim_due_messages(db)
    assert [m.key for m in reclaimed] == [m.key for m in claimed] and all(m.attempts == 2 for m in reclaimed)
    for key, message_id in ids.items():
        assert await mark_delivered(db, key, message_id)
    for target in [*bot.channels.values(), *bot.dms.values()]:
        target.nonces.clear()  # Discord no longer remembers the nonces either
        target.history = None  # type: ignore[assignment,method-assign]  # must not be needed
    for m in reclaimed:
        assert await second.sender.send(m) == ids[m.key]
    assert len(all_sent(bot)) == 8
    assert not await mark_delivered(db, reclaimed[0].key, ids[reclaimed[0].key])


async def test_mark_delivered_refuses_a_bad_message_id(db: Database) -> None:
    with pytest.raises(ServiceError):
        await mark_delivered(db, "g1:1:r0:start:public:channel:0", 0)


@pytest.mark.parametrize("behind", [None, 5], ids=["unstamped", "discord-clock-5s-behind"])
async def test_after_a_crash_between_send_and_mark_the_message_is_found_not_resent(db: Database, fake, clock, behind) -> None:
    """``behind``: Discord stamps each message by its own clock, here some seconds behind
    the bot's host (the row's time is later than the message's); the search after the
    crash must still find what was sent."""
    bot, sleeps, dispatcher = fake
    if behind is not None:

        def target(kind: str, rid: int) -> Target:
            store = bot.dms if kind == "user" else bot.channels
            return store.setdefault(rid, Target(f"{kind}:{rid}", clock=lambda: clock() - timedelta(seconds=behind)))

        bot.target = target  # type: ignore[method-assign]
    await started(db, 6, prompts=False)
    # A first process claims and sends everything, then dies before marking anything.
    doomed = DiscordSender(bot, sleep=sleeps)  # type: ignore[arg-type]
    for message in await claim_due_messages(db):
        await doomed.send(message)
    assert len(all_sent(bot)) == 8
    for t in [*bot.channels.values(), *bot.dms.values()]:
        t.nonces.clear()  # long after: Discord's nonce memory is gone too
    clock.advance(3600)
    report = await dispatcher.run_once()  # a new process, empty journal
    assert report.sent == 8 and await pending_count(db) == 0
    assert len(all_sent(bot)) == 8


def test_nonce_is_stable_and_fits_discord() -> None:
    assert nonce_for("g1:2:r1:day:private:105:0") == nonce_for("g1:2:r1:day:private:105:0")
    assert nonce_for("a") != nonce_for("b") and len(nonce_for("x" * 300)) == 25


def test_backoff_grows_is_capped_and_honours_retry_after() -> None:
    assert backoff(0, jitter=0) == 1 and backoff(3, jitter=0) == 8
    assert backoff(20, jitter=0) == 30
    assert backoff(1, 4.2) == 4.2


async def test_stop_lets_the_batch_in_hand_be_delivered_and_marked(db: Database, fake) -> None:
    """A shutdown during a delivery pass ends the loop after the batch, with every message
    sent also marked delivered: nothing is sent twice after the restart."""
    bot, _, dispatcher = fake
    await started(db, 6, prompts=False)
    sending, release = asyncio.Event(), asyncio.Event()
    real_send = dispatcher.sender.send

    async def gated_send(message):
        sending.set()
        await release.wait()
        return await real_send(message)

    dispatcher.sender.send = gated_send
    loop = asyncio.create_task(dispatcher.run_forever(3600))
    await sending.wait()
    dispatcher.stop()
    release.set()
    await asyncio.wait_for(loop, 10)  # a guard against hanging, not a timing claim
    assert not loop.cancelled()
    assert len(all_sent(bot)) == 8 and await pending_count(db) == 0
    assert dispatcher.journal == {}


async def test_a_second_post_of_the_same_text_is_not_taken_for_the_first(db: Database, clock) -> None:
    """Pause, resume, pause: two posts with the same text. A dispatcher sends the first
    three and dies before the fourth; the one that takes over must not match the second
    pause against the first (already recorded as delivered) and skip it."""
    bot = FakeBot(db)
    game_id = await started(db, 6, prompts=False)
    info = await get_game(db, game_id)
    channel = bot.channels[info.channel_id] = Target("channel", clock=clock)
    await Dispatcher(db, DiscordSender(bot)).run_once()  # type: ignore[arg-type]
    before = len(channel.sent)
    await pause_game(db, game_id)
    await resume_game(db, game_id)
    await pause_game(db, game_id)
    clock.advance(5)
    sender = DiscordSender(bot)  # type: ignore[arg-type]
    claimed = await claim_due_messages(db)
    kinds = [m.payload["type"] for m in claimed]
    assert kinds == ["game_paused", "game_resumed", "phase_started", "game_paused"]
    for m in claimed[:3]:
        await mark_delivered(db, m.key, await sender.send(m))
    clock.advance(61)  # the lease runs out
    await Dispatcher(db, DiscordSender(bot)).run_once()  # type: ignore[arg-type]
    assert await pending_count(db) == 0
    assert len(channel.sent) - before == 4
    assert [m.embeds[0].description for m in channel.sent[before:]][-1] == channel.sent[before].embeds[0].description


async def test_a_post_discord_refuses_as_malformed_does_not_hold_up_the_next(db: Database, fake) -> None:
    """A 400 (the message itself is wrong: too long, say) cannot succeed on a retry; it
    is marked failed at once, and the posts after it to the same channel go out now
    instead of after the whole backoff."""
    bot, _, dispatcher = fake
    game_id = await started(db, 6, prompts=False)
    info = await get_game(db, game_id)
    refused = discord.HTTPException(SimpleNamespace(status=400, reason="Bad Request"), {"code": 50035, "message": "Invalid Form Body"})
    bot.channels[info.channel_id] = Target("channel", failures=[refused])
    report = await dispatcher.run_once()
    async with db.read() as s:
        rows = (await s.execute(select(OutboxMessage).where(OutboxMessage.recipient_kind == "channel").order_by(OutboxMessage.id))).scalars().all()
    first, *rest = [r for r in rows if r.payload["type"] != "lobby"]
    assert (first.payload["type"], first.status, first.attempts) == ("game_started", "failed", 1)
    assert [r.status for r in rest] == ["sent"] and report.held == 0
