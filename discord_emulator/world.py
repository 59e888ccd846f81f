"""The application identity and the indexes of every entity (the "world").

Kept apart from the entity dataclasses in :mod:`state`: this is the one
place that knows which users, guilds, channels, messages and attachments
exist, and which DM channel belongs to which user.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .state import DM, Attachment, Channel, Guild, Message, SnowflakeFactory, User


@dataclass
class Application:
    id: int
    name: str
    owner: User
    bot: User
    token: str
    flags: int = 0

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
            "integration_types_config": {"0": {}},
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
