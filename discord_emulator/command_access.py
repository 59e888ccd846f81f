"""Who sees, and may run, a registered command, as Discord decides it.

Discord's rules (https://discord.com/developers/docs/interactions/application-commands#permissions):

* In a DM with the bot no member permissions apply: every command whose ``contexts``
  include the bot's DM is listed.
* In a server channel, the member needs Use Application Commands there; then the
  server's command permission overrides (what an admin sets in Server Settings →
  Integrations → the app) decide, first those of the command, then the app-wide ones:
  a channel override for this channel (else for "all channels", id = server id − 1)
  that denies hides the command; a user override decides; else the member's roles'
  overrides (any allowing allows, else any denying hides); else @everyone's (id =
  server id).
* Where no override speaks, the command's ``default_member_permissions`` does: the
  member must hold every permission in it (``"0"``: administrators only; none set:
  everyone). Administrators (and the owner) hold every permission.

Before any of that, where the command may be used at all
(https://discord.com/developers/docs/interactions/application-commands#contexts):

* The place is an interaction context: GUILD (0), BOT_DM (1) or PRIVATE_CHANNEL (2, a DM
  between users); the command's ``contexts`` must include it (none set: every context,
  the bot's DM excluded by a legacy ``dm_permission: false``).
* The command's ``integration_types`` (none set: GUILD_INSTALL only) must meet an
  installation the place has: the server's (the bot is a member) in a server; in the
  bot's DM, the guild install's (owner ``"0"``); anywhere, the user's own install of the
  app. The installations met are the interaction's ``authorizing_integration_owners``
  (https://discord.com/developers/docs/interactions/receiving-and-responding#interaction-object-authorizing-integration-owners-object).
  The server's command permission overrides belong to the server's install and apply
  only through it.

A client lists the same commands it lets the member run, so :meth:`CommandAccess.allows`
serves both the list (``Emulator.command_list``) and the invocation check.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from . import permissions as perm
from .commands import CHAT_INPUT, StoredCommand
from .world import BOT_DM, GUILD, GUILD_INSTALL, PRIVATE_CHANNEL, USER_INSTALL

if TYPE_CHECKING:
    from .context import SandboxContext
    from .state import Channel, Guild, User

ROLE, USER, CHANNEL = 1, 2, 3
MAX_OVERRIDES = 100


@dataclass
class CommandAccess:
    """The command permission overrides of each server, keyed by (server, command id or,
    for the app-wide ones, the application id) → {target id: (type, allowed)}."""

    ctx: SandboxContext
    overrides: dict[tuple[int, int], dict[int, tuple[int, bool]]] = field(default_factory=dict)

    def set(self, guild: Guild, target_id: int, entries: list[dict[str, Any]]) -> None:
        """Replace the overrides of one command (or, with the application id, the app)."""
        if len(entries) > MAX_OVERRIDES:
            raise ValueError(f"at most {MAX_OVERRIDES} command permission overrides")
        self.overrides[(guild.id, target_id)] = {
            int(e["id"]): (int(e["type"]), bool(e["permission"])) for e in entries
        }

    def allows(self, command: StoredCommand, user: User, channel: Channel, guild: Guild | None) -> bool:
        return self.authorization(command, user, channel, guild) is not None

    def authorization(
        self, command: StoredCommand, user: User, channel: Channel, guild: Guild | None
    ) -> dict[str, str] | None:
        """The ``authorizing_integration_owners`` of ``user`` running ``command`` there,
        or None when the client would neither list nor send it."""
        world = self.ctx.world
        payload = command.payload
        context = world.context_of(channel)
        contexts = payload.get("contexts")
        if contexts is None:
            contexts = [GUILD, PRIVATE_CHANNEL] if payload.get("dm_permission") is False else [GUILD, BOT_DM, PRIVATE_CHANNEL]
        if context not in contexts:
            return None
        kinds = payload.get("integration_types") or [GUILD_INSTALL]
        owners: dict[str, str] = {}
        if GUILD_INSTALL in kinds:
            if context == BOT_DM:
                owners["0"] = "0"
            elif guild is not None and world.bot.id in guild.members:
                owners["0"] = str(guild.id)
        if USER_INSTALL in kinds and world.user_installed(user):
            owners["1"] = str(user.id)
        if not owners:
            return None
        if guild is None or self._member_may(command, user, channel, guild, server_install="0" in owners):
            return owners
        return None

    def _member_may(self, command: StoredCommand, user: User, channel: Channel, guild: Guild, *, server_install: bool) -> bool:
        payload = command.payload
        granted = self.ctx.guild_ops.permissions_in(channel, user.id)
        if not perm.has(granted, perm.USE_APPLICATION_COMMANDS):
            return False
        if granted & perm.ADMINISTRATOR:
            return True
        for target in (command.id, self.ctx.application.id) if server_install else ():
            decided = self._override(guild, target, user, channel)
            if decided is not None:
                return decided
        required = payload.get("default_member_permissions")
        if required is None:
            return True
        needed = int(required)
        return needed != 0 and perm.has(granted, needed)

    def _override(self, guild: Guild, target: int, user: User, channel: Channel) -> bool | None:
        table = self.overrides.get((guild.id, target))
        if not table:
            return None
        for channel_id in (channel.id, guild.id - 1):
            entry = table.get(channel_id)
            if entry is not None and entry[0] == CHANNEL:
                if not entry[1]:
                    return False
                break
        own = table.get(user.id)
        if own is not None and own[0] == USER:
            return own[1]
        member = guild.members.get(user.id)
        roles = [table[r] for r in (member.role_ids if member else []) if r in table and table[r][0] == ROLE]
        if roles:
            return any(allowed for _, allowed in roles)
        everyone = table.get(guild.id)
        if everyone is not None and everyone[0] == ROLE:
            return everyone[1]
        return None


def listed(
    ctx: SandboxContext, access: CommandAccess, user: User, channel: Channel, guild: Guild | None, locale: str | None
) -> list[str]:
    """The entries of the client's command list: each command runnable as typed
    (``"grail"``, ``"mod create"``), named as a client in ``locale`` shows them."""
    out: list[str] = []
    for command in ctx.commands.visible(guild.id if guild else None):
        if command.type != CHAT_INPUT or not access.allows(command, user, channel, guild):
            continue
        out += _leaves(command.payload, [], locale)
    return sorted(out)


def _leaves(node: dict[str, Any], path: list[str], locale: str | None) -> list[str]:
    name = (node.get("name_localizations") or {}).get(locale or "", node["name"]) if locale else node["name"]
    here = [*path, name]
    subs = [o for o in node.get("options") or [] if o.get("type") in (1, 2)]
    if not subs:
        return [" ".join(here)]
    return [leaf for sub in subs for leaf in _leaves(sub, here, locale)]
