"""Login-time routes: gateway discovery, the bot user, the application, commands.

discord.py calls ``GET /users/@me`` (login), ``GET /oauth2/applications/@me``
(application info), optionally ``GET /gateway/bot`` (sharded clients) and the
application command routes used by ``CommandTree.sync``.
"""

from __future__ import annotations

from aiohttp import web

from .errors import ApiError
from .rest_base import api_routes, ctx_of, json_response, no_content, read_payload, snowflake


async def get_gateway(request: web.Request) -> web.Response:
    ctx = ctx_of(request)
    return json_response({"url": ctx.base_url.replace("http://", "ws://", 1)})


async def get_gateway_bot(request: web.Request) -> web.Response:
    """Sharded clients connect to ``url``: it must point back at the emulator. ``shards``
    is Discord's recommendation for the bot's server count
    (https://discord.com/developers/docs/events/gateway#get-gateway-bot)."""
    ctx = ctx_of(request)
    return json_response(
        {
            "url": ctx.base_url.replace("http://", "ws://", 1),
            "shards": ctx.config.recommended_shards(len(ctx.world.bot_guilds())),
            "session_start_limit": {
                "total": 1000,
                "remaining": 999,
                "reset_after": 86400000,
                "max_concurrency": 1,
            },
        }
    )


async def get_me(request: web.Request) -> web.Response:
    ctx = ctx_of(request)
    return json_response(
        {**ctx.bot.to_payload(), "verified": True, "mfa_enabled": False, "locale": "en-US"}
    )


async def get_user(request: web.Request) -> web.Response:
    ctx = ctx_of(request)
    user = ctx.world.users.get(snowflake(request, "user_id"))
    if user is None:
        raise ApiError.of(10013)
    return json_response(user.to_payload())


async def get_application(request: web.Request) -> web.Response:
    return json_response(ctx_of(request).application.to_payload())


def _scope(request: web.Request) -> int | None:
    """Checks the application id and, for guild routes, that the bot is in the guild."""
    ctx = ctx_of(request)
    if snowflake(request, "application_id") != ctx.application.id:
        raise ApiError.of(50001)
    if "guild_id" not in request.match_info:
        return None
    guild = ctx.world.guilds.get(snowflake(request, "guild_id"))
    if guild is None or ctx.bot.id not in guild.members:
        raise ApiError.of(50001)
    return guild.id


async def list_commands(request: web.Request) -> web.Response:
    return json_response(ctx_of(request).commands.listing(_scope(request)))


async def overwrite_commands(request: web.Request) -> web.Response:
    scope = _scope(request)
    payload, _ = await read_payload(request)
    if not isinstance(payload, list):
        raise ApiError(
            400,
            50035,
            "Invalid Form Body",
            {"_errors": [{"code": "LIST_TYPE_CONVERT", "message": "Must be a list."}]},
        )
    return json_response(ctx_of(request).commands.bulk_overwrite(scope, payload))


async def upsert_command(request: web.Request) -> web.Response:
    scope = _scope(request)
    payload, _ = await read_payload(request)
    return json_response(ctx_of(request).commands.upsert(scope, payload), 201)


async def get_command(request: web.Request) -> web.Response:
    scope = _scope(request)
    store = ctx_of(request).commands
    return json_response(store.to_payload(store.get(scope, snowflake(request, "command_id"))))


async def delete_command(request: web.Request) -> web.Response:
    scope = _scope(request)
    ctx_of(request).commands.delete(scope, snowflake(request, "command_id"))
    return no_content()


def setup(app: web.Application) -> None:
    cmds = "/applications/{application_id}/commands"
    guild_cmds = "/applications/{application_id}/guilds/{guild_id}/commands"
    api_routes(
        app,
        [
            ("GET", "/gateway", get_gateway),
            ("GET", "/gateway/bot", get_gateway_bot),
            ("GET", "/users/@me", get_me),
            ("GET", "/users/{user_id}", get_user),
            ("GET", "/applications/@me", get_application),
            ("GET", "/oauth2/applications/@me", get_application),
            ("GET", cmds, list_commands),
            ("PUT", cmds, overwrite_commands),
            ("POST", cmds, upsert_command),
            ("GET", cmds + "/{command_id}", get_command),
            ("DELETE", cmds + "/{command_id}", delete_command),
            ("GET", guild_cmds, list_commands),
            ("PUT", guild_cmds, overwrite_commands),
            ("POST", guild_cmds, upsert_command),
            ("GET", guild_cmds + "/{command_id}", get_command),
            ("DELETE", guild_cmds + "/{command_id}", delete_command),
        ],
    )
