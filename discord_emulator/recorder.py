"""The emulator's god-view log: every message (ephemeral ones too) and request.

Assertions in tests and scripted players read from here.  Messages are kept in
creation order; edits are kept on the message itself (``revisions``) and also
logged as events so a waiter can react to "the bot edited its reply".
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any, Literal

from .state import Message
from .waiting import Notifier
from .world import World

MessageEventKind = Literal["create", "edit", "delete"]


@dataclass
class MessageEvent:
    kind: MessageEventKind
    message: Message
    index: int


@dataclass
class RequestRecord:
    """One REST call as seen by the emulator, including refused ones (429, 401...)."""

    method: str
    path: str
    route: str
    params: dict[str, str]
    status: int = 0
    json: Any = None
    response: Any = None
    error_code: int | None = None
    files: list[str] = field(default_factory=list)
    audit_reason: str | None = None  # X-Audit-Log-Reason, decoded: what the server's audit log shows


class Recorder:
    def __init__(self, world: World, notifier: Notifier) -> None:
        self._world = world
        self._notifier = notifier
        self.messages: list[Message] = []
        self.events: list[MessageEvent] = []
        self.requests: list[RequestRecord] = []
        self.server_errors: list[BaseException] = []  # emulator bugs (handler crashes)
        self.in_flight = 0  # REST requests received and not yet answered

    # -- recording -----------------------------------------------------
    def record(self, kind: MessageEventKind, message: Message) -> None:
        if kind == "create":
            self.messages.append(message)
        self.events.append(MessageEvent(kind, message, len(self.events)))
        self._notifier.notify()

    def log_request(self, record: RequestRecord) -> None:
        self.requests.append(record)
        self._notifier.notify()

    @contextlib.contextmanager
    def answering(self) -> Iterator[None]:
        """Around the handling of one REST request: counted in ``in_flight`` until it
        is answered (or its handling ends otherwise)."""
        self.in_flight += 1
        try:
            yield
        finally:
            self.in_flight -= 1
            self._notifier.notify()

    # -- queries -------------------------------------------------------
    def channel_messages(
        self, channel_id: int, *, include_ephemeral: bool = True, include_deleted: bool = False
    ) -> list[Message]:
        return [
            m
            for m in self.messages
            if m.channel_id == channel_id
            and (include_ephemeral or not m.ephemeral)
            and (include_deleted or not m.deleted)
        ]

    def dms(self, user_id: int, *, include_deleted: bool = False) -> list[Message]:
        """Messages in the DM channel between the bot and ``user_id``."""
        channel = self._world.dm_channels.get(user_id)
        if channel is None:
            return []
        return self.channel_messages(channel.id, include_deleted=include_deleted)

    def visible_to(self, user_id: int) -> list[Message]:
        """Ephemeral messages shown only to ``user_id``."""
        return [m for m in self.messages if m.visible_to == user_id and not m.deleted]

    def requests_for(self, route: str, *, status: int | None = None) -> list[RequestRecord]:
        """Requests whose route key (``"POST /channels/{channel_id}/messages"``) matches."""
        return [
            r for r in self.requests if r.route == route and (status is None or r.status == status)
        ]

    async def wait_for_message(
        self,
        predicate: Callable[[Message], bool] = lambda m: True,
        timeout: float = 5.0,
        *,
        include_existing: bool = True,
        kinds: tuple[MessageEventKind, ...] = ("create",),
    ) -> Message:
        """Waits for a message event of ``kinds`` whose message satisfies ``predicate``.

        With ``include_existing`` (default) events that already happened count,
        which avoids races between triggering an action and starting to wait.
        """
        start = 0 if include_existing else len(self.events)

        def find() -> Message | None:
            for event in self.events[start:]:
                if event.kind in kinds and predicate(event.message):
                    return event.message
            return None

        return await self._notifier.wait_for(find, timeout, what="a matching message")
