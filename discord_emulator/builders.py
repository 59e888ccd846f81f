"""God-view world building for tests and scripted players (mixed into ``Emulator``).

Setting up a scenario (server, owner, players, roles, private channels) must
be one-liners, and every change must reach a connected bot through the same
gateway events Discord would send, which :class:`GuildOps` takes care of.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING

from . import permissions as perm
from .state import GUILD_CATEGORY, GUILD_TEXT, Channel, Guild, Member, Overwrite, Role, User

if TYPE_CHECKING:
    from .context import SandboxContext

OverwriteTarget = User | Member | Role
OverwriteSpec = Mapping[OverwriteTarget, tuple[int, int]]


class WorldBuilder:
    ctx: SandboxContext

    def create_user(
        self,
        username: str,
        *,
        locale: str = "en-US",
        dms_closed: bool = False,
        global_name: str | None = None,
        bot: bool = False,
    ) -> User:
        """A Discord account; ``dms_closed`` makes bot DMs fail with 50007."""
        user = User(
            id=self.ctx.snowflakes.next(),
            username=username,
            global_name=global_name,
            bot=bot,
            locale=locale,
            dms_closed=dms_closed,
        )
        self.ctx.world.users[user.id] = user
        return user

    def set_command_permissions(
        self, guild: Guild, overrides: Mapping[OverwriteTarget | Channel | Guild, bool], command: str | None = None
    ) -> None:
        """What a server admin sets in Server Settings → Integrations → the app: who may
        see and run ``command`` (a registered top-level name), or, with none, every command
        of the app. Keys: a role, a member or user, a channel, or the guild itself for
        "all channels"; values: allowed or not. Replaces that command's earlier overrides."""
        from .command_access import CHANNEL, ROLE, USER

        entries = []
        for target, allowed in overrides.items():
            if isinstance(target, Guild):
                entries.append({"id": target.id - 1, "type": CHANNEL, "permission": allowed})
            elif isinstance(target, Channel):
                entries.append({"id": target.id, "type": CHANNEL, "permission": allowed})
            elif isinstance(target, Role):
                entries.append({"id": target.id, "type": ROLE, "permission": allowed})
            else:
                user = target.user if isinstance(target, Member) else target
                entries.append({"id": user.id, "type": USER, "permission": allowed})
        if command is None:
            target_id = self.ctx.application.id
        else:
            found = next((c for c in self.ctx.commands.visible(guild.id) if c.name == command), None)
            if found is None:
                raise LookupError(f"/{command} is not registered for {guild.name}")
            target_id = found.id
        self.ctx.command_access.set(guild, target_id, entries)

    def create_guild(
        self,
        name: str,
        *,
        owner: User | None = None,
        locale: str = "en-US",
        bot_permissions: int = perm.DEFAULT_BOT,
        add_bot: bool = True,
        channels: Iterable[str] = ("general",),
        shard: tuple[int, int] | None = None,
    ) -> Guild:
        """A server with @everyone, the bot's managed role and default text channels;
        ``shard`` ``(shard_id, shard_count)``: one whose id puts it on that shard."""
        owner = owner or self.create_user(f"{name}-owner")
        self.ctx.world.users.setdefault(owner.id, owner)
        guild = self.ctx.guild_ops.create_guild(
            name, owner, locale=locale, bot_permissions=bot_permissions, add_bot=False, shard=shard
        )
        for channel_name in channels:
            self.ctx.guild_ops.create_channel(guild, channel_name)
        if add_bot:
            self.ctx.guild_ops.add_bot(guild, bot_permissions)
        return guild

    def add_bot(self, guild: Guild, permissions: int = perm.DEFAULT_BOT) -> Member:
        """Invites the bot later (sends GUILD_CREATE to a connected bot)."""
        return self.ctx.guild_ops.add_bot(guild, permissions)

    def remove_bot(self, guild: Guild) -> None:
        """Kicks the bot from ``guild`` (sends GUILD_DELETE to a connected bot)."""
        self.ctx.guild_ops.remove_bot(guild)

    def set_outage(self, guild: Guild, outage: bool = True) -> None:
        """``guild`` becomes unavailable (a Discord outage) or, with False, comes back;
        while it lasts, a connecting bot sees it listed as unavailable in READY."""
        self.ctx.guild_ops.set_outage(guild, outage)

    def delete_channel(self, channel: Channel) -> None:
        """A member with Manage Channels deletes ``channel`` (sends CHANNEL_DELETE)."""
        self.ctx.guild_ops.delete_channel(channel)

    def add_member(
        self, guild: Guild, user: User, *, roles: Iterable[Role] = (), nick: str | None = None
    ) -> Member:
        return self.ctx.guild_ops.add_member(guild, user, [r.id for r in roles], nick)

    def remove_member(self, guild: Guild, user: User) -> None:
        """``user`` leaves the server (sends GUILD_MEMBER_REMOVE); their channel
        permission overwrites stay, as on Discord."""
        self.ctx.guild_ops.remove_member(guild, user)

    def member(self, guild: Guild, user: User) -> Member:
        return guild.members[user.id]

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
        return self.ctx.guild_ops.create_role(
            guild, name, permissions=permissions, color=color, hoist=hoist, mentionable=mentionable
        )

    def give_role(self, guild: Guild, user: User, role: Role) -> None:
        member = guild.members[user.id]
        self.ctx.guild_ops.set_member_roles(guild, member, [*member.role_ids, role.id])

    def set_bot_permissions(self, guild: Guild, permissions: int) -> None:
        """Changes the permissions of the bot's managed role."""
        for role in guild.roles.values():
            if role.bot_id == self.ctx.bot.id:
                self.set_role_permissions(guild, role, permissions)

    def set_role_permissions(self, guild: Guild, role: Role, permissions: int) -> None:
        """An admin changes a role's permissions (``guild.roles[guild.id]``: @everyone)."""
        role.permissions = permissions
        data = {"guild_id": str(guild.id), "role": role.to_payload()}
        self.ctx.gateway.dispatch("GUILD_ROLE_UPDATE", data, guild_id=guild.id)

    def create_text_channel(
        self,
        guild: Guild,
        name: str,
        *,
        topic: str | None = None,
        category: Channel | None = None,
        overwrites: OverwriteSpec | None = None,
    ) -> Channel:
        """``overwrites`` maps a user/member/role to ``(allow, deny)`` bitfields."""
        return self.ctx.guild_ops.create_channel(
            guild,
            name,
            type=GUILD_TEXT,
            topic=topic,
            parent_id=category.id if category else None,
            overwrites=[_overwrite(t, a, d) for t, (a, d) in (overwrites or {}).items()],
        )

    def create_category(self, guild: Guild, name: str) -> Channel:
        return self.ctx.guild_ops.create_channel(guild, name, type=GUILD_CATEGORY)

    def set_permissions(
        self, channel: Channel, target: OverwriteTarget, *, allow: int = 0, deny: int = 0
    ) -> None:
        self.ctx.guild_ops.set_overwrite(channel, _overwrite(target, allow, deny))

    def dm_channel(self, user: User) -> Channel:
        return self.ctx.world.dm_channel_for(user)

    def install_app(self, user: User) -> None:
        """``user`` adds the app to their own account (a *user install*: the app's
        authorization link with ``integration_type=1``). Its commands that allow it are
        then offered to them everywhere: in servers without the bot and in DMs with other
        users, as their contexts allow; the bot may DM them without a shared server."""
        if 1 not in self.ctx.application.install_types:
            raise ValueError("the app does not offer a user install (Application.install_types)")
        self.ctx.world.users.setdefault(user.id, user)
        self.ctx.world.user_installs.add(user.id)

    def uninstall_app(self, user: User) -> None:
        """``user`` removes the app from their account (Settings → Authorized Apps)."""
        self.ctx.world.user_installs.discard(user.id)

    def private_channel(self, user: User, other: User) -> Channel:
        """The DM between two users, which the bot is no part of: it gets no event of it
        and every REST call into it is refused (50001); a user-installed command used
        there is an interaction of context PRIVATE_CHANNEL, answered through its token."""
        for who in (user, other):
            self.ctx.world.users.setdefault(who.id, who)
        return self.ctx.world.private_channel(user, other)

    def permissions_of(self, user: User, channel: Channel) -> int:
        """Effective permission bits of ``user`` in ``channel`` (god view)."""
        return self.ctx.guild_ops.permissions_in(channel, user.id)


def _overwrite(target: OverwriteTarget, allow: int, deny: int) -> Overwrite:
    if isinstance(target, Role):
        return Overwrite(id=target.id, type=0, allow=allow, deny=deny)
    user = target.user if isinstance(target, Member) else target
    return Overwrite(id=user.id, type=1, allow=allow, deny=deny)
