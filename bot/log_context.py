"""What a log line is about, for the JSON log (``log_format = "json"``): the game, the
shard and the interaction the current task works on, kept in a context variable, so
that every line the task logs carries them without each call saying so.

A task's context is its own (asyncio copies it when a task starts): the interaction
set by the task that answers it is not seen by the next one. A call may also give them
itself: ``log.info(..., extra={"game": 12})``.

Who sets what: an interaction's task names the interaction (and its shard, sharded) when
the bot takes it in hand (``bot.discord.metering.seen``), and its game when the service
first takes a game in hand for it (:func:`note_game`, from ``service.common``); a loop
that works game after game names each one for the lines of its work (:func:`about`); a
sharded process names each gateway event's shard as it dispatches it, and the event's
handlers inherit it (``ShardedWolfBot.dispatch``, from the event itself:
``bot.discord.shards``).
"""

from __future__ import annotations

import contextlib
import contextvars
import json
import logging
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

FIELDS = ("game", "shard", "interaction")

_context: contextvars.ContextVar[dict[str, int] | None] = contextvars.ContextVar("wolfhowl_log_context", default=None)


def _with(values: dict[str, int | None]) -> dict[str, int]:
    out = dict(_context.get() or {})
    for key, value in values.items():
        if key not in FIELDS:
            continue
        if value is None:
            out.pop(key, None)
        else:
            out[key] = int(value)
    return out


def set_context(**values: int | None) -> None:
    """Name what the current task works on from now on; a field given None is about
    nothing from now on (a message without a game after one with a game names none).
    The fields not given stay as they are."""
    _context.set(_with(values))


@contextlib.contextmanager
def about(**values: int | None) -> Iterator[None]:
    """:func:`set_context` for the lines logged inside the block only: after it, the
    task's context is what it was (a loop over games names each game for its own work)."""
    token = _context.set(_with(values))
    try:
        yield
    finally:
        _context.reset(token)


def note_game(game_id: int) -> None:
    """The interaction the current task answers is about ``game_id``: its lines name it
    from now on. Only the first game an interaction takes in hand counts (what it does
    to another follows from that one), and a task answering no interaction (a
    background loop, which names its games with :func:`about`) is left as it is."""
    known = _context.get()
    if known is not None and "interaction" in known and "game" not in known:
        _context.set({**known, "game": int(game_id)})


def get(field: str) -> int | None:
    """One field of the current task's context."""
    known = _context.get()
    return known.get(field) if known is not None else None


def context() -> dict[str, int]:
    """What the current task works on (a copy)."""
    return dict(_context.get() or {})


class JsonFormatter(logging.Formatter):
    """One JSON object per line: time (UTC, ISO 8601), level, logger, message, then the
    game, shard and interaction where there is one, and the traceback as ``exception``."""

    def format(self, record: logging.LogRecord) -> str:
        out: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        known = _context.get() or {}
        for field in FIELDS:
            value = getattr(record, field, None)
            if value is None:
                value = known.get(field)
            if value is not None:
                out[field] = value
        if record.exc_info:
            out["exception"] = self.formatException(record.exc_info)
        elif record.exc_text:
            out["exception"] = record.exc_text
        if record.stack_info:
            out["stack"] = self.formatStack(record.stack_info)
        return json.dumps(out, ensure_ascii=False, default=str)
