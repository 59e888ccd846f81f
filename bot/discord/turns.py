"""One lock per key, so that work on one thing (a game's lobby post) goes one at a time
while work on others goes on; a key's lock is kept only while it is held or awaited."""

from __future__ import annotations

import asyncio
import weakref
from collections.abc import Hashable


class Turns:
    """Per bot (a lock belongs to one event loop, and a stopped bot's work holds its own)."""

    def __init__(self) -> None:
        self._locks: weakref.WeakValueDictionary[Hashable, asyncio.Lock] = weakref.WeakValueDictionary()

    def of(self, key: Hashable) -> asyncio.Lock:
        lock = self._locks.get(key)
        if lock is None:
            lock = self._locks[key] = asyncio.Lock()
        return lock
