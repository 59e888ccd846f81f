"""Delivering the outbox. The Discord layer implements :class:`Sender` (and runs the
:class:`Dispatcher` in a loop); the :class:`Dispatcher` claims due messages, hands each
to the sender and records the result. Tests and the simulator use :class:`MemorySender`."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Protocol

from bot import log_context, metrics
from bot.core.outbox import (
    OutgoingMessage,
    claim_due_messages,
    mark_delivered,
    mark_failed,
    mark_undeliverable,
    release,
)
from bot.db.session import Database

log = logging.getLogger("wolfhowl.outbox")


class Undeliverable(Exception):
    """Raised by a Sender when the recipient cannot be reached at all (a user who does
    not accept DMs, a deleted channel). The message goes to the user's inbox."""


class Sender(Protocol):
    async def send(self, message: OutgoingMessage) -> int | None:
        """Deliver ``message`` and return the Discord message id it became (None if the
        sender has none), or raise: :class:`Undeliverable` when it never can be
        delivered, any other exception for a passing failure (it will be retried). Must
        pass ``message.nonce`` on as Discord's message ``nonce`` with ``enforce_nonce``
        so that a repeat after a crash is dropped."""
        ...


@dataclass
class DispatchReport:
    sent: int = 0
    inbox: int = 0
    retry: int = 0
    held: int = 0  # given back untried, to follow a failed message to the same place

    @property
    def total(self) -> int:
        return self.sent + self.inbox + self.retry


class Dispatcher:
    """Claims due messages and delivers them, each destination's in creation order.

    * Concurrency: up to ``concurrency`` destinations (channels, users) are sent to at
      once, each one's messages one after the other; with 1, the whole batch goes one
      message at a time in creation order.
    * Order: after a failure, the batch's later messages to the same place are given
      back untried, to follow it in order.
    * Never twice: a message sent whose "delivered" mark fails (the database was
      unavailable) is kept in ``journal`` with its Discord message id and marked on the
      next pass, not sent again.
    * A sender may have a ``new_pass()`` method, called before each batch (to forget
      what it read for the last one).
    """

    def __init__(
        self, db: Database, sender: Sender, *, batch: int = 50, holder: int | None = None, concurrency: int = 1
    ) -> None:
        self.db = db
        self.sender = sender
        self.batch = batch
        self.concurrency = max(1, concurrency)
        # The process the leases are taken in the name of (bot.core.processes).
        self.holder = holder
        # Sent, not yet marked delivered: key -> Discord message id.
        self.journal: dict[str, int | None] = {}

    def failed(self, message: OutgoingMessage, exc: Exception) -> None:
        """A send failed with a passing error (the message will be retried); for logging."""

    async def _mark_delivered(self, key: str) -> None:
        try:
            await mark_delivered(self.db, key, self.journal.get(key))
        except Exception:
            log.warning("could not mark outbox %s delivered; will retry the mark, not the send", key, exc_info=True)
        else:
            self.journal.pop(key, None)

    async def flush_journal(self) -> None:
        for key in list(self.journal):
            await self._mark_delivered(key)

    async def run_once(self) -> DispatchReport:
        """Deliver what is due now (one batch)."""
        report = DispatchReport()
        await self.flush_journal()
        new_pass = getattr(self.sender, "new_pass", None)
        if new_pass is not None:
            new_pass()
        messages = await claim_due_messages(self.db, limit=self.batch, holder=self.holder)
        pass_ = _Pass(report)
        if self.concurrency == 1:
            for message in messages:
                await self._deliver(message, pass_)
        else:
            # A sender that knows two destinations to be one place (a user's DM, where a
            # practice game's channel posts go too) puts them in one lane: in order.
            lane_of = getattr(self.sender, "lane_of", None)
            lanes: dict[tuple[str, int], list[OutgoingMessage]] = {}
            for message in messages:
                where = await lane_of(message) if lane_of is not None else (message.recipient_kind, message.recipient_id)
                lanes.setdefault(where, []).append(message)
            gate = asyncio.Semaphore(self.concurrency)

            async def lane(queue: list[OutgoingMessage]) -> None:
                async with gate:
                    for message in queue:
                        await self._deliver(message, pass_)

            outcomes = await asyncio.gather(*(lane(q) for q in lanes.values()), return_exceptions=True)
            errors = [x for x in outcomes if isinstance(x, BaseException)]
            if errors:
                await self._release(pass_.held_back)
                raise errors[0]
        await self._release(pass_.held_back)
        return report

    async def _release(self, keys: list[str]) -> None:
        if keys:
            with contextlib.suppress(Exception):  # else their lease runs out, which is as good
                await release(self.db, keys)
            keys.clear()

    async def _deliver(self, message: OutgoingMessage, pass_: _Pass) -> None:
        """Send one claimed message and record how it went."""
        report = pass_.report
        where = (message.recipient_kind, message.recipient_id)
        if message.key in self.journal:  # sent before; only the mark is missing
            await self._mark_delivered(message.key)
            report.sent += 1
            return
        if where in pass_.failed:
            report.held += 1
            pass_.held_back.append(message.key)
            return
        # The lines of this message's delivery are about its game, or none (not the game
        # of the message before it), and nothing of it outlives the delivery.
        with log_context.about(game=message.game_id):
            try:
                message_id = await self.sender.send(message)
            except Undeliverable as exc:
                await mark_undeliverable(self.db, message.key, str(exc))
                report.inbox += 1
                _count(message, "undeliverable")
            except Exception as exc:
                self.failed(message, exc)
                pass_.failed.add(where)
                await mark_failed(self.db, message.key, f"{type(exc).__name__}: {exc}"[:2000])
                report.retry += 1
                _count(message, "retry")
            else:
                self.journal[message.key] = message_id
                await self._mark_delivered(message.key)
                report.sent += 1
                _count(message, "sent")

    async def drain(self, max_batches: int = 1000) -> DispatchReport:
        """Deliver until nothing is due (the messages waiting for a retry stay)."""
        total = DispatchReport()
        for _ in range(max_batches):
            r = await self.run_once()
            total.sent += r.sent
            total.inbox += r.inbox
            total.retry += r.retry
            total.held += r.held
            if r.total == 0:
                break
        return total


def _count(message: OutgoingMessage, result: str) -> None:
    """One delivery attempt's result, for the metrics (``bot.metrics``)."""
    m = metrics.current
    if m is not None:
        m.deliveries.labels("dm" if message.recipient_kind == "user" else "channel", result).inc()


@dataclass
class _Pass:
    """What one pass has learnt so far: the destinations that failed, the messages held
    back behind them."""

    report: DispatchReport
    failed: set[tuple[str, int]] = field(default_factory=set)
    held_back: list[str] = field(default_factory=list)


@dataclass
class MemorySender:
    """A Sender that keeps what it receives, dropping repeats of a key (as Discord does
    with an enforced nonce). ``closed_dms`` are users who do not accept DMs. The
    "message id" of a delivery is its position in ``delivered`` (from 1); a repeat
    gets the id of the first delivery, as Discord answers an enforced nonce."""

    delivered: list[OutgoingMessage] = field(default_factory=list)
    closed_dms: set[int] = field(default_factory=set)
    repeats: int = 0

    def __post_init__(self) -> None:
        self._keys: dict[str, int] = {}

    async def send(self, message: OutgoingMessage) -> int:
        if message.recipient_kind == "user" and message.recipient_id in self.closed_dms:
            raise Undeliverable("cannot send messages to this user")
        if message.key in self._keys:
            self.repeats += 1
            return self._keys[message.key]
        self.delivered.append(message)
        self._keys[message.key] = len(self.delivered)
        return len(self.delivered)

    def to(self, recipient_id: int) -> list[OutgoingMessage]:
        return [m for m in self.delivered if m.recipient_id == recipient_id]

    def types(self, messages: Iterable[OutgoingMessage] | None = None) -> list[str]:
        return [m.payload.get("type", "") for m in (self.delivered if messages is None else messages)]
