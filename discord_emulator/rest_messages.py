"""Channel message routes, DM channel creation, and attachment downloads.

Permission and DM rules are checked before the message reaches
:class:`MessageService`: 50001/50013 in guild channels, 50001 in a server the
bot is not in or a DM between users, 50007 for users whose DMs are closed or who
neither share a server with the bot nor installed the app to their account.
"""

from __future__ import annotations

from aiohttp import web

from . import permissions as perm
from .errors import ApiError
from .rest_base import api_routes, ctx_of, json_response, no_content, read_payload, snowflake
from .state import Message


async def create_dm(request: web.Request) -> web.Response:
    ctx = ctx_of(request)
    payload, _ = await read_payload(request)
    try:
        user = ctx.world.users.get(int(payload.get("recipient_id", 0)))
    except (TypeError, ValueError):
        user = None
    if user is None:
        raise ApiError.of(10013)
    if user.id == ctx.bot.id:
        raise ApiError.of(50007)
    return json_response(ctx.world.dm_channel_for(user).to_payload())


async def send_message(request: web.Request) -> web.Response:
    ctx = ctx_of(request)
    payload, files = await read_payload(request)
    needed = perm.VIEW_CHANNEL | perm.SEND_MESSAGES | (perm.ATTACH_FILES if files else 0)
    channel = ctx.guild_ops.require_channel(snowflake(request, "channel_id"), needed=needed)
    if channel.is_dm:
        recipient = channel.recipients[0]
        reachable = ctx.world.shares_guild_with_bot(recipient) or ctx.world.user_installed(recipient)
        if recipient.dms_closed or recipient.bot or not reachable:
            raise ApiError.of(50007)
    elif payload.get("embeds") and not ctx.guild_ops.permissions_in(channel, ctx.bot.id) & perm.EMBED_LINKS:
        # Discord drops the embeds of a sender without Embed Links, silently; a message
        # left with nothing to show is then refused (50006).
        payload = {**payload, "embeds": []}
    message = ctx.messages.enforced_repeat(ctx.bot, payload) or ctx.messages.create(channel, ctx.bot, payload, files)
    return json_response(ctx.messages.payload(message))


def _channel_message(request: web.Request) -> Message:
    """A non-ephemeral, non-deleted message of a channel the bot can read."""
    ctx = ctx_of(request)
    channel = ctx.guild_ops.require_channel(snowflake(request, "channel_id"))
    message = ctx.world.messages.get(snowflake(request, "message_id"))
    if message is None or message.channel_id != channel.id or message.deleted or message.ephemeral:
        raise ApiError.of(10008)
    return message


async def get_message(request: web.Request) -> web.Response:
    ctx = ctx_of(request)
    ctx.guild_ops.require_channel(
        snowflake(request, "channel_id"), needed=perm.VIEW_CHANNEL | perm.READ_MESSAGE_HISTORY
    )
    return json_response(ctx.messages.payload(_channel_message(request)))


async def list_messages(request: web.Request) -> web.Response:
    ctx = ctx_of(request)
    needed = perm.VIEW_CHANNEL | perm.READ_MESSAGE_HISTORY
    channel = ctx.guild_ops.require_channel(snowflake(request, "channel_id"), needed=needed)
    try:
        limit = int(request.query.get("limit", "50"))
        before = int(request.query["before"]) if "before" in request.query else None
        after = int(request.query["after"]) if "after" in request.query else None
    except ValueError:
        raise ApiError(400, 50035, "Invalid Form Body") from None
    if not 1 <= limit <= 100:
        raise ApiError(
            400,
            50035,
            "Invalid Form Body",
            {
                "limit": {
                    "_errors": [
                        {
                            "code": "NUMBER_TYPE_MAX",
                            "message": "int value should be less than or equal to 100.",
                        }
                    ]
                }
            },
        )
    messages = ctx.recorder.channel_messages(channel.id, include_ephemeral=False)
    if before is not None:
        messages = [m for m in messages if m.id < before]
    if after is not None:
        messages = [m for m in messages if m.id > after][:limit]
    else:
        messages = messages[-limit:]
    return json_response([ctx.messages.payload(m) for m in reversed(messages)])


async def edit_message(request: web.Request) -> web.Response:
    ctx = ctx_of(request)
    payload, files = await read_payload(request)
    message = _channel_message(request)
    if message.author.id != ctx.bot.id:
        raise ApiError.of(50005)
    if files:
        ctx.guild_ops.require_channel(
            message.channel_id, needed=perm.VIEW_CHANNEL | perm.ATTACH_FILES
        )
    return json_response(ctx.messages.payload(ctx.messages.edit(message, payload, files)))


async def delete_message(request: web.Request) -> web.Response:
    ctx = ctx_of(request)
    message = _channel_message(request)
    if message.author.id != ctx.bot.id:
        if message.guild_id is None:
            raise ApiError.of(50013)
        ctx.guild_ops.require_channel(
            message.channel_id, needed=perm.VIEW_CHANNEL | perm.MANAGE_MESSAGES
        )
    ctx.messages.delete(message)
    return no_content()


async def typing(request: web.Request) -> web.Response:
    ctx = ctx_of(request)
    ctx.guild_ops.require_channel(
        snowflake(request, "channel_id"), needed=perm.VIEW_CHANNEL | perm.SEND_MESSAGES
    )
    return no_content()


async def download_attachment(request: web.Request) -> web.Response:
    """Serves stored bytes (like Discord's CDN, no auth), so ``Attachment.read()`` works."""
    ident = request.match_info["attachment_id"]
    attachment = ctx_of(request).world.attachments.get(int(ident)) if ident.isdigit() else None
    if attachment is None or attachment.filename != request.match_info["filename"]:
        return web.Response(status=404, text="404: Not Found")
    return web.Response(
        body=attachment.data, content_type=attachment.content_type or "application/octet-stream"
    )


def setup(app: web.Application) -> None:
    msg = "/channels/{channel_id}/messages"
    api_routes(
        app,
        [
            ("POST", "/users/@me/channels", create_dm),
            ("GET", msg, list_messages),
            ("POST", msg, send_message),
            ("GET", msg + "/{message_id}", get_message),
            ("PATCH", msg + "/{message_id}", edit_message),
            ("DELETE", msg + "/{message_id}", delete_message),
            ("POST", "/channels/{channel_id}/typing", typing),
        ],
    )
    app.router.add_get("/attachments/{channel_id}/{attachment_id}/{filename}", download_attachment)
