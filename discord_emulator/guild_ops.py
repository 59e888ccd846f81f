"""Mutations of guild structure, each followed by the gateway event Discord sends.

Used both by REST handlers (the bot creates a channel, edits overwrites) and
by the test-side world builder (a test adds a member), so the bot's cache sees
the same GUILD_*/CHANNEL_* events regardless of who changed the world.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import permissions as perm
from .errors import ApiError
from .gateway import INTENT_GUILD_MEMBERS, INTENT_GUILDS
from .state import GUILD_TEXT, Channel, Guild, Member, Overwrite, Role, User

if TYPE_CHECKING:
    from .context import SandboxContext


class GuildOps:
    def __init__(self, ctx: SandboxContext) -> None:
        self._ctx = ctx

    # -- guilds & members ------------------------------------------------
    def create_guild(
        self,
        name: str,
        owner: User,
        *,
        locale: str,
        bot_permissions: int,
        add_bot: bool,
        shard: tuple[int, int] | None = None,
    ) -> Guild:
        ids = self._ctx.snowflakes
        guild_id = ids.next() if shard is None else ids.next_on_shard(*shard)
        guild = Guild(id=guild_id, name=name, owner_id=owner.id, preferred_locale=locale)
        guild.roles[guild.id] = Role(
            id=guild.id, guild_id=guild.id, name="@everyone", permissions=perm.DEFAULT_EVERYONE
        )
        self._ctx.world.guilds[guild.id] = guild
        guild.members[owner.id] = Member(guild_id=guild.id, user=owner)
        if add_bot:
            self.add_bot(guild, bot_permissions)
        return guild

    def add_bot(self, guild: Guild, permissions: int) -> Member:
        """Joins the bot with its managed integration role, then sends GUILD_CREATE."""
        bot = self._ctx.bot
        role = Role(
            id=self._ctx.snowflakes.next(),
            guild_id=guild.id,
            name=bot.username,
            permissions=permissions,
            position=len(guild.roles),
            managed=True,
            bot_id=bot.id,
        )
        guild.roles[role.id] = role
        member = Member(guild_id=guild.id, user=bot, role_ids=[role.id])
        guild.members[bot.id] = member
        self._ctx.gateway.dispatch_guild_create(guild)
        return member

    def remove_bot(self, guild: Guild) -> None:
        """The bot is kicked (or the server deleted): GUILD_DELETE without ``unavailable``,
        then its member and managed role go; REST calls for the guild get 10004."""
        bot = self._ctx.bot
        self._ctx.gateway.dispatch(
            "GUILD_DELETE", {"id": str(guild.id)}, guild_id=guild.id, intent=INTENT_GUILDS
        )
        guild.members.pop(bot.id, None)
        self._ctx.world.guilds_left.add(guild.id)
        for role_id in [r.id for r in guild.roles.values() if r.bot_id == bot.id]:
            del guild.roles[role_id]

    def set_outage(self, guild: Guild, outage: bool) -> None:
        """A Discord outage starts (GUILD_DELETE with ``unavailable``) or ends (GUILD_CREATE)."""
        guild.outage = outage
        if outage:
            self._ctx.gateway.dispatch(
                "GUILD_DELETE", {"id": str(guild.id), "unavailable": True}, guild_id=guild.id, intent=INTENT_GUILDS
            )
        else:
            self._ctx.gateway.dispatch_guild_create(guild)

    def add_member(
        self, guild: Guild, user: User, role_ids: list[int] | None = None, nick: str | None = None
    ) -> Member:
        self._ctx.world.users[user.id] = user
        member = Member(guild_id=guild.id, user=user, role_ids=list(role_ids or []), nick=nick)
        guild.members[user.id] = member
        data = {**member.to_payload(), "guild_id": str(guild.id)}
        self._ctx.gateway.dispatch(
            "GUILD_MEMBER_ADD", data, guild_id=guild.id, intent=INTENT_GUILD_MEMBERS
        )
        return member

    def remove_member(self, guild: Guild, user: User) -> None:
        """``user`` leaves ``guild``; like Discord, their channel overwrites stay."""
        guild.members.pop(user.id, None)
        data = {"guild_id": str(guild.id), "user": user.to_payload()}
        self._ctx.gateway.dispatch(
            "GUILD_MEMBER_REMOVE", data, guild_id=guild.id, intent=INTENT_GUILD_MEMBERS
        )

    def set_member_roles(self, guild: Guild, member: Member, role_ids: list[int]) -> None:
        member.role_ids = list(dict.fromkeys(role_ids))
        data = {**member.to_payload(), "guild_id": str(guild.id)}
        # Discord sends the bot its own member's updates without GUILD_MEMBERS.
        itself = member.user.id == self._ctx.world.bot.id
        self._ctx.gateway.dispatch(
            "GUILD_MEMBER_UPDATE", data, guild_id=guild.id,
            intent=None if itself else INTENT_GUILD_MEMBERS,
        )

    # -- roles ---------------------------------------------------------
    def create_role(
        self,
        guild: Guild,
        name: str,
        *,
        permissions: int = 0,
        color: int = 0,
        hoist: bool = False,
        mentionable: bool = False,
    ) -> Role:
        """New roles land at position 1 (just above @everyone), like on Discord."""
        for role in guild.roles.values():
            if role.id != guild.id:
                role.position += 1
        role = Role(
            id=self._ctx.snowflakes.next(),
            guild_id=guild.id,
            name=name,
            permissions=permissions,
            position=1,
            color=color,
            hoist=hoist,
            mentionable=mentionable,
        )
        guild.roles[role.id] = role
        data = {"guild_id": str(guild.id), "role": role.to_payload()}
        self._ctx.gateway.dispatch(
            "GUILD_ROLE_CREATE", data, guild_id=guild.id, intent=INTENT_GUILDS
        )
        return role

    # -- channels ------------------------------------------------------
    def create_channel(
        self,
        guild: Guild,
        name: str,
        *,
        type: int = GUILD_TEXT,
        topic: str | None = None,
        parent_id: int | None = None,
        overwrites: list[Overwrite] | None = None,
        position: int | None = None,
        nsfw: bool = False,
        rate_limit_per_user: int = 0,
    ) -> Channel:
        if type == GUILD_TEXT:
            name = name.lower().replace(" ", "-")
        if position is None:
            position = (
                max((c.position for c in guild.channels.values() if c.type == type), default=-1) + 1
            )
        channel = Channel(
            id=self._ctx.snowflakes.next(),
            type=type,
            name=name,
            guild_id=guild.id,
            position=position,
            topic=topic,
            parent_id=parent_id,
            nsfw=nsfw,
            rate_limit_per_user=rate_limit_per_user,
            overwrites={o.id: o for o in overwrites or []},
        )
        guild.channels[channel.id] = channel
        self._ctx.world.channels[channel.id] = channel
        if guild.system_channel_id is None and type == GUILD_TEXT:
            guild.system_channel_id = channel.id
        self._channel_event("CHANNEL_CREATE", channel)
        return channel

    def update_channel(self, channel: Channel, fields: dict[str, Any]) -> Channel:
        for key in ("name", "topic", "position", "nsfw", "rate_limit_per_user"):
            if key in fields:
                setattr(channel, key, fields[key])
        if "parent_id" in fields:
            channel.parent_id = int(fields["parent_id"]) if fields["parent_id"] else None
        if "permission_overwrites" in fields:
            channel.overwrites = {
                o.id: o for o in map(parse_overwrite, fields["permission_overwrites"] or [])
            }
        self._channel_event("CHANNEL_UPDATE", channel)
        return channel

    def set_overwrite(self, channel: Channel, overwrite: Overwrite) -> None:
        channel.overwrites[overwrite.id] = overwrite
        self._channel_event("CHANNEL_UPDATE", channel)

    def delete_overwrite(self, channel: Channel, target_id: int) -> None:
        channel.overwrites.pop(target_id, None)
        self._channel_event("CHANNEL_UPDATE", channel)

    def delete_channel(self, channel: Channel) -> None:
        guild = self._ctx.world.guild_of(channel)
        if guild is not None:
            guild.channels.pop(channel.id, None)
        self._ctx.world.channels.pop(channel.id, None)
        self._channel_event("CHANNEL_DELETE", channel)

    def _channel_event(self, event: str, channel: Channel) -> None:
        self._ctx.gateway.dispatch(
            event, channel.to_payload(), guild_id=channel.guild_id, intent=INTENT_GUILDS
        )

    # -- permission queries --------------------------------------------
    def permissions_in(self, channel: Channel, user_id: int) -> int:
        """Effective permissions of ``user_id`` in ``channel`` (0 if not a member)."""
        guild = self._ctx.world.guild_of(channel)
        if guild is None:
            return perm.DM_PERMISSIONS
        member = guild.members.get(user_id)
        if member is None:
            return 0
        return perm.channel_permissions(guild, channel, member)

    def guild_permissions(self, guild: Guild, user_id: int) -> int:
        member = guild.members.get(user_id)
        return perm.base_permissions(guild, member) if member is not None else 0

    # -- access checks for bot REST calls ------------------------------
    def require_guild(self, guild_id: int) -> Guild:
        """Unknown guilds and guilds the bot is not in look alike to a bot: 10004."""
        guild = self._ctx.world.guilds.get(guild_id)
        if guild is None or self._ctx.bot.id not in guild.members:
            raise ApiError.of(10004)
        return guild

    def require_channel(self, channel_id: int, *, needed: int = perm.VIEW_CHANNEL) -> Channel:
        """The channel, if the bot can see it and holds ``needed`` there.

        Missing View Channel is 50001 "Missing Access"; any other missing bit
        is 50013 "Missing Permissions", as on Discord. A channel the bot cannot reach
        at all (a server it is not in, a DM between users) is 50001 too.
        """
        world = self._ctx.world
        channel = world.channels.get(channel_id)
        if channel is None:
            raise ApiError.of(10003)
        if channel.guild_id is None:
            if world.is_private(channel):
                raise ApiError.of(50001)  # a DM between two users
            return channel
        guild = world.guilds.get(channel.guild_id)
        if guild is None:
            raise ApiError.of(10003)
        if self._ctx.bot.id not in guild.members and guild.id not in world.guilds_left:
            # A channel of a server the bot was never in (where a user-installed app was
            # used): Missing Access. (One it was removed from keeps its 10004 below.)
            raise ApiError.of(50001)
        self.require_guild(channel.guild_id)
        granted = self.permissions_in(channel, self._ctx.bot.id)
        if not granted & perm.VIEW_CHANNEL:
            raise ApiError.of(50001)
        if not perm.has(granted, needed):
            raise ApiError.of(50013)
        return channel

    def require_guild_permission(self, guild: Guild, needed: int) -> None:
        if not perm.has(self.guild_permissions(guild, self._ctx.bot.id), needed):
            raise ApiError.of(50013)


def parse_overwrite(data: dict[str, Any]) -> Overwrite:
    return Overwrite(
        id=int(data["id"]),
        type=int(data.get("type", 0)),
        allow=int(data.get("allow") or 0),
        deny=int(data.get("deny") or 0),
    )
