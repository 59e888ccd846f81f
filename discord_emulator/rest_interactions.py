"""Interaction callback and interaction-webhook routes (no bot auth, like Discord).

discord.py answers interactions through its webhook adapter, which sends no
Authorization header; the interaction token in the URL is the credential.
The rules themselves live in :mod:`interactions`.
"""

from __future__ import annotations

from aiohttp import web

from .rest_base import (
    api_routes,
    ctx_of,
    json_response,
    no_content,
    public,
    read_payload,
    snowflake,
)


@public
async def callback(request: web.Request) -> web.Response:
    ctx = ctx_of(request)
    payload, files = await read_payload(request)
    result = ctx.interactions.callback(
        snowflake(request, "webhook_id"), request.match_info["webhook_token"], payload, files
    )
    if request.query.get("with_response") in ("1", "true", "True"):
        return json_response(result)
    return no_content()


@public
async def execute(request: web.Request) -> web.Response:
    """Followup messages; ``?wait=true`` returns the created message."""
    ctx = ctx_of(request)
    payload, files = await read_payload(request)
    message = ctx.interactions.followup(
        snowflake(request, "webhook_id"), request.match_info["webhook_token"], payload, files
    )
    if request.query.get("wait") in ("1", "true", "True"):
        return json_response(ctx.messages.payload(message))
    return no_content()


@public
async def get_message(request: web.Request) -> web.Response:
    ctx = ctx_of(request)
    message = ctx.interactions.get_message(
        snowflake(request, "webhook_id"),
        request.match_info["webhook_token"],
        request.match_info["message_id"],
    )
    return json_response(ctx.messages.payload(message))


@public
async def edit_message(request: web.Request) -> web.Response:
    ctx = ctx_of(request)
    payload, files = await read_payload(request)
    message = ctx.interactions.edit_message(
        snowflake(request, "webhook_id"),
        request.match_info["webhook_token"],
        request.match_info["message_id"],
        payload,
        files,
    )
    return json_response(ctx.messages.payload(message))


@public
async def delete_message(request: web.Request) -> web.Response:
    ctx = ctx_of(request)
    ctx.interactions.delete_message(
        snowflake(request, "webhook_id"),
        request.match_info["webhook_token"],
        request.match_info["message_id"],
    )
    return no_content()


def setup(app: web.Application) -> None:
    hook = "/webhooks/{webhook_id}/{webhook_token}"
    api_routes(
        app,
        [
            ("POST", "/interactions/{webhook_id}/{webhook_token}/callback", callback),
            ("POST", hook, execute),
            ("GET", hook + "/messages/{message_id}", get_message),
            ("PATCH", hook + "/messages/{message_id}", edit_message),
            ("DELETE", hook + "/messages/{message_id}", delete_message),
        ],
    )
