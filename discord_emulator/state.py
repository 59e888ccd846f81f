"""In-memory data model of the emulated Discord world.

Everything the emulator knows (users, guilds, roles, channels, members,
messages, attachments) lives in plain dataclasses owned by :class:`World`.
Each entity knows how to render itself as the JSON payload Discord would send,
so REST handlers and gateway dispatches share a single source of truth and can
never drift apart in shape.
"""

from __future__ import annotations

import datetime
import time
from dataclasses import dataclass, field
from typing import Any

DISCORD_EPOCH_MS = 1420070400000

# Channel types used by the emulator (subset of Discord's ChannelType enum).
GUILD_TEXT = 0
DM = 1
GUILD_VOICE = 2
GUILD_CATEGORY = 4
GUILD_ANNOUNCEMENT = 5

# Message flags that matter for bots.
FLAG_SUPPRESS_EMBEDS = 1 << 2
FLAG_EPHEMERAL = 1 << 6
FLAG_LOADING = 1 << 7
FLAG_SUPPRESS_NOTIFICATIONS = 1 << 12
FLAG_COMPONENTS_V2 = 1 << 15


def utcnow() -> datetime.datetime:
    return datetime.datetime.now(datetime.UTC)


def iso(ts: datetime.datetime | None) -> str | None:
    """Discord timestamps are ISO-8601 with an explicit UTC offset."""
    return ts.isoformat() if ts is not None else None


class SnowflakeFactory:
    """Generates time-based snowflakes.

    They must encode the real creation time because discord.py derives
    ``created_at`` from them and even picks rate-limit sub-buckets by message
    age (see ``HTTPClient.delete_message``).
    """

    def __init__(self) -> None:
        self._last_ms = 0
        self._increment = 0

    def next(self) -> int:
        ms = max(int(time.time() * 1000), self._last_ms)
        if ms == self._last_ms:
            self._increment += 1
            if self._increment >= 4096:
                ms += 1
                self._increment = 0
        else:
            self._increment = 0
        self._last_ms = ms
        return ((ms - DISCORD_EPOCH_MS) << 22) | (1 << 17) | self._increment

    def next_on_shard(self, shard_id: int, shard_count: int) -> int:
        """The next snowflake whose server would be on ``shard_id`` of ``shard_count``
        (``(id >> 22) % shard_count``): its time moved on by up to ``shard_count - 1``
        milliseconds, as a server created that much later would be."""
        ms = max(int(time.time() * 1000), self._last_ms + 1)
        ms += (shard_id - (ms - DISCORD_EPOCH_MS)) % shard_count
        self._last_ms, self._increment = ms, 0
        return ((ms - DISCORD_EPOCH_MS) << 22) | (1 << 17)


@dataclass(eq=False)
class User:
    id: int
    username: str
    global_name: str | None = None
    bot: bool = False
    locale: str = "en-US"
    dms_closed: bool = False

    def to_payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "username": self.username,
            "discriminator": "0",
            "global_name": self.global_name,
            "avatar": None,
            "bot": self.bot,
            "system": False,
            "public_flags": 0,
            "flags": 0,
            "banner": None,
            "accent_color": None,
            "avatar_decoration_data": None,
        }

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"


@dataclass(eq=False)
class Role:
    id: int
    guild_id: int
    name: str
    permissions: int = 0
    position: int = 0
    color: int = 0
    hoist: bool = False
    managed: bool = False
    mentionable: bool = False
    bot_id: int | None = None

    def to_payload(self) -> dict[str, Any]:
        payload: dict[str, Any] = {
            "id": str(self.id),
            "name": self.name,
            "permissions": str(self.permissions),
            "position": self.position,
            "color": self.color,
            "colors": {
                "primary_color": self.color,
                "secondary_color": None,
                "tertiary_color": None,
            },
            "hoist": self.hoist,
            "managed": self.managed,
            "mentionable": self.mentionable,
            "icon": None,
            "unicode_emoji": None,
            "flags": 0,
        }
        if self.bot_id is not None:
            payload["tags"] = {"bot_id": str(self.bot_id)}
        return payload

    @property
    def mention(self) -> str:
        return f"<@&{self.id}>"


@dataclass
class Overwrite:
    """A channel permission overwrite; ``type`` 0 targets a role, 1 a member."""

    id: int
    type: int
    allow: int = 0
    deny: int = 0

    def to_payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "type": self.type,
            "allow": str(self.allow),
            "deny": str(self.deny),
        }


@dataclass(eq=False)
class Channel:
    id: int
    type: int
    name: str | None = None
    guild_id: int | None = None
    position: int = 0
    topic: str | None = None
    parent_id: int | None = None
    nsfw: bool = False
    rate_limit_per_user: int = 0
    overwrites: dict[int, Overwrite] = field(default_factory=dict)
    recipients: list[User] = field(default_factory=list)
    last_message_id: int | None = None

    @property
    def is_dm(self) -> bool:
        return self.type == DM

    @property
    def mention(self) -> str:
        return f"<#{self.id}>"

    def to_payload(self) -> dict[str, Any]:
        if self.is_dm:
            return {
                "id": str(self.id),
                "type": DM,
                "last_message_id": _opt_id(self.last_message_id),
                "recipients": [u.to_payload() for u in self.recipients],
                "flags": 0,
            }
        payload: dict[str, Any] = {
            "id": str(self.id),
            "type": self.type,
            "guild_id": str(self.guild_id),
            "name": self.name,
            "position": self.position,
            "parent_id": _opt_id(self.parent_id),
            "permission_overwrites": [o.to_payload() for o in self.overwrites.values()],
            "nsfw": self.nsfw,
            "flags": 0,
        }
        if self.type in (GUILD_TEXT, GUILD_ANNOUNCEMENT):
            payload.update(
                topic=self.topic,
                rate_limit_per_user=self.rate_limit_per_user,
                last_message_id=_opt_id(self.last_message_id),
            )
        elif self.type == GUILD_VOICE:
            payload.update(bitrate=64000, user_limit=0, rtc_region=None)
        return payload


@dataclass(eq=False)
class Member:
    guild_id: int
    user: User
    role_ids: list[int] = field(default_factory=list)
    nick: str | None = None
    joined_at: datetime.datetime = field(default_factory=utcnow)

    def to_payload(
        self, *, with_user: bool = True, permissions: int | None = None
    ) -> dict[str, Any]:
        payload: dict[str, Any] = {
            "roles": [str(r) for r in self.role_ids],
            "nick": self.nick,
            "avatar": None,
            "banner": None,
            "joined_at": iso(self.joined_at),
            "premium_since": None,
            "deaf": False,
            "mute": False,
            "pending": False,
            "flags": 0,
            "communication_disabled_until": None,
        }
        if with_user:
            payload["user"] = self.user.to_payload()
        if permissions is not None:
            payload["permissions"] = str(permissions)
        return payload


@dataclass(eq=False)
class Guild:
    id: int
    name: str
    owner_id: int
    preferred_locale: str = "en-US"
    roles: dict[int, Role] = field(default_factory=dict)
    channels: dict[int, Channel] = field(default_factory=dict)
    members: dict[int, Member] = field(default_factory=dict)
    features: list[str] = field(default_factory=list)
    system_channel_id: int | None = None
    created_at: datetime.datetime = field(default_factory=utcnow)
    # A Discord outage: the server is listed as unavailable and no GUILD_CREATE comes.
    outage: bool = False

    @property
    def everyone_role(self) -> Role:
        return self.roles[self.id]

    def to_payload(self) -> dict[str, Any]:
        """The REST ``Guild`` object (no channels/members; GUILD_CREATE adds those)."""
        return {
            "id": str(self.id),
            "name": self.name,
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "banner": None,
            "description": None,
            "owner_id": str(self.owner_id),
            "region": "deprecated",
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "roles": [r.to_payload() for r in self.roles.values()],
            "emojis": [],
            "stickers": [],
            "features": list(self.features),
            "mfa_level": 0,
            "system_channel_id": _opt_id(self.system_channel_id),
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "public_updates_channel_id": None,
            "safety_alerts_channel_id": None,
            "vanity_url_code": None,
            "premium_tier": 0,
            "premium_subscription_count": 0,
            "preferred_locale": self.preferred_locale,
            "nsfw_level": 0,
            "premium_progress_bar_enabled": False,
            "max_members": 500000,
            "approximate_member_count": len(self.members),
            "approximate_presence_count": 0,
        }


@dataclass(eq=False)
class Attachment:
    id: int
    filename: str
    data: bytes
    url: str
    content_type: str | None = None
    description: str | None = None
    width: int | None = None
    height: int | None = None
    ephemeral: bool = False

    @property
    def size(self) -> int:
        return len(self.data)

    def to_payload(self) -> dict[str, Any]:
        payload: dict[str, Any] = {
            "id": str(self.id),
            "filename": self.filename,
            "size": self.size,
            "url": self.url,
            "proxy_url": self.url,
            "content_type": self.content_type,
        }
        if self.description is not None:
            payload["description"] = self.description
        if self.width is not None and self.height is not None:
            payload.update(width=self.width, height=self.height)
        if self.ephemeral:
            payload["ephemeral"] = True
        return payload


@dataclass
class Revision:
    """A snapshot of a message's visible state before an edit."""

    content: str
    embeds: list[dict[str, Any]]
    components: list[dict[str, Any]]
    attachments: list[Attachment]
    flags: int
    at: datetime.datetime


@dataclass(eq=False)
class Message:
    """A message as stored by the emulator (god view, including ephemerals).

    ``visible_to`` is set for ephemeral messages: only that user sees them and
    they cannot be reached through channel routes, exactly like on Discord.
    ``revisions`` keeps every previous state so tests can assert on edits.
    """

    id: int
    channel_id: int
    guild_id: int | None
    author: User
    content: str = ""
    embeds: list[dict[str, Any]] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    attachments: list[Attachment] = field(default_factory=list)
    flags: int = 0
    type: int = 0
    timestamp: datetime.datetime = field(default_factory=utcnow)
    edited_timestamp: datetime.datetime | None = None
    webhook_id: int | None = None
    application_id: int | None = None
    interaction_metadata: dict[str, Any] | None = None
    interaction_id: int | None = None
    visible_to: int | None = None
    mention_ids: list[int] = field(default_factory=list)
    deleted: bool = False
    revisions: list[Revision] = field(default_factory=list)
    nonce: str | None = None  # as the sender gave it (echoed in the payload, as Discord does)

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & FLAG_EPHEMERAL)

    @property
    def loading(self) -> bool:
        return bool(self.flags & FLAG_LOADING)

    @property
    def edited(self) -> bool:
        return self.edited_timestamp is not None

    def snapshot(self) -> Revision:
        return Revision(
            content=self.content,
            embeds=list(self.embeds),
            components=list(self.components),
            attachments=list(self.attachments),
            flags=self.flags,
            at=self.edited_timestamp or self.timestamp,
        )

    def custom_ids(self) -> list[str]:
        """All component custom_ids on the message, nested ones included."""
        return [c["custom_id"] for c in iter_components(self.components) if "custom_id" in c]

    def to_payload(self, users: dict[int, User] | None = None) -> dict[str, Any]:
        payload: dict[str, Any] = {
            "id": str(self.id),
            "channel_id": str(self.channel_id),
            "author": self.author.to_payload(),
            "content": self.content,
            "timestamp": iso(self.timestamp),
            "edited_timestamp": iso(self.edited_timestamp),
            "tts": False,
            "mention_everyone": False,
            "mentions": [users[i].to_payload() for i in self.mention_ids if users and i in users],
            "mention_roles": [],
            "attachments": [a.to_payload() for a in self.attachments],
            "embeds": [dict(e) for e in self.embeds],
            "components": [dict(c) for c in self.components],
            "pinned": False,
            "type": self.type,
            "flags": self.flags,
        }
        if self.webhook_id is not None:
            payload["webhook_id"] = str(self.webhook_id)
        if self.application_id is not None:
            payload["application_id"] = str(self.application_id)
        if self.interaction_metadata is not None:
            payload["interaction_metadata"] = dict(self.interaction_metadata)
        if self.nonce is not None:
            payload["nonce"] = self.nonce
        return payload


def iter_components(components: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Flattens action rows, containers, sections and accessories."""
    out: list[dict[str, Any]] = []
    stack = list(reversed(components))
    while stack:
        comp = stack.pop()
        out.append(comp)
        children: list[dict[str, Any]] = list(comp.get("components") or [])
        for key in ("accessory", "component"):
            if isinstance(comp.get(key), dict):
                children.append(comp[key])
        stack.extend(reversed(children))
    return out


def _opt_id(value: int | None) -> str | None:
    return str(value) if value is not None else None
