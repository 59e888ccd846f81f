"""An interaction's first response: for a handler that may safely run twice, the answer
itself when it is ready at once, else an acknowledgement ("thinking…") and the answer
after it.

Discord wants a first response within 3 seconds
(https://discord.com/developers/docs/interactions/receiving-and-responding#responding-to-an-interaction).
Most of the bot's answers are ready within a few milliseconds: sending one as the first
response costs one request, where acknowledging first and answering with a followup
costs two, and the player sees the answer a round trip sooner, without a "thinking…"
first. A handler calls :func:`begin` when it starts and :func:`reply` (a message) or
:func:`update` (a redraw of the message a component is on) when its answer is ready.

The acknowledgement is also the claim between two processes that receive the same
interaction (a deploy's overlap): Discord takes the first response it gets and refuses
the other with ``ALREADY_ACKNOWLEDGED``, and the process refused stands down
(``bot.discord.errors``). Only a handler whose work is the same done twice (a read, or a
submission that sets what the player sent: the same number, vote, attack or guess again)
may answer at once (``idempotent``), since both processes do its work before one of them
is refused. Any other (a toggle flipped, a moderator's action, a join) acknowledges
before its work, as a claim.

The acknowledgement and the answer can cross: the timer fires while the answer is being
sent, and discord.py marks a response done only once its request returns. So every first
response of an interaction goes through one lock kept on the interaction: exactly one of
them is the first response, and the other sees it and follows (or, for the
acknowledgement, does nothing).
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import discord

from bot.discord import metering

log = logging.getLogger("wolfhowl.discord")

# How long an answer may take and still be the first response. Past it the caller sees
# "thinking…": well within Discord's 3 seconds, and too short to notice.
PROMPT_S = 0.05

# Discord: "Interaction has already been acknowledged." (another process answered it)
ALREADY_ACKNOWLEDGED = 40060

_KEY = "wolfhowl.first_response"
_acks: set[asyncio.Task[None]] = set()  # acknowledgements under way (a task needs a reference)


class _First:
    __slots__ = ("lock", "timer")

    def __init__(self) -> None:
        self.lock = asyncio.Lock()
        self.timer: asyncio.TimerHandle | None = None


def _first(interaction: discord.Interaction) -> _First:
    first = interaction.extras.get(_KEY)
    if first is None:
        first = interaction.extras[_KEY] = _First()
    return first


async def begin(interaction: discord.Interaction, *, idempotent: bool, update: bool = False, ephemeral: bool = True) -> None:
    """Start answering ``interaction``: an ``idempotent`` handler is acknowledged only if
    its answer takes longer than ``PROMPT_S``; any other is acknowledged now. The
    acknowledgement is "thinking…" (ephemeral or not) or, for ``update`` (a component's
    or a form's interaction whose answer redraws the message it came from), a deferred
    update. Nothing when the interaction was already begun or answered."""
    first = _first(interaction)
    if first.timer is not None or interaction.response.is_done():
        return
    if not idempotent:
        await _acknowledge(interaction, first, update, ephemeral)
        return

    def fire() -> None:
        task = asyncio.get_running_loop().create_task(_acknowledge_later(interaction, first, update, ephemeral))
        _acks.add(task)
        task.add_done_callback(_acks.discard)

    first.timer = asyncio.get_running_loop().call_later(PROMPT_S, fire)


async def acknowledge(interaction: discord.Interaction, *, update: bool = False, ephemeral: bool = True) -> None:
    """Acknowledge ``interaction`` now, unless it already was answered: for a handler
    whose next message must not be the first response (a question sent beside the
    message its component is on, which is then redrawn)."""
    first = _first(interaction)
    _settled(first)
    await _acknowledge(interaction, first, update, ephemeral)


async def _acknowledge(interaction: discord.Interaction, first: _First, update: bool, ephemeral: bool) -> None:
    async with first.lock:
        if interaction.response.is_done():
            return
        if update:
            await interaction.response.defer()
        else:
            await interaction.response.defer(ephemeral=ephemeral, thinking=True)
        metering.acknowledged(interaction)


async def _acknowledge_later(interaction: discord.Interaction, first: _First, update: bool, ephemeral: bool) -> None:
    """The timer's acknowledgement. Refused, it leaves the interaction to the answer:
    that still tries its own first response, and the error handler deals with what that
    meets (another process's answer, or Discord away)."""
    try:
        await _acknowledge(interaction, first, update, ephemeral)
    except discord.HTTPException as exc:
        level = logging.DEBUG if exc.code == ALREADY_ACKNOWLEDGED else logging.WARNING
        log.log(level, "could not acknowledge interaction %s", interaction.id, exc_info=True)


def _settled(first: _First) -> None:
    if first.timer is not None:
        first.timer.cancel()


async def reply(interaction: discord.Interaction, **kwargs: Any) -> None:
    """Send an answer (``discord.InteractionResponse.send_message``'s arguments): as the
    first response when none was sent yet, else as a followup."""
    first = _first(interaction)
    async with first.lock:
        _settled(first)
        if interaction.response.is_done():
            await interaction.followup.send(**kwargs)
        else:
            await interaction.response.send_message(**kwargs)
            metering.acknowledged(interaction)


async def update(interaction: discord.Interaction, **kwargs: Any) -> None:
    """Redraw the message the interaction came from (``edit_message``'s arguments): as
    the first response when none was sent yet, else by editing the original response."""
    first = _first(interaction)
    async with first.lock:
        _settled(first)
        if interaction.response.is_done():
            await interaction.edit_original_response(**kwargs)
        else:
            await interaction.response.edit_message(**kwargs)
            metering.acknowledged(interaction)
