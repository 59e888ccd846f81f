"""Delivering the outbox. The Discord layer implements :class:`Sender` (and runs the
:class:`Dispatcher` in a loop); the :class:`Dispatcher` claims due messages, hands each
to the sender and records the result. Tests and the simulator use :class:`MemorySender`."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from typing import Protocol

from bot import log_context, metrics
from bot.core import table
from bot.core.background import BackgroundLoop
from bot.core.errors import ServiceError
from bot.core.messages import Message, UnknownMessageError, decode
from bot.core.outbox import (
    OutgoingMessage,
    claim_due_messages,
    mark_delivered,
    mark_failed,
    mark_undeliverable,
    release,
)
from bot.db.repos import gallery as gallery_repo
from bot.db.repos import users as users_repo
from bot.db.session import Database

log = logging.getLogger("wolfhowl.outbox")


class Undeliverable(Exception):
    """Raised by a Sender when the recipient cannot be reached at all (a user who does
    not accept DMs, a deleted channel). The message goes to the user's inbox."""


async def with_context(db: Database, messages: list[OutgoingMessage]) -> list[OutgoingMessage]:
    """``messages`` with what their rendering and sending need, read in one unit for the
    batch: each decoded (a kind this release does not know stays None, shown as such),
    its game's public view (read once a game), the recipients' remembered DM channels and
    the gallery posts' rooms."""
    if not messages:
        return messages
    async with db.read() as s:
        games = {}
        for game_id in sorted({m.game_id for m in messages if m.game_id is not None}):
            with contextlib.suppress(ServiceError):
                games[game_id] = await (await table.read(s, game_id, db.now())).info()
        dms = await users_repo.dm_channels(s, {m.recipient_id for m in messages if m.recipient_kind == "user"})
        rooms = await gallery_repo.dead_channels(s, {m.recipient_id for m in messages if m.recipient_kind == "gallery"})
    out = []
    for m in messages:
        try:
            decoded: Message | None = decode(m.payload)
        except UnknownMessageError:
            decoded = None
        out.append(replace(
            m, message=decoded, game=games.get(m.game_id) if m.game_id is not None else None,
            dm_channel=dms.get(m.recipient_id) if m.recipient_kind == "user" else None,
            room=rooms.get(m.recipient_id) if m.recipient_kind == "gallery" else None,
        ))  # fmt: skip
    return out


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


class Dispatcher(BackgroundLoop):
    """Claims due messages and delivers them, each destination's in creation order.

    * Concurrency: up to ``concurrency`` destinations (channels, users) are sent to at
      once, each one's messages one after the other; with 1, the whole batch goes one
      message at a time in creation order.
    * Order: after a failure, the batch's later messages to the same place are given
      back untried, to follow it in order.
    * Never twice: a message sent whose "delivered" mark fails (the database was
      unavailable) is kept in ``journal`` with its Discord message id and marked on the
      next pass, not sent again.
    * One pass: what the batch's rendering needs is read with it, once
      (:func:`with_context`), so a sender renders and sends without reading anything.
    * As a background loop (:meth:`run_forever`), each pass is followed by
      ``after_pass`` (the reconciler woken: Discord's side brought in line).
    """

    def __init__(
        self, db: Database, sender: Sender, *, batch: int = 50, holder: int | None = None, concurrency: int = 1,
        after_pass: Callable[[], object] | None = None,
    ) -> None:  # fmt: skip
        BackgroundLoop.__init__(self)
        self.db = db
        self.sender = sender
        self.batch = batch
        self.concurrency = max(1, concurrency)
        # The process the leases are taken in the name of (bot.core.processes).
        self.holder = holder
        # Sent, not yet marked delivered: key -> Discord message id.
        self.journal: dict[str, int | None] = {}
        # Called after every pass, whatever it delivered and however.
        self.after_pass = after_pass

    def failed(self, message: OutgoingMessage, exc: Exception) -> None:
        """A send failed with a passing error (the message will be retried): logged, with
        the traceback when the sender does not know the failure (``Sender.expected``)."""
        expected = getattr(self.sender, "expected", None)
        if expected is not None and expected(exc):
            log.warning("outbox %s failed (%s): %s", message.key, type(exc).__name__, exc)
        else:  # a bug (rendering, a payload we do not know): keep the traceback
            log.error("outbox %s could not be delivered", message.key, exc_info=exc)

    async def run_forever(self, interval: float) -> None:
        """Deliver what is due, then pause until woken or ``interval`` passes; ends after
        ``stop()``, once the batch in hand is delivered and marked."""
        while self.running:
            try:
                report = await self.run_once()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("outbox dispatcher pass failed")
                report = DispatchReport()
            if self.after_pass is not None:
                self.after_pass()
            if report.total:
                continue  # there may be more due right now
            await self.pause(interval)

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
        messages = await with_context(self.db, await claim_due_messages(self.db, limit=self.batch, holder=self.holder))
        pass_ = _Pass(report)
        if self.concurrency == 1:
            for message in messages:
                await self._deliver(message, pass_)
        else:
            # Two destinations that are one place (a user's DM, where a practice game's
            # channel posts go too) are one lane: in order.
            lanes: dict[tuple[str, int], list[OutgoingMessage]] = {}
            for message in messages:
                where = ("channel", message.dm_channel) if message.dm_channel is not None else (message.recipient_kind, message.recipient_id)
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
