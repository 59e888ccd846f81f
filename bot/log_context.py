"""What a log line is about, for the JSON log (``log_format = "json"``): the game, the
shard and the interaction the current task works on, kept in a context variable, so
that every line the task logs carries them without each call saying so.

A task's context is its own (asyncio copies it when a task starts): the interaction
set by the task that answers it is not seen by the next one. A call may also give them
itself: ``log.info(..., extra={"game": 12})``.
"""

from __future__ import annotations

import contextvars
import json
import logging
from datetime import UTC, datetime
from typing import Any

FIELDS = ("game", "shard", "interaction")

_context: contextvars.ContextVar[dict[str, int] | None] = contextvars.ContextVar("wolfhowl_log_context", default=None)


def set_context(**values: int | None) -> None:
    """Name what the current task works on from now on (None leaves a field as it is)."""
    given = {k: int(v) for k, v in values.items() if v is not None and k in FIELDS}
    if given:
        _context.set({**(_context.get() or {}), **given})


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
