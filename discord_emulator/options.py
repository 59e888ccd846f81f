"""Turning what a test "types" into interaction option payloads and ``resolved``.

The Discord client validates input before sending an interaction (required
options, choices, min/max, channel types); a scripted user gets
:class:`InvalidInvocation` for anything the real client would not send.
Entities (users, members, channels, roles, attachments) are accepted as
sandbox objects or ids and end up in ``data.resolved`` like on Discord.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from .state import Attachment, Channel, Guild, Member, Role, User

if TYPE_CHECKING:
    from .context import SandboxContext

STRING, INTEGER, BOOLEAN, USER, CHANNEL, ROLE, MENTIONABLE, NUMBER, ATTACHMENT = (
    3,
    4,
    5,
    6,
    7,
    8,
    9,
    10,
    11,
)
MAX_SAFE_INT = 2**53


class InvalidInvocation(ValueError):
    """Something the real Discord client would refuse to send."""


class OptionBuilder:
    """Converts values for one interaction, accumulating its ``resolved`` data."""

    def __init__(
        self, ctx: SandboxContext, user: User, channel: Channel, guild: Guild | None
    ) -> None:
        self._ctx = ctx
        self._user = user
        self._channel = channel
        self._guild = guild
        self.resolved: dict[str, dict[str, Any]] = {}

    # -- command options -----------------------------------------------
    def build(
        self,
        definitions: list[dict[str, Any]],
        values: Mapping[str, Any],
        *,
        focused: str | None = None,
        focused_value: str = "",
    ) -> list[dict[str, Any]]:
        known = {d["name"] for d in definitions}
        unknown = set(values) - known - ({focused} if focused else set())
        if unknown:
            raise InvalidInvocation(
                f"unknown option(s) {sorted(unknown)}; command has {sorted(known)}"
            )
        out: list[dict[str, Any]] = []
        for definition in definitions:
            name = definition["name"]
            if name == focused:
                if not definition.get("autocomplete"):
                    raise InvalidInvocation(f"option {name!r} has no autocomplete")
                out.append(
                    {
                        "name": name,
                        "type": definition["type"],
                        "value": str(focused_value),
                        "focused": True,
                    }
                )
            elif name in values:
                value = self.convert(definition, values[name])
                out.append({"name": name, "type": definition["type"], "value": value})
            elif definition.get("required") and focused is None:
                raise InvalidInvocation(f"missing required option {name!r}")
        if focused is not None and focused not in known:
            raise InvalidInvocation(f"unknown focused option {focused!r}")
        return out

    def convert(self, definition: dict[str, Any], value: Any) -> Any:
        kind = definition["type"]
        name = definition["name"]
        if kind == STRING:
            result: Any = self._string(definition, value)
        elif kind == INTEGER:
            if isinstance(value, bool) or not isinstance(value, int) or abs(value) > MAX_SAFE_INT:
                raise InvalidInvocation(f"option {name!r} needs an integer, got {value!r}")
            result = value
        elif kind == NUMBER:
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise InvalidInvocation(f"option {name!r} needs a number, got {value!r}")
            result = value
        elif kind == BOOLEAN:
            if not isinstance(value, bool):
                raise InvalidInvocation(f"option {name!r} needs a boolean, got {value!r}")
            return value
        elif kind == USER:
            return str(self.add_user(value).id)
        elif kind == CHANNEL:
            return str(self.add_channel(value, definition.get("channel_types")).id)
        elif kind == ROLE:
            return str(self.add_role(value).id)
        elif kind == MENTIONABLE:
            if isinstance(value, Role) or (
                isinstance(value, int) and self._guild and value in self._guild.roles
            ):
                return str(self.add_role(value).id)
            return str(self.add_user(value).id)
        elif kind == ATTACHMENT:
            return str(self.add_attachment(value).id)
        else:
            raise InvalidInvocation(f"option type {kind} is not supported by the sandbox")
        self._check_choices_and_range(definition, result)
        return result

    def _string(self, definition: dict[str, Any], value: Any) -> str:
        if not isinstance(value, str):
            raise InvalidInvocation(f"option {definition['name']!r} needs a string, got {value!r}")
        choices = definition.get("choices")
        if choices and value not in [c["value"] for c in choices]:
            # Users pick a choice by its display name; map it to the value.
            by_name = {c["name"]: c["value"] for c in choices}
            if value in by_name:
                return str(by_name[value])
        low, high = definition.get("min_length"), definition.get("max_length", 6000)
        if (low is not None and len(value) < low) or (high is not None and len(value) > high):
            raise InvalidInvocation(
                f"option {definition['name']!r} length must be within {low}..{high}"
            )
        return value

    @staticmethod
    def _check_choices_and_range(definition: dict[str, Any], value: Any) -> None:
        name = definition["name"]
        choices = definition.get("choices")
        if choices and value not in [c["value"] for c in choices]:
            raise InvalidInvocation(f"{value!r} is not a choice of option {name!r}")
        low, high = definition.get("min_value"), definition.get("max_value")
        if isinstance(value, int | float) and (
            (low is not None and value < low) or (high is not None and value > high)
        ):
            raise InvalidInvocation(f"option {name!r} must be within {low}..{high}, got {value}")

    # -- resolved entities ---------------------------------------------
    def _section(self, key: str) -> dict[str, Any]:
        return self.resolved.setdefault(key, {})

    def add_user(self, value: Any) -> User:
        world = self._ctx.world
        if isinstance(value, Member):
            value = value.user
        user = value if isinstance(value, User) else world.users.get(int(value))
        if user is None:
            raise InvalidInvocation(f"unknown user {value!r}")
        self._section("users")[str(user.id)] = user.to_payload()
        member = self._guild.members.get(user.id) if self._guild else None
        if member is not None:
            perms = self._ctx.guild_ops.permissions_in(self._channel, user.id)
            self._section("members")[str(user.id)] = member.to_payload(
                with_user=False, permissions=perms
            )
        return user

    def add_role(self, value: Any) -> Role:
        if self._guild is None:
            raise InvalidInvocation("roles only exist in guilds")
        role = value if isinstance(value, Role) else self._guild.roles.get(int(value))
        if role is None or role.guild_id != self._guild.id:
            raise InvalidInvocation(f"role {value!r} is not in this guild")
        self._section("roles")[str(role.id)] = role.to_payload()
        return role

    def add_channel(self, value: Any, channel_types: list[int] | None = None) -> Channel:
        channel = value if isinstance(value, Channel) else self._ctx.world.channels.get(int(value))
        if channel is None or self._guild is None or channel.guild_id != self._guild.id:
            raise InvalidInvocation(f"channel {value!r} is not in this guild")
        if channel_types and channel.type not in channel_types:
            raise InvalidInvocation(
                f"channel type {channel.type} not allowed (allowed: {channel_types})"
            )
        payload = channel.to_payload()
        payload["permissions"] = str(self._ctx.guild_ops.permissions_in(channel, self._user.id))
        self._section("channels")[str(channel.id)] = payload
        return channel

    def add_attachment(self, value: Any) -> Attachment:
        """Accepts ``(filename, bytes)``; the file is stored like a user upload."""
        if not (isinstance(value, tuple) and len(value) == 2 and isinstance(value[1], bytes)):
            raise InvalidInvocation("attachment options take a (filename, bytes) tuple")
        filename, data = value
        att_id = self._ctx.snowflakes.next()
        attachment = Attachment(
            id=att_id,
            filename=filename,
            data=data,
            url=self._ctx.attachment_url(self._channel.id, att_id, filename),
            ephemeral=True,
        )
        self._ctx.world.attachments[att_id] = attachment
        self._section("attachments")[str(att_id)] = attachment.to_payload()
        return attachment

    # -- select menu values --------------------------------------------
    def select_values(self, component: dict[str, Any], values: list[Any]) -> list[str]:
        """Validates chosen values of a select menu and resolves entity selects."""
        ctype = component["type"]
        low, high = component.get("min_values", 1), component.get("max_values", 1)
        if not low <= len(values) <= high:
            raise InvalidInvocation(
                f"select {component.get('custom_id')!r} takes {low}..{high} values, got {len(values)}"
            )
        if ctype == 3:
            allowed = [o["value"] for o in component.get("options") or []]
            bad = [v for v in values if v not in allowed]
            if bad:
                raise InvalidInvocation(
                    f"{bad} are not options of select {component.get('custom_id')!r}: {allowed}"
                )
            return [str(v) for v in values]
        adders: dict[int, Callable[[Any], User | Role | Channel]] = {
            5: self.add_user,
            6: self.add_role,
            8: lambda v: self.add_channel(v, component.get("channel_types")),
        }
        if ctype == 7:
            return [self.convert({"type": MENTIONABLE, "name": "value"}, v) for v in values]
        return [str(adders[ctype](v).id) for v in values]
