"""The event loop a long-running process of the bot runs on (``wolfhowl run``, the demo):
uvloop's where it is installed, else asyncio's own.

uvloop (https://github.com/MagicStack/uvloop) is asyncio's event loop written on libuv,
a drop-in replacement that discord.py, aiohttp, asyncpg and aiosqlite all run on. The
bot's work is many small steps through the loop: a gateway event, a REST request, each
statement's hand-off to aiosqlite's thread and back. uvloop's scheduling, sockets and
cross-thread wake-ups cost less Python for each (``docs/performance.md``). It is a
dependency on Linux and macOS and does not exist for Windows, where the bot runs on
asyncio's loop unchanged. The setting ``event_loop`` chooses: ``auto`` (uvloop when
installed), ``uvloop`` (refuse to start without it) or ``asyncio``.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from typing import Any, Literal, TypeVar

T = TypeVar("T")
EventLoopKind = Literal["auto", "uvloop", "asyncio"]


class EventLoopUnavailable(RuntimeError):
    """``event_loop = "uvloop"`` where uvloop is not installed."""


def loop_factory(kind: EventLoopKind = "auto") -> Callable[[], asyncio.AbstractEventLoop]:
    """What makes the loop ``kind`` asks for."""
    if kind != "asyncio":
        try:
            import uvloop
        except ImportError as exc:
            if kind == "uvloop":
                raise EventLoopUnavailable("event_loop = \"uvloop\", but uvloop is not installed (pip install uvloop; not on Windows)") from exc
        else:
            return uvloop.new_event_loop
    return asyncio.new_event_loop


def run(main: Coroutine[Any, Any, T], kind: EventLoopKind = "auto") -> T:
    """``asyncio.run(main)`` on the loop ``kind`` asks for (EventLoopUnavailable, with
    ``main`` closed unrun, when there is none)."""
    try:
        factory = loop_factory(kind)
    except EventLoopUnavailable:
        main.close()
        raise
    with asyncio.Runner(loop_factory=factory) as runner:
        return runner.run(main)
