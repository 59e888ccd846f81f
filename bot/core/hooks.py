"""The moments of a game's step, and the features that listen to them.

A step (a start, a phase's close, a seat removed, a game ended by its moderator) is
written by the core in one unit of work: its state, its entry in the game log, its news.
At each moment of it the core publishes the :class:`Step`, and every handler registered
for that moment runs, in the same transaction, in its declared ``order``: what a feature
adds to the step (records at the end, the gallery's truth, the prompts of a phase that
opens, the AI seats' turns…) is written with it or not at all. The core imports none of
the features; each feature registers its handlers when it is loaded
(:func:`bot.features.load`), and a moment published before that refuses, loudly, rather
than write a step without what the features add to it.

The moments, in the order a step meets them:

* :data:`CLOSING`: a phase is about to close (nothing resolved yet): the AI seats that
  have not played decide (10); the absent are counted (20).
* :data:`OVER`: the game has just ended (its state final): its records and ratings (10).
* :data:`TOLD`: the step's news is written: the gallery's truth (10); at the end, each
  player's ending (20) and the forecasters' scores (30).
* :data:`OPENED`: a phase has opened (its notice written): the gallery's menu of
  predictions (10); the absent warned and the absence policy applied (20); the phase's
  prompts (30); the AI seats' turns planned (40).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import engine

if TYPE_CHECKING:  # (the table's module imports nothing of this one)
    from bot.core.outbox import Mail
    from bot.core.table import Table


class NotLoadedError(RuntimeError):
    """A moment published before the features registered their handlers."""


@dataclass(eq=False)
class Step:
    """One step of a game being written, as its moments' handlers see it. ``kind``: the
    step's kind in the game log (start, advance, remove, replace, end); ``round_no`` and
    ``phase``: what it closed (a start: 0, ``start``); ``events`` and ``rolls``: the
    engine's; ``mail``: the step's messages (None until the news is written);
    ``opened``: the key of the post the new phase's prompts follow; ``ratings``: each
    rated player's rating before and after, once the game is over; ``notes``: what a
    feature keeps from one moment of the step to the next (under its own name)."""

    table: Table
    kind: str
    round_no: int
    phase: str
    events: list[engine.Event] = field(default_factory=list)
    rolls: list[engine.Roll] = field(default_factory=list)
    at_deadline: bool = False
    mail: Mail | None = None
    opened: str | None = None
    ratings: dict[int, tuple[float | None, float]] = field(default_factory=dict)
    notes: dict[str, Any] = field(default_factory=dict)

    @property
    def over(self) -> bool:
        return bool(self.table.dealt and self.table.state.over)

    def told(self) -> Mail:
        """The step's mail (its news is written by then)."""
        assert self.mail is not None, "the step's news is not written yet"
        return self.mail


Handler = Callable[[Step], Awaitable[object]]


class Moment:
    """One moment of a step, with the handlers the features registered for it."""

    loaded = False  # set by bot.features.load once every feature has registered

    def __init__(self, name: str) -> None:
        self.name = name
        self._handlers: list[tuple[int, str, Handler]] = []

    def listen(self, order: int) -> Callable[[Handler], Handler]:
        """Register the decorated handler at this moment, to run at ``order``."""

        def register(handler: Handler) -> Handler:
            where = f"{handler.__module__}.{handler.__qualname__}"
            if any(w == where for _, w, _ in self._handlers):
                raise ValueError(f"{where} listens to {self.name} twice")
            self._handlers.append((order, where, handler))
            self._handlers.sort(key=lambda h: (h[0], h[1]))
            return handler

        return register

    def handlers(self) -> list[str]:
        """The registered handlers' names, in the order they run."""
        return [where for _, where, _ in self._handlers]

    async def publish(self, step: Step) -> None:
        if not Moment.loaded:
            raise NotLoadedError(f"{self.name} published before the features were loaded (bot.features.load)")
        for _, _, handler in self._handlers:
            await handler(step)


CLOSING = Moment("closing")
OVER = Moment("over")
TOLD = Moment("told")
OPENED = Moment("opened")
MOMENTS = (CLOSING, OVER, TOLD, OPENED)
