"""What the Discord layer records for the metrics (``bot.metrics``) and the log's context
(``bot.log_context``): each interaction from the moment the bot takes it in hand
(``seen``, from ``answering.hold``) to its first response (``acknowledged``, from
``first_response``) and its end (``finished``: answered, refused or failed, from the one
error handler and the completions), and every REST request discord.py makes (an aiohttp
trace on its session, each URL counted by its route: :func:`route`).

An interaction is timed from when this process took it in hand, not from its snowflake:
Discord's clock and this host's may differ. A first response the handler sent itself
(a redraw, a form) counts as the acknowledgement when the interaction ends.
"""

from __future__ import annotations

import re
import time
from typing import Any

import aiohttp
import discord

from bot import log_context, metrics
from bot.discord.shards import shard_of

_SEEN = "wolfhowl.seen"
_ACKED = "wolfhowl.acked"
_DONE = "wolfhowl.done"

_API = re.compile(r"/api/v[0-9]+(/[^?]*)")
_TOKEN_AFTER = frozenset({"interactions", "webhooks"})
# A word of Discord's routes (``channels``, ``@me``, ``thread-members``, ``oauth2``);
# any other segment is a value: an emoji (``%F0%9F%90%BA``, or ``wolf:123`` for a
# server's own), a name.
_WORD = re.compile(r"[a-z@][a-z0-9@_-]{0,31}")


def seen(interaction: discord.Interaction) -> None:
    """The bot takes ``interaction`` in hand: the clock starts (once), and the log lines
    of this task name it (and its shard, when sharded)."""
    extras = getattr(interaction, "extras", None)
    if not isinstance(extras, dict) or _SEEN in extras:  # (a test's stand-in has none)
        return
    extras[_SEEN] = time.perf_counter()
    # A sharded client (``Client.shard_count`` set): the shard Discord sent it through.
    count = getattr(interaction.client, "shard_count", None)
    shard = shard_of(interaction.guild_id, count) if count else None
    log_context.set_context(interaction=interaction.id, shard=shard)


def acknowledged(interaction: discord.Interaction) -> None:
    """The first response to ``interaction`` went out (an answer or a deferral)."""
    m = metrics.current
    if m is None:
        return
    extras = interaction.extras
    if _ACKED in extras or _SEEN not in extras:
        return
    extras[_ACKED] = True
    m.ack_seconds.observe(time.perf_counter() - extras[_SEEN])


def label(interaction: discord.Interaction) -> str:
    """The interaction's ``command`` label: a command's full name, a component's or a
    form's kind (``wh:join``); ``other`` for what the bot does not have."""
    if interaction.type in (discord.InteractionType.application_command, discord.InteractionType.autocomplete):
        command = interaction.command
        return command.qualified_name if command is not None else "other"
    data: dict[str, Any] = interaction.data if isinstance(interaction.data, dict) else {}  # type: ignore[assignment]
    return metrics.component_kind(data.get("custom_id"))


def finished(interaction: discord.Interaction, outcome: str) -> None:
    """``interaction`` is over: ``answered``, ``refused`` or ``failed`` (once; an
    autocomplete, a suggestion list rather than an answer, is not counted)."""
    m = metrics.current
    if m is None:
        return
    extras = interaction.extras
    if _DONE in extras or interaction.type is discord.InteractionType.autocomplete:
        return
    extras[_DONE] = True
    started = extras.get(_SEEN)
    if started is not None:
        elapsed = time.perf_counter() - started
        if _ACKED not in extras and interaction.response.is_done():
            extras[_ACKED] = True
            m.ack_seconds.observe(elapsed)
        m.answer_seconds.observe(elapsed)
    m.interactions.labels(label(interaction), outcome).inc()


def route(method: str, path: str) -> str | None:
    """A REST request's route as a template without ids: ``POST /channels/{id}/messages``;
    an interaction's or a webhook's token is ``{token}``, any segment that is not one of
    Discord's route words ``{value}``. ``path`` is the URL's raw path, as sent (an
    emoji percent-encoded; a decoded one is a value all the same). None for what is no
    REST call (the gateway's connection)."""
    found = _API.search(path)
    if found is None:
        return None
    parts: list[str] = []
    for seg in found[1].split("/")[1:]:
        if seg.isascii() and seg.isdigit():
            seg = "{id}"
        elif len(parts) >= 2 and parts[-1] == "{id}" and parts[-2] in _TOKEN_AFTER:
            seg = "{token}"
        elif not _WORD.fullmatch(seg):
            seg = "{value}"
        parts.append(seg)
    return f"{method.upper()} /{'/'.join(parts)}"


def rest_trace() -> aiohttp.TraceConfig:
    """An aiohttp trace for discord.py's HTTP session (``http_trace``): every response
    from Discord's REST API counted by route (interactions' answers too, which bypass
    discord.py's ``request``), a 429 also by its scope."""
    trace = aiohttp.TraceConfig()

    async def on_request_end(session: Any, context: Any, params: aiohttp.TraceRequestEndParams) -> None:
        m = metrics.current
        if m is None:
            return
        route_ = route(params.method, params.url.raw_path)  # (``path`` is decoded: an emoji, a "/" in a value)
        if route_ is None:
            return
        m.rest_requests.labels(route_).inc()
        response = params.response
        if response.status == 429:
            headers = response.headers
            is_global = headers.get("X-RateLimit-Global", "").lower() == "true" or headers.get("X-RateLimit-Scope") == "global"
            m.rest_429.labels(route_, "global" if is_global else "route").inc()

    trace.on_request_end.append(on_request_end)
    return trace
