"""Start a discord.py client and wait until it is ready (READY received, ``on_ready``
dispatched), surfacing a start-up error instead of hanging; ``running`` also closes it
after an ``async with`` block."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator

import discord


async def start_until_ready(client: discord.Client, token: str, timeout: float = 15.0) -> asyncio.Task[None]:
    """``client.start(token)`` as a task, returned once the client is ready. Raises the
    start-up error if ``start`` fails first, ``TimeoutError`` if ``timeout`` passes."""
    task = asyncio.create_task(client.start(token), name=f"{type(client).__name__}-start")
    # Created after start() has begun logging in, as wait_until_ready() requires.
    waiter = asyncio.create_task(client.wait_until_ready())
    done, _ = await asyncio.wait({task, waiter}, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
    if waiter not in done:
        waiter.cancel()
        if task.done():
            task.result()  # re-raise the start-up error
        raise TimeoutError(f"{type(client).__name__} did not become ready within {timeout:g} s")
    return task


@contextlib.asynccontextmanager
async def running(client: discord.Client, token: str, timeout: float = 15.0) -> AsyncIterator[discord.Client]:
    """``client`` started until ready (``start_until_ready``) for the ``async with``
    block, then closed, its start task given 5 s to end, and its heartbeat thread too
    (discord.py does not wait for it: a beat due just then would find the event loop
    that the caller closes next already gone)."""
    task = await start_until_ready(client, token, timeout)
    try:
        yield client
    finally:
        heartbeat = getattr(getattr(client, "ws", None), "_keep_alive", None)
        await client.close()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(task, 5)
        if heartbeat is not None:
            with contextlib.suppress(RuntimeError):  # never started
                await asyncio.to_thread(heartbeat.join, 5)
