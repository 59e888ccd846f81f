"""The transactional outbox: every announcement and private message is a row written in
the same transaction as the state change that caused it, and delivered afterwards.

Writing side: :class:`Mail` collects the messages of one step of a game (the dataclasses
of :mod:`bot.core.messages`, stored in their one JSON shape), each with an
idempotency key ``g<game>:<seq>:r<round>:<phase>:<audience>:<recipient>:<n>`` that is
unique for the whole database. Delivery side: ``claim_due_messages`` leases due rows to
one dispatcher, which then calls ``mark_delivered`` (with the Discord message id it got),
``mark_undeliverable`` (a DM that cannot reach the player goes to their inbox) or
``mark_failed`` (retried later). A lease that expires because the dispatcher died is
claimed again: delivery is at least once, and the Sender passes the idempotency key on
(Discord's message nonce) so that a repeat is dropped by the receiver. Before sending a
message again, a sender can ask ``delivered_message_id`` whether another dispatcher has
meanwhile recorded it as delivered.

A message whose failure had a cause that is gone (the bot's right to post in a channel
given back) need not wait out its backoff: ``retry_held_now`` makes the messages held for
those destinations due at once.

A DM given up on waits in the user's inbox, read with :mod:`bot.features.me.inbox`.
"""

from __future__ import annotations

import hashlib
from collections.abc import Collection
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from bot.core.errors import BadArgumentError
from bot.core.messages import Message, encode
from bot.core.processes import STALE
from bot.core.types import GameInfo, is_id
from bot.db.models import Game, OutboxMessage
from bot.db.repos import outbox as outbox_repo
from bot.db.session import Database
from bot.db.signals import MESSAGES, note

MAX_ATTEMPTS = 8
LEASE_SECONDS = 60
# A lease's holder silent for longer than this is gone (bot.core.processes): its leases are free.
_STALE = timedelta(seconds=STALE)


def nonce_for(key: str) -> str:
    """An idempotency key in the 25 characters Discord allows for a message nonce (send
    it with ``enforce_nonce``): a repeat within minutes is dropped by Discord."""
    return hashlib.sha256(key.encode()).hexdigest()[:25]


@dataclass(frozen=True, slots=True)
class OutgoingMessage:
    """A message handed to a Sender: where to, in which language, and what (data)."""

    key: str
    game_id: int | None
    recipient_kind: str  # "channel", "user" or "gallery" ("seat": an AI seat's, never handed to a Sender)
    recipient_id: int
    locale: str
    payload: dict[str, Any]  # as stored: read it with ``bot.core.messages.decode``
    attempts: int
    created_at: datetime
    # When the recipient was shown it in /inbox (None: unread, or not an inbox message).
    read_at: datetime | None = None
    # What a delivery needs beside the row, read once per pass by the dispatcher
    # (``dispatch.with_context``): the message decoded (None: a kind this release does
    # not know), its game's public view, the recipient's remembered DM channel, a
    # gallery post's room (the dead's channel recorded for the game channel).
    message: Message | None = field(default=None, compare=False)
    game: GameInfo | None = field(default=None, compare=False)
    dm_channel: int | None = None
    room: int | None = None
    # Discord's message nonce for it (see :func:`nonce_for`).
    nonce: str = field(default="", compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "nonce", nonce_for(self.key))

    @classmethod
    def of(cls, row: OutboxMessage) -> OutgoingMessage:
        return cls(
            row.idempotency_key,
            row.game_id,
            row.recipient_kind,
            row.recipient_id,
            row.locale,
            row.payload,
            row.attempts,
            row.created_at,
            row.read_at,
        )


class Mail:
    """The outgoing messages of one step of one game, added to the step's session."""

    def __init__(
        self,
        session: AsyncSession,
        game: Game,
        *,
        tag: str,
        round_no: int,
        phase: str,
        now: datetime,
        locales: dict[int, str | None] | None = None,
    ) -> None:
        self.session = session
        self.game = game
        self.prefix = f"g{game.id}:{tag}:r{round_no}:{phase}"
        self.now = now
        self.locales = locales or {}
        self.count = 0
        self._n: dict[str, int] = {}
        self.last_public: str | None = None  # the key of the step's last channel post

    def _key(self, audience: str, recipient: str) -> str:
        base = f"{self.prefix}:{audience}:{recipient}"
        n = self._n.get(base, 0)
        self._n[base] = n + 1
        return f"{base}:{n}"

    def public(self, message: Message, audience: str = "public") -> str:
        """A post in the game's channel, in the game's language. Each method refuses
        (:class:`~bot.core.messages.UnknownMessageError`) a message that is not one of
        the kinds of :mod:`bot.core.messages`."""
        payload = encode(message)  # (before a key is taken: a refused message takes none)
        key = self._key(audience, "channel")
        self._add(key, "channel", self.game.channel_id, self.game.language, payload)
        self.last_public = key
        return key

    def gallery(self, message: Message) -> str:
        """A post in the game's gallery: the room of its dead and spectators, which the
        living cannot read. Addressed by the game channel (kind ``gallery``): the sender
        posts it in the dead's channel the bot recorded for that channel, and nowhere
        else (``bot.discord.loops.dispatcher``)."""
        payload = encode(message)
        key = self._key("gallery", "gallery")
        self._add(key, "gallery", self.game.channel_id, self.game.language, payload)
        return key

    def private(self, user_id: int, message: Message, audience: str = "private", *, follows: str | None = None) -> str:
        """A direct message to one user, in their language when known; with ``follows``
        (the key of a message of the same step), never delivered before that one."""
        payload = encode(message)
        key = self._key(audience, str(user_id))
        locale = self.locales.get(user_id) or self.game.language
        self._add(key, "user", user_id, locale, payload, follows=follows)
        return key

    def to_seat(self, seat: int, message: Message) -> str:
        """A private message to an AI seat (no Discord user): stored, never delivered,
        read by the seat's AI (``bot.features.ai_seats.play``) as a human reads their DMs."""
        payload = encode(message)
        key = self._key("private", f"seat{seat}")
        self._add(key, "seat", seat, self.game.language, payload, status="ai")
        return key

    def _add(
        self, key: str, kind: str, recipient: int, locale: str, payload: dict[str, Any], status: str = "pending",
        follows: str | None = None,
    ) -> None:  # fmt: skip
        self.session.add(
            OutboxMessage(
                idempotency_key=key,
                game_id=self.game.id,
                recipient_kind=kind,
                recipient_id=recipient,
                locale=locale,
                payload={"game_id": self.game.id, **payload},
                status=status,
                attempts=0,
                next_attempt_at=self.now,
                created_at=self.now,
                follows=follows,
            )
        )
        self.count += 1


def post_in_channel(session: AsyncSession, key: str, channel_id: int, locale: str, message: Message, now: datetime) -> None:
    """A channel post about no one game (a season's end), added to ``session``: delivered
    as every post is, once, under the idempotency key ``key``."""
    row = OutboxMessage(
        idempotency_key=key, game_id=None, recipient_kind="channel", recipient_id=channel_id, locale=locale,
        payload=encode(message), status="pending", attempts=0, next_attempt_at=now, created_at=now,
    )  # fmt: skip
    session.add(row)


async def claim_due_messages(
    db: Database, *, limit: int = 50, lease_seconds: int = LEASE_SECONDS, holder: int | None = None
) -> list[OutgoingMessage]:
    """Lease up to ``limit`` due messages (oldest first) to the caller (process ``holder``,
    see :mod:`bot.core.processes`) for ``lease_seconds``. Due: its time has come, or
    its lease's holder is gone (stopped, replaced by a restart, or silent), which frees
    it at once rather than when it runs out. Concurrent dispatchers get disjoint sets
    (SKIP LOCKED on PostgreSQL; the write lock on SQLite). A message waits while an
    earlier one to the same channel or user is still pending and not due (backing off
    after a failure, or leased to a live dispatcher): each destination gets its messages
    in order. A message that ``follows`` another waits while that one is pending at all
    (a phase's prompts are never sent before, nor in the same batch as, its public post,
    whatever the dispatcher's concurrency); once it is sent, or given up, they go."""
    if not 1 <= limit <= 1000 or lease_seconds < 1:
        raise BadArgumentError(field="limit", reason="1 to 1000, lease at least 1 s")
    now = db.now()
    # Most polls find nothing: look first without the write lock (SQLite) or a
    # transaction that locks rows (PostgreSQL); the claim below checks again.
    async with db.read() as s:
        if not await outbox_repo.any_due(s, now, _STALE):
            return []
    async with db.transaction() as s:
        # One claim at a time, so that each sees the leases the others committed (the
        # order rule needs them).
        await outbox_repo.serialize_claims(s)
        rows = await outbox_repo.claimable(s, now, _STALE, limit)
        for row in rows:
            row.attempts += 1
            row.next_attempt_at = now + timedelta(seconds=lease_seconds)
            row.leased_by = holder
        return [OutgoingMessage.of(r) for r in rows]


async def release(db: Database, keys: list[str]) -> int:
    """Give back claimed messages that were not attempted (held behind an earlier one
    that failed): due again at once, their attempt not counted, so they follow the
    earlier one as soon as it goes. The number released."""
    if not keys:
        return 0
    async with db.transaction() as s:
        return await outbox_repo.release(s, keys, db.now())


async def mark_delivered(db: Database, key: str, message_id: int | None = None) -> bool:
    """The message reached its recipient, as Discord message ``message_id`` when the
    sender knows it. False if it was already marked (a repeat): the first mark stands."""
    if message_id is not None and not is_id(message_id):
        raise BadArgumentError(field="message_id", reason="not a Discord message id")
    async with db.transaction() as s:
        return await outbox_repo.mark_delivered(s, key, db.now(), message_id)


async def delivered_message_id(db: Database, key: str) -> int | None:
    """The Discord message ``key`` became, if it has been marked delivered with one (by
    any dispatcher); None otherwise. A sender about to send a message again (its lease
    expired) asks this first: another dispatcher may have delivered it meanwhile."""
    async with db.read() as s:
        return await outbox_repo.delivered_message_id(s, key)


async def recorded_message_ids(db: Database, recipient_kind: str, recipient_id: int, message_ids: list[int]) -> set[int]:
    """Which of ``message_ids`` (Discord messages at one destination) other outbox rows
    have been marked delivered as. A sender matching its message by text in the history
    skips these: two posts of the same text (a second pause) are two messages."""
    if not message_ids:
        return set()
    async with db.read() as s:
        return await outbox_repo.recorded_message_ids(s, recipient_kind, recipient_id, message_ids)


async def mark_undeliverable(db: Database, key: str, reason: str = "") -> bool:
    """The recipient cannot be reached (DMs closed, channel gone): a user's message
    waits in their inbox (``/inbox``); a channel's is marked failed."""
    async with db.transaction() as s:
        row = await _pending(s, key)
        if row is None:
            return False
        _give_up(row)
        row.last_error = reason[:2000] or None
        return True


async def mark_failed(db: Database, key: str, error: str = "") -> bool:
    """A delivery attempt failed for a passing reason: retry later with backoff, and
    give up (as undeliverable) after MAX_ATTEMPTS."""
    async with db.transaction() as s:
        row = await _pending(s, key)
        if row is None:
            return False
        row.last_error = error[:2000] or None
        row.leased_by = None  # backing off: due again by its time only
        if row.attempts >= MAX_ATTEMPTS:
            _give_up(row)
        else:
            row.next_attempt_at = db.now() + timedelta(seconds=min(3600, 5 * 2**row.attempts))
        return True


async def retry_held_now(db: Database, recipient_kind: str, recipient_ids: Collection[int]) -> int:
    """Make the messages to these destinations (``channel`` or ``user`` ids) that back
    off after a failed attempt due now: what made them fail is gone (a permission given
    back), so they go at the dispatcher's next pass, in order, instead of at the end of
    their backoff (up to an hour). A message in flight (leased to a process) is left alone, and the
    attempts already made still count; this process's dispatcher is woken once it commits. The number made due; most calls find none, and
    look first without the write lock (SQLite) as a claim does."""
    now = db.now()
    ids = list(dict.fromkeys(recipient_ids))
    made = 0
    for start in range(0, len(ids), 500):  # (a statement's parameters are limited)
        some = ids[start : start + 500]
        async with db.read() as s:
            if not await outbox_repo.any_held(s, recipient_kind, some, now):
                continue
        async with db.transaction() as s:
            made += await outbox_repo.make_held_due(s, recipient_kind, some, now)
            note(s, MESSAGES)  # (a statement the flush does not see)
    return made


async def _pending(s: AsyncSession, key: str) -> OutboxMessage | None:
    """The row of ``key`` while it still waits for delivery (None once marked, or unknown)."""
    row = await outbox_repo.message(s, key)
    return row if row is not None and row.status == "pending" else None


def _give_up(row: OutboxMessage) -> None:
    """No more delivery attempts: a user's message waits in their inbox, a channel's failed."""
    row.leased_by = None
    row.status = "inbox" if row.recipient_kind == "user" else "failed"


async def pending_count(db: Database) -> int:
    """How many messages wait for delivery (for health checks and tests)."""
    async with db.read() as s:
        return await outbox_repo.pending_count(s)
