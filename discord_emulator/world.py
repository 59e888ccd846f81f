"""The application identity and the indexes of every entity (the "world").

Kept apart from the entity dataclasses in :mod:`state`: this is the one
place that knows which users, guilds, channels, messages and attachments
exist, which DM channel belongs to which user, which DMs are between two
users (the bot is no part of them), and who installed the app to their own
account (a *user install*:
https://discord.com/developers/docs/resources/application#installation-context).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .state import DM, Attachment, Channel, Guild, Message, SnowflakeFactory, User

# Application integration types (installation contexts) and interaction context types:
# https://discord.com/developers/docs/resources/application#application-object-application-integration-types
# https://discord.com/developers/docs/interactions/receiving-and-responding#interaction-object-interaction-context-types
GUILD_INSTALL, USER_INSTALL = 0, 1
GUILD, BOT_DM, PRIVATE_CHANNEL = 0, 1, 2


@dataclass
class Application:
    id: int
    name: str
    owner: User
    bot: User
    token: str
    flags: int = 0
    # The installation contexts the app offers (Developer Portal → Installation):
    # 0 GUILD_INSTALL, 1 USER_INSTALL.
    install_types: tuple[int, ...] = field(default=(GUILD_INSTALL, USER_INSTALL))

    def to_payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "name": self.name,
            "icon": None,
            "description": "",
            "rpc_origins": [],
            "bot_public": True,
            "bot_require_code_grant": False,
            "bot": self.bot.to_payload(),
            "owner": self.owner.to_payload(),
            "team": None,
            "verify_key": "0" * 64,
            "flags": self.flags,
            "tags": [],
            "redirect_uris": [],
            "interactions_endpoint_url": None,
            "approximate_guild_count": 0,
            "integration_types_config": {str(kind): {} for kind in self.install_types},
        }


class World:
    """Indexes of every entity, shared by all REST, gateway and user-side code."""

    def __init__(self, application: Application, snowflakes: SnowflakeFactory) -> None:
        self.snowflakes = snowflakes
        self.application = application
        self.users: dict[int, User] = {
            application.bot.id: application.bot,
            application.owner.id: application.owner,
        }
        self.guilds: dict[int, Guild] = {}
        self.channels: dict[int, Channel] = {}
        self.messages: dict[int, Message] = {}
        self.dm_channels: dict[int, Channel] = {}  # user id -> DM channel with the bot
        self.private_channels: dict[frozenset[int], Channel] = {}  # two users -> their DM
        self.user_installs: set[int] = set()  # users who installed the app to their account
        self.guilds_left: set[int] = set()  # servers the bot was removed from
        self.attachments: dict[int, Attachment] = {}

    @property
    def bot(self) -> User:
        return self.application.bot

    def bot_guilds(self) -> list[Guild]:
        return [g for g in self.guilds.values() if self.bot.id in g.members]

    def guild_of(self, channel: Channel) -> Guild | None:
        return self.guilds.get(channel.guild_id) if channel.guild_id is not None else None

    def dm_channel_for(self, user: User) -> Channel:
        """Returns (creating on first use) the user's DM channel with the bot."""
        channel = self.dm_channels.get(user.id)
        if channel is None:
            channel = Channel(id=self.snowflakes.next(), type=DM, recipients=[user])
            self.dm_channels[user.id] = channel
            self.channels[channel.id] = channel
        return channel

    def shares_guild_with_bot(self, user: User) -> bool:
        return any(user.id in g.members for g in self.bot_guilds())

    def private_channel(self, one: User, other: User) -> Channel:
        """Returns (creating on first use) the DM between two users, which the bot is
        no part of: a user-installed app can be used there (context PRIVATE_CHANNEL)."""
        key = frozenset((one.id, other.id))
        channel = self.private_channels.get(key)
        if channel is None:
            channel = Channel(id=self.snowflakes.next(), type=DM, recipients=[one, other])
            self.private_channels[key] = channel
            self.channels[channel.id] = channel
        return channel

    def is_private(self, channel: Channel) -> bool:
        """A DM between users, not the bot's: the bot cannot read or post there."""
        return channel.is_dm and self.private_channels.get(frozenset(u.id for u in channel.recipients)) is channel

    def context_of(self, channel: Channel) -> int:
        """The interaction context type of ``channel``: GUILD, BOT_DM or PRIVATE_CHANNEL."""
        if not channel.is_dm:
            return GUILD
        return PRIVATE_CHANNEL if self.is_private(channel) else BOT_DM

    def user_installed(self, user: User) -> bool:
        return USER_INSTALL in self.application.install_types and user.id in self.user_installs
