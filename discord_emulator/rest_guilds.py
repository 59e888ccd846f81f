"""Guild, channel, member and role routes a game bot uses.

Each mutating route checks the bot's permissions the way Discord does:
Manage Channels to create/edit channels, Manage Roles for overwrites and
role changes, no granting of permissions the bot lacks itself, and role
hierarchy for assigning roles.
"""

from __future__ import annotations

from typing import Any

from aiohttp import web

from . import permissions as perm
from .errors import ApiError, FormErrors
from .gateway import INTENT_GUILD_MEMBERS
from .guild_ops import parse_overwrite
from .rest_base import api_routes, ctx_of, json_response, no_content, read_payload, snowflake
from .state import GUILD_ANNOUNCEMENT, GUILD_CATEGORY, GUILD_TEXT, GUILD_VOICE, Guild, Overwrite

CREATABLE_TYPES = {GUILD_TEXT, GUILD_VOICE, GUILD_CATEGORY, GUILD_ANNOUNCEMENT}
MAX_CHANNELS = 500


def _guild(request: web.Request) -> Guild:
    return ctx_of(request).guild_ops.require_guild(snowflake(request, "guild_id"))


def _check_grantable(request: web.Request, guild: Guild, bits: int) -> None:
    """Bots cannot allow or deny permissions they do not hold themselves."""
    ctx = ctx_of(request)
    held = ctx.guild_ops.guild_permissions(guild, ctx.bot.id)
    if not held & perm.ADMINISTRATOR and bits & ~held:
        raise ApiError.of(50013)


def _check_overwrites(request: web.Request, guild: Guild, overwrites: list[Overwrite]) -> None:
    if not overwrites:
        return
    ctx_of(request).guild_ops.require_guild_permission(guild, perm.MANAGE_ROLES)
    for ow in overwrites:
        if ow.type == 0 and ow.id not in guild.roles:
            raise ApiError.of(10011)
        if ow.type == 1 and ow.id not in guild.members:
            raise ApiError.of(10007)
        _check_grantable(request, guild, ow.allow | ow.deny)


def _validate_channel_fields(payload: dict[str, Any], *, creating: bool) -> FormErrors:
    errors = FormErrors()
    name = payload.get("name")
    if (creating or "name" in payload) and (not isinstance(name, str) or not 1 <= len(name) <= 100):
        errors.bad_length(("name",), 1, 100)
    topic = payload.get("topic")
    if topic is not None and len(topic) > 1024:
        errors.max_length(("topic",), 1024)
    if creating and int(payload.get("type", GUILD_TEXT)) not in CREATABLE_TYPES:
        errors.add(("type",), "BASE_TYPE_CHOICES", "Value must be one of {0, 2, 4, 5}.")
    slowmode = payload.get("rate_limit_per_user")
    if slowmode is not None and not 0 <= int(slowmode) <= 21600:
        errors.add(
            ("rate_limit_per_user",),
            "NUMBER_TYPE_MAX",
            "int value should be less than or equal to 21600.",
        )
    return errors


async def get_guild(request: web.Request) -> web.Response:
    return json_response(_guild(request).to_payload())


async def get_channels(request: web.Request) -> web.Response:
    return json_response([c.to_payload() for c in _guild(request).channels.values()])


async def create_channel(request: web.Request) -> web.Response:
    ctx = ctx_of(request)
    guild = _guild(request)
    payload, _ = await read_payload(request)
    ctx.guild_ops.require_guild_permission(guild, perm.MANAGE_CHANNELS)
    _validate_channel_fields(payload, creating=True).raise_if_any()
    if len(guild.channels) >= MAX_CHANNELS:
        raise ApiError.of(30013)
    parent_id = int(payload["parent_id"]) if payload.get("parent_id") else None
    if parent_id is not None:
        parent = guild.channels.get(parent_id)
        if parent is None or parent.type != GUILD_CATEGORY:
            errors = FormErrors()
            errors.add(("parent_id",), "CHANNEL_PARENT_INVALID", "Category does not exist")
            errors.raise_if_any()
    overwrites = [parse_overwrite(o) for o in payload.get("permission_overwrites") or []]
    _check_overwrites(request, guild, overwrites)
    channel = ctx.guild_ops.create_channel(
        guild,
        payload["name"],
        type=int(payload.get("type", GUILD_TEXT)),
        topic=payload.get("topic"),
        parent_id=parent_id,
        overwrites=overwrites,
        position=payload.get("position"),
        nsfw=bool(payload.get("nsfw", False)),
        rate_limit_per_user=int(payload.get("rate_limit_per_user") or 0),
    )
    return json_response(channel.to_payload(), 201)


async def get_channel(request: web.Request) -> web.Response:
    ctx = ctx_of(request)
    return json_response(
        ctx.guild_ops.require_channel(snowflake(request, "channel_id")).to_payload()
    )


async def edit_channel(request: web.Request) -> web.Response:
    ctx = ctx_of(request)
    payload, _ = await read_payload(request)
    channel = ctx.guild_ops.require_channel(
        snowflake(request, "channel_id"), needed=perm.VIEW_CHANNEL | perm.MANAGE_CHANNELS
    )
    guild = ctx.guild_ops.require_guild(channel.guild_id or 0)
    _validate_channel_fields(payload, creating=False).raise_if_any()
    if "permission_overwrites" in payload:
        _check_overwrites(
            request, guild, [parse_overwrite(o) for o in payload["permission_overwrites"] or []]
        )
    return json_response(ctx.guild_ops.update_channel(channel, payload).to_payload())


async def delete_channel(request: web.Request) -> web.Response:
    ctx = ctx_of(request)
    channel = ctx.guild_ops.require_channel(snowflake(request, "channel_id"))
    if channel.guild_id is not None:
        ctx.guild_ops.require_channel(channel.id, needed=perm.VIEW_CHANNEL | perm.MANAGE_CHANNELS)
        ctx.guild_ops.delete_channel(channel)
    return json_response(channel.to_payload())


async def put_overwrite(request: web.Request) -> web.Response:
    ctx = ctx_of(request)
    payload, _ = await read_payload(request)
    channel = ctx.guild_ops.require_channel(
        snowflake(request, "channel_id"), needed=perm.VIEW_CHANNEL | perm.MANAGE_ROLES
    )
    guild = ctx.guild_ops.require_guild(channel.guild_id or 0)
    overwrite = parse_overwrite({**payload, "id": snowflake(request, "overwrite_id")})
    _check_overwrites(request, guild, [overwrite])
    ctx.guild_ops.set_overwrite(channel, overwrite)
    return no_content()


async def delete_overwrite(request: web.Request) -> web.Response:
    ctx = ctx_of(request)
    channel = ctx.guild_ops.require_channel(
        snowflake(request, "channel_id"), needed=perm.VIEW_CHANNEL | perm.MANAGE_ROLES
    )
    ctx.guild_ops.delete_overwrite(channel, snowflake(request, "overwrite_id"))
    return no_content()


async def get_member(request: web.Request) -> web.Response:
    member = _guild(request).members.get(snowflake(request, "user_id"))
    if member is None:
        raise ApiError.of(10007)
    return json_response(member.to_payload())


async def list_members(request: web.Request) -> web.Response:
    """Listing members needs the privileged GUILD_MEMBERS intent enabled for the app."""
    ctx = ctx_of(request)
    guild = _guild(request)
    if not ctx.config.privileged_mask & INTENT_GUILD_MEMBERS:
        raise ApiError.of(50001)
    limit = max(1, min(int(request.query.get("limit", "1")), 1000))
    after = int(request.query.get("after", "0"))
    members = sorted(
        (m for m in guild.members.values() if m.user.id > after), key=lambda m: m.user.id
    )
    return json_response([m.to_payload() for m in members[:limit]])


async def get_roles(request: web.Request) -> web.Response:
    return json_response([r.to_payload() for r in _guild(request).roles.values()])


async def create_role(request: web.Request) -> web.Response:
    ctx = ctx_of(request)
    guild = _guild(request)
    payload, _ = await read_payload(request)
    ctx.guild_ops.require_guild_permission(guild, perm.MANAGE_ROLES)
    permissions = int(payload.get("permissions") or 0)
    _check_grantable(request, guild, permissions)
    role = ctx.guild_ops.create_role(
        guild,
        str(payload.get("name") or "new role")[:100],
        permissions=permissions,
        color=int(payload.get("color") or 0),
        hoist=bool(payload.get("hoist", False)),
        mentionable=bool(payload.get("mentionable", False)),
    )
    return json_response(role.to_payload())


async def change_member_role(request: web.Request) -> web.Response:
    """PUT/DELETE a role on a member: Manage Roles plus role hierarchy."""
    ctx = ctx_of(request)
    guild = _guild(request)
    member = guild.members.get(snowflake(request, "user_id"))
    if member is None:
        raise ApiError.of(10007)
    role = guild.roles.get(snowflake(request, "role_id"))
    if role is None or role.id == guild.id:
        raise ApiError.of(10011)
    ctx.guild_ops.require_guild_permission(guild, perm.MANAGE_ROLES)
    bot_member = guild.members[ctx.bot.id]
    if role.managed or role.position >= perm.highest_role_position(guild, bot_member):
        raise ApiError.of(50013)
    roles = [r for r in member.role_ids if r != role.id]
    if request.method == "PUT":
        roles.append(role.id)
    ctx.guild_ops.set_member_roles(guild, member, roles)
    return no_content()


def setup(app: web.Application) -> None:
    guild = "/guilds/{guild_id}"
    channel = "/channels/{channel_id}"
    api_routes(
        app,
        [
            ("GET", guild, get_guild),
            ("GET", guild + "/channels", get_channels),
            ("POST", guild + "/channels", create_channel),
            ("GET", guild + "/members", list_members),
            ("GET", guild + "/members/{user_id}", get_member),
            ("PUT", guild + "/members/{user_id}/roles/{role_id}", change_member_role),
            ("DELETE", guild + "/members/{user_id}/roles/{role_id}", change_member_role),
            ("GET", guild + "/roles", get_roles),
            ("POST", guild + "/roles", create_role),
            ("GET", channel, get_channel),
            ("PATCH", channel, edit_channel),
            ("DELETE", channel, delete_channel),
            ("PUT", channel + "/permissions/{overwrite_id}", put_overwrite),
            ("DELETE", channel + "/permissions/{overwrite_id}", delete_overwrite),
        ],
    )
