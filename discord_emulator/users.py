"""The user side: what a human does in the Discord client, as real dispatches.

Each action checks what the client would check (membership, channel access,
command visibility and ``default_member_permissions``, component state), then
creates a genuine INTERACTION_CREATE built from the *registered* command
definitions or the *stored* message components.  Mixed into ``Emulator``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from . import permissions as perm
from .command_access import listed
from .commands import CommandNotFound, ResolvedCommand
from .interactions import (
    APPLICATION_COMMAND,
    AUTOCOMPLETE,
    MESSAGE_COMPONENT,
    MODAL_SUBMIT,
    InteractionResult,
)
from .limits import SELECT_TYPES
from .options import InvalidInvocation, OptionBuilder
from .state import GUILD_TEXT, Channel, Guild, Message, User, iter_components

if TYPE_CHECKING:
    from .context import SandboxContext

# Places and users may be given as sandbox objects, ids, or anything with ``.id``
# (e.g. a discord.py object the bot returned).
ChannelRef = Channel | int | Any | None
GuildRef = Guild | int | Any | None
MessageRef = Message | int | Any


def _ref_id(ref: Any) -> int:
    return int(getattr(ref, "id", ref))


class UserActions:
    """Slash commands, autocomplete, buttons, selects, modals and plain messages."""

    ctx: SandboxContext

    # -- where is the user? --------------------------------------------
    def _locate(
        self, user: User, channel: ChannelRef, guild: GuildRef, dm: bool
    ) -> tuple[Channel, Guild | None]:
        world = self.ctx.world
        world.users.setdefault(user.id, user)
        if dm:
            return world.dm_channel_for(user), None
        if channel is not None:
            found = (
                channel if isinstance(channel, Channel) else world.channels.get(_ref_id(channel))
            )
            if found is None:
                raise InvalidInvocation(f"unknown channel {channel!r}")
            if found.is_dm:
                self._check_dm(user, found)
                return found, None
            target = world.guild_of(found)
        else:
            target = self._pick_guild(user, guild)
            found = self._default_channel(user, target)
        assert target is not None
        self._check_member(user, target, found)
        return found, target

    def _pick_guild(self, user: User, guild: GuildRef) -> Guild:
        world = self.ctx.world
        if guild is not None:
            found = guild if isinstance(guild, Guild) else world.guilds.get(_ref_id(guild))
            if found is None:
                raise InvalidInvocation(f"unknown guild {guild!r}")
            return found
        shared = [g for g in world.bot_guilds() if user.id in g.members]
        if len(shared) != 1:
            raise InvalidInvocation(
                f"user is in {len(shared)} guilds with the bot; pass guild= or channel="
            )
        return shared[0]

    def _default_channel(self, user: User, guild: Guild) -> Channel:
        for channel in guild.channels.values():
            if (
                channel.type == GUILD_TEXT
                and self.ctx.guild_ops.permissions_in(channel, user.id) & perm.VIEW_CHANNEL
            ):
                return channel
        raise InvalidInvocation(f"user {user.username} sees no text channel in {guild.name}")

    def _check_dm(self, user: User, channel: Channel) -> None:
        """A DM is the user's own with the bot or, with the app installed to the user's
        account, one between the user and another user (the bot is no part of it)."""
        if self.ctx.world.is_private(channel):
            if user.id not in (u.id for u in channel.recipients):
                raise InvalidInvocation("that DM is between two other users")
        elif channel.recipients[0].id != user.id:
            raise InvalidInvocation("that DM is between the bot and another user")

    def _check_member(self, user: User, guild: Guild | None, channel: Channel) -> None:
        if guild is None:
            return
        if self.ctx.bot.id not in guild.members and not self.ctx.world.user_installed(user):
            # Without the bot there, only an app installed to the user's account is offered.
            raise InvalidInvocation(f"the bot is not in guild {guild.name} and {user.username} has not installed the app")
        if user.id not in guild.members:
            raise InvalidInvocation(f"{user.username} is not a member of {guild.name}")
        if not self.ctx.guild_ops.permissions_in(channel, user.id) & perm.VIEW_CHANNEL:
            raise InvalidInvocation(f"{user.username} cannot see #{channel.name}")

    # -- slash commands ------------------------------------------------
    def _resolve(
        self, user: User, command: str, channel: Channel, guild: Guild | None, locale: str
    ) -> tuple[ResolvedCommand, dict[str, str]]:
        try:
            resolved = self.ctx.commands.resolve(
                command, guild_id=guild.id if guild else None, locale=locale
            )
        except CommandNotFound as exc:
            raise InvalidInvocation(str(exc)) from None
        owners = self.ctx.command_access.authorization(resolved.command, user, channel, guild)
        if owners is None:
            if guild is not None:
                where = f"#{channel.name}"
            else:
                where = "a DM between users" if self.ctx.world.is_private(channel) else "DMs"
            raise InvalidInvocation(f"/{resolved.command.name} is hidden from {user.username} in {where}")
        return resolved, owners

    def _command_data(
        self, resolved: ResolvedCommand, leaf: list[dict[str, Any]], builder: OptionBuilder
    ) -> dict[str, Any]:
        command = resolved.command
        data: dict[str, Any] = {"id": str(command.id), "name": command.name, "type": 1}
        options = resolved.wrap(leaf)
        if options:
            data["options"] = options
        if builder.resolved:
            data["resolved"] = builder.resolved
        if command.guild_id is not None:
            data["guild_id"] = str(command.guild_id)
        return data

    def command_list(
        self,
        user: User,
        *,
        channel: ChannelRef = None,
        guild: GuildRef = None,
        dm: bool = False,
        locale: str | None = None,
    ) -> list[str]:
        """The commands the client lists to ``user`` there (``"grail"``, ``"mod create"``),
        named in ``locale`` (default: the registered names); see ``command_access``."""
        where, in_guild = self._locate(user, channel, guild, dm)
        return listed(self.ctx, self.ctx.command_access, user, where, in_guild, locale)

    async def slash(
        self,
        user: User,
        command: str,
        options: Mapping[str, Any] | None = None,
        *,
        channel: ChannelRef = None,
        guild: GuildRef = None,
        dm: bool = False,
        locale: str | None = None,
    ) -> InteractionResult:
        """Runs ``/command`` (e.g. ``"mod create"``); returns immediately after dispatch."""
        where, in_guild = self._locate(user, channel, guild, dm)
        loc = locale or user.locale
        resolved, owners = self._resolve(user, command, where, in_guild, loc)
        builder = OptionBuilder(self.ctx, user, where, in_guild)
        leaf = builder.build(resolved.options, options or {})
        data = self._command_data(resolved, leaf, builder)
        return self.ctx.interactions.create(
            APPLICATION_COMMAND, user, where, data, locale=loc, command_name=resolved.qualified_name, owners=owners
        )

    async def autocomplete(
        self,
        user: User,
        command: str,
        *,
        focused: str,
        value: str = "",
        options: Mapping[str, Any] | None = None,
        channel: ChannelRef = None,
        guild: GuildRef = None,
        dm: bool = False,
        locale: str | None = None,
        timeout: float = 5.0,
    ) -> list[dict[str, Any]]:
        """Types ``value`` into option ``focused`` and returns the bot's choices."""
        where, in_guild = self._locate(user, channel, guild, dm)
        loc = locale or user.locale
        resolved, owners = self._resolve(user, command, where, in_guild, loc)
        builder = OptionBuilder(self.ctx, user, where, in_guild)
        leaf = builder.build(resolved.options, options or {}, focused=focused, focused_value=value)
        data = self._command_data(resolved, leaf, builder)
        result = self.ctx.interactions.create(
            AUTOCOMPLETE, user, where, data, locale=loc, command_name=resolved.qualified_name, owners=owners
        )
        await result.wait(timeout)
        return list(result.choices or [])

    # -- components ----------------------------------------------------
    def _component(
        self, user: User, message: MessageRef, custom_id: str
    ) -> tuple[Message, dict[str, Any], Channel]:
        world = self.ctx.world
        msg = message if isinstance(message, Message) else world.messages.get(_ref_id(message))
        if msg is None or msg.deleted:
            raise InvalidInvocation(f"message {message!r} does not exist (or was deleted)")
        msg = world.messages.get(msg.id, msg)
        if msg.visible_to is not None and msg.visible_to != user.id:
            raise InvalidInvocation("that ephemeral message is only visible to another user")
        channel = world.channels[msg.channel_id]
        if channel.is_dm:
            self._check_dm(user, channel)
        else:
            self._check_member(user, world.guild_of(channel), channel)
        for comp in iter_components(msg.components):
            if comp.get("custom_id") == custom_id:
                if comp.get("disabled"):
                    raise InvalidInvocation(f"component {custom_id!r} is disabled")
                return msg, comp, channel
        raise InvalidInvocation(
            f"no component {custom_id!r} on message {msg.id}; present: {msg.custom_ids()}"
        )

    async def click(
        self, user: User, message: MessageRef, custom_id: str, *, locale: str | None = None
    ) -> InteractionResult:
        """Presses a button on a stored message."""
        msg, comp, channel = self._component(user, message, custom_id)
        if comp.get("type") != 2 or comp.get("style") in (5, 6):
            raise InvalidInvocation(f"component {custom_id!r} is not a clickable button")
        data = {"custom_id": custom_id, "component_type": 2}
        if "id" in comp:
            data["id"] = comp["id"]
        return self.ctx.interactions.create(
            MESSAGE_COMPONENT, user, channel, data, locale=locale or user.locale, source_message=msg
        )

    async def select(
        self,
        user: User,
        message: MessageRef,
        custom_id: str,
        values: list[Any],
        *,
        locale: str | None = None,
    ) -> InteractionResult:
        """Picks ``values`` in a select menu (strings, or users/roles/channels for entity selects)."""
        msg, comp, channel = self._component(user, message, custom_id)
        if comp.get("type") not in SELECT_TYPES:
            raise InvalidInvocation(f"component {custom_id!r} is not a select menu")
        guild = self.ctx.world.guild_of(channel)
        builder = OptionBuilder(self.ctx, user, channel, guild)
        data: dict[str, Any] = {
            "custom_id": custom_id,
            "component_type": comp["type"],
            "values": builder.select_values(comp, list(values)),
        }
        if builder.resolved:
            data["resolved"] = builder.resolved
        return self.ctx.interactions.create(
            MESSAGE_COMPONENT, user, channel, data, locale=locale or user.locale, source_message=msg
        )

    async def submit_modal(
        self,
        user: User,
        opened_by: InteractionResult,
        values: Mapping[str, Any],
        *,
        locale: str | None = None,
    ) -> InteractionResult:
        """Fills and submits the modal the bot showed in response to ``opened_by``."""
        modal = opened_by.modal
        if modal is None or opened_by.record.user.id != user.id:
            raise InvalidInvocation("no modal was shown to this user for that interaction")
        rec = opened_by.record
        self._check_member(user, rec.guild, rec.channel)  # left the server meanwhile?
        components = [_fill(comp, values) for comp in modal.get("components") or []]
        data = {
            "custom_id": modal["custom_id"],
            "components": [c for c in components if c is not None],
        }
        return self.ctx.interactions.create(
            MODAL_SUBMIT,
            user,
            rec.channel,
            data,
            locale=locale or user.locale,
            source_message=rec.source_message,
        )

    # -- plain messages ------------------------------------------------
    async def send_user_message(
        self, user: User, content: str, *, channel: ChannelRef = None, dm: bool = False
    ) -> Message:
        """A user posts a message (MESSAGE_CREATE, content gated by the bot's intents)."""
        where, guild = self._locate(user, channel, None, dm)
        if (
            guild is not None
            and not self.ctx.guild_ops.permissions_in(where, user.id) & perm.SEND_MESSAGES
        ):
            raise InvalidInvocation(f"{user.username} cannot send messages in #{where.name}")
        return self.ctx.messages.create(where, user, {"content": content})


def _fill(component: dict[str, Any], values: Mapping[str, Any]) -> dict[str, Any] | None:
    """Mirrors a modal component into its submitted form (rows, labels, inputs)."""
    ctype = component.get("type")
    if ctype == 1:
        return {
            "type": 1,
            "components": [c for c in (_fill(x, values) for x in component["components"]) if c],
        }
    if ctype == 18:
        inner = _fill(component["component"], values)
        return {"type": 18, "component": inner} if inner else None
    custom_id = component.get("custom_id")
    if custom_id is None:
        return None
    if ctype == 4:
        value = str(values.get(custom_id, component.get("value") or ""))
        if component.get("required", True) and not value:
            raise InvalidInvocation(f"text input {custom_id!r} is required")
        low, high = component.get("min_length", 0), component.get("max_length", 4000)
        if value and not low <= len(value) <= high:
            raise InvalidInvocation(f"text input {custom_id!r} must be {low}..{high} characters")
        return {"type": 4, "custom_id": custom_id, "value": value}
    if ctype in SELECT_TYPES:
        return {
            "type": ctype,
            "custom_id": custom_id,
            "values": [str(v) for v in values.get(custom_id, [])],
        }
    return None
