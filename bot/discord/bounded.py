"""What the bot remembers in memory about games, players and channels, kept to a fixed
size: however many games are live and however long the process runs, a set or map of
these forgets its oldest entries past its limit. Each is a hint (who was pinged this
phase, what the moderator was last told): forgetting one costs at most a repeated notice
or a lookup, never a lost or doubled message, which the database rules out."""

from __future__ import annotations

from collections.abc import Hashable
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")

LIMIT = 10_000


class BoundedDict(dict[K, V], Generic[K, V]):
    """A dict that keeps the ``limit`` most recently set keys (setting a key again makes
    it the newest)."""

    def __init__(self, limit: int = LIMIT) -> None:
        super().__init__()
        self.limit = limit

    def __setitem__(self, key: K, value: V) -> None:
        self.pop(key, None)
        super().__setitem__(key, value)
        while len(self) > self.limit:
            del self[next(iter(self))]


class BoundedSet(Generic[K]):
    """A set that keeps the ``limit`` most recently added members."""

    def __init__(self, limit: int = LIMIT) -> None:
        self._members: BoundedDict[K, None] = BoundedDict(limit)

    def add(self, member: K) -> None:
        self._members[member] = None

    def discard(self, member: K) -> None:
        self._members.pop(member, None)

    def __contains__(self, member: object) -> bool:
        return member in self._members

    def __len__(self) -> int:
        return len(self._members)
