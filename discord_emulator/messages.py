"""Creating, editing and deleting messages: the one path every message takes.

Channel routes, interaction responses, followups and user-side messages all
go through :class:`MessageService`, so validation (limits.py), attachment
storage, recording and MESSAGE_* gateway dispatches are identical no matter
how a message was produced.
"""

from __future__ import annotations

import datetime
import mimetypes
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from . import limits
from .errors import FormErrors
from .gateway import INTENT_DIRECT_MESSAGES, INTENT_GUILD_MESSAGES, INTENT_MESSAGE_CONTENT
from .state import (
    FLAG_COMPONENTS_V2,
    FLAG_EPHEMERAL,
    FLAG_LOADING,
    FLAG_SUPPRESS_EMBEDS,
    FLAG_SUPPRESS_NOTIFICATIONS,
    Attachment,
    Channel,
    Message,
    User,
    utcnow,
)

if TYPE_CHECKING:
    from .context import SandboxContext


# Flags a sender may set; everything else is silently dropped like Discord does.
CHANNEL_FLAGS = FLAG_SUPPRESS_EMBEDS | FLAG_SUPPRESS_NOTIFICATIONS | FLAG_COMPONENTS_V2
INTERACTION_FLAGS = CHANNEL_FLAGS | FLAG_EPHEMERAL
EDITABLE_FLAGS = FLAG_SUPPRESS_EMBEDS | FLAG_COMPONENTS_V2

_USER_MENTION = re.compile(r"<@!?(\d+)>")
_PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


@dataclass
class UploadedFile:
    """A ``files[n]`` part of a multipart request."""

    index: int
    filename: str
    data: bytes
    content_type: str | None = None


@dataclass
class Origin:
    """Who/what produced a message beyond its author (webhooks, interactions)."""

    webhook_id: int | None = None
    application_id: int | None = None
    interaction_metadata: dict[str, Any] | None = None
    interaction_id: int | None = None
    visible_to: int | None = None
    type: int = 0


# How long an enforced nonce is remembered: Discord says "the past few minutes".
NONCE_WINDOW = datetime.timedelta(minutes=5)


class MessageService:
    def __init__(self, ctx: SandboxContext) -> None:
        self._ctx = ctx
        self._nonces: dict[tuple[int, str], int] = {}  # (author, nonce) -> message id

    def enforced_repeat(self, author: User, payload: dict[str, Any]) -> Message | None:
        """The message ``author`` already created with this payload's nonce in the last few
        minutes, when the payload asks for ``enforce_nonce``: Discord then returns that
        message and creates none."""
        nonce = payload.get("nonce")
        if nonce is None or not payload.get("enforce_nonce"):
            return None
        earlier = self._ctx.world.messages.get(self._nonces.get((author.id, str(nonce)), 0))
        if earlier is None or utcnow() - earlier.timestamp > NONCE_WINDOW:
            return None
        return earlier

    # -- public operations ---------------------------------------------
    def create(
        self,
        channel: Channel,
        author: User,
        payload: dict[str, Any],
        files: list[UploadedFile] | None = None,
        *,
        allowed_flags: int = CHANNEL_FLAGS,
        extra_flags: int = 0,
        origin: Origin | None = None,
        allow_empty: bool = False,
    ) -> Message:
        """Validates ``payload`` and stores the resulting message.

        ``extra_flags`` is for server-set flags (LOADING for deferred replies);
        ``allow_empty`` only for those placeholders, which Discord creates empty.
        """
        files = files or []
        self._validate(payload, files)
        origin = origin or Origin()
        flags = (int(payload.get("flags") or 0) & allowed_flags) | extra_flags
        ephemeral = bool(flags & FLAG_EPHEMERAL)
        attachments = self._collect_attachments(
            channel, payload.get("attachments"), files, [], ephemeral
        )
        content = payload.get("content") or ""
        embeds = self._normalize_embeds(payload.get("embeds") or [], attachments)
        components = list(payload.get("components") or [])
        if not allow_empty:
            limits.check_not_empty(content, embeds, attachments, components)
        message = Message(
            id=self._ctx.snowflakes.next(),
            channel_id=channel.id,
            guild_id=channel.guild_id,
            author=author,
            content=content,
            embeds=embeds,
            components=components,
            attachments=attachments,
            flags=flags,
            type=origin.type,
            webhook_id=origin.webhook_id,
            application_id=origin.application_id,
            interaction_metadata=origin.interaction_metadata,
            interaction_id=origin.interaction_id,
            visible_to=origin.visible_to if ephemeral else None,
            mention_ids=self._mentions(content),
            nonce=None if payload.get("nonce") is None else str(payload["nonce"]),
        )
        if message.nonce is not None:
            self._nonces[(author.id, message.nonce)] = message.id
        self._ctx.world.messages[message.id] = message
        if not ephemeral:
            channel.last_message_id = message.id
        self._ctx.recorder.record("create", message)
        self._dispatch("MESSAGE_CREATE", message)
        return message

    def edit(
        self, message: Message, payload: dict[str, Any], files: list[UploadedFile] | None = None
    ) -> Message:
        """Applies a PATCH-style partial update (absent keys stay unchanged)."""
        files = files or []
        self._validate(payload, files, message.flags & FLAG_COMPONENTS_V2)
        was_loading = message.loading
        channel = self._ctx.world.channels[message.channel_id]
        if "attachments" in payload or files:
            attachments = self._collect_attachments(
                channel, payload.get("attachments"), files, message.attachments, message.ephemeral
            )
        else:
            attachments = message.attachments
        content = (payload["content"] or "") if "content" in payload else message.content
        embeds = (
            self._normalize_embeds(payload["embeds"] or [], attachments)
            if "embeds" in payload
            else message.embeds
        )
        components = (
            list(payload["components"] or []) if "components" in payload else message.components
        )
        limits.check_not_empty(content, embeds, attachments, components)
        message.revisions.append(message.snapshot())
        message.content, message.embeds, message.components = content, embeds, components
        message.attachments = attachments
        message.mention_ids = self._mentions(content)
        if payload.get("flags") is not None:
            kept = message.flags & ~EDITABLE_FLAGS
            message.flags = kept | (int(payload["flags"]) & EDITABLE_FLAGS)
        message.flags &= ~FLAG_LOADING
        if not was_loading:
            # Filling a deferred "thinking" placeholder is not shown as an edit.
            message.edited_timestamp = utcnow()
        self._ctx.recorder.record("edit", message)
        self._dispatch("MESSAGE_UPDATE", message)
        return message

    def delete(self, message: Message) -> None:
        message.deleted = True
        self._ctx.recorder.record("delete", message)
        if not message.ephemeral:
            data: dict[str, Any] = {"id": str(message.id), "channel_id": str(message.channel_id)}
            if message.guild_id is not None:
                data["guild_id"] = str(message.guild_id)
            self._emit("MESSAGE_DELETE", data, message)

    # -- helpers -------------------------------------------------------
    @staticmethod
    def _validate(
        payload: dict[str, Any], files: list[UploadedFile], current_flags: int = 0
    ) -> None:
        limits.check_files([len(f.data) for f in files])
        errors = limits.validate_message_payload(payload, FormErrors(), current_flags=current_flags)
        errors.raise_if_any()

    def _collect_attachments(
        self,
        channel: Channel,
        spec: list[dict[str, Any]] | None,
        files: list[UploadedFile],
        existing: list[Attachment],
        ephemeral: bool,
    ) -> list[Attachment]:
        """Resolves the ``attachments`` array: existing ids are kept, small ids index files.

        Without an ``attachments`` array on an edit, existing attachments stay
        and new uploads are appended (Discord's behaviour).
        """
        by_index = {f.index: f for f in files}
        result: list[Attachment] = []
        used: set[int] = set()
        if spec is None:
            result.extend(existing)
            entries: list[dict[str, Any]] = [{"id": f.index} for f in files]
        else:
            entries = spec
        old = {a.id: a for a in existing}
        for entry in entries:
            ident = int(entry.get("id", -1))
            if ident in old:
                result.append(old[ident])
            elif ident in by_index and ident not in used:
                used.add(ident)
                upload = by_index[ident]
                result.append(self._store(channel, upload, entry, ephemeral))
        return result

    def _store(
        self, channel: Channel, upload: UploadedFile, entry: dict[str, Any], ephemeral: bool
    ) -> Attachment:
        att_id = self._ctx.snowflakes.next()
        filename = entry.get("filename") or upload.filename
        content_type = upload.content_type
        if not content_type or content_type == "application/octet-stream":
            content_type = mimetypes.guess_type(filename)[0] or "application/octet-stream"
        width = height = None
        if upload.data.startswith(_PNG_MAGIC) and len(upload.data) >= 24:
            width = int.from_bytes(upload.data[16:20], "big")
            height = int.from_bytes(upload.data[20:24], "big")
        attachment = Attachment(
            id=att_id,
            filename=filename,
            data=upload.data,
            url=self._ctx.attachment_url(channel.id, att_id, filename),
            content_type=content_type,
            description=entry.get("description"),
            width=width,
            height=height,
            ephemeral=ephemeral,
        )
        self._ctx.world.attachments[att_id] = attachment
        return attachment

    @staticmethod
    def _normalize_embeds(
        embeds: list[dict[str, Any]], attachments: list[Attachment]
    ) -> list[dict[str, Any]]:
        """Adds ``type: rich`` and resolves ``attachment://name`` URLs like Discord."""
        by_name = {a.filename: a for a in attachments}
        result = []
        for embed in embeds:
            embed = dict(embed)
            embed.setdefault("type", "rich")
            for key in ("image", "thumbnail"):
                media = embed.get(key)
                if isinstance(media, dict) and str(media.get("url", "")).startswith(
                    "attachment://"
                ):
                    att = by_name.get(media["url"][len("attachment://") :])
                    if att is not None:
                        embed[key] = {
                            "url": att.url,
                            "proxy_url": att.url,
                            "width": att.width,
                            "height": att.height,
                        }
            result.append(embed)
        return result

    def _mentions(self, content: str) -> list[int]:
        ids = [int(m) for m in _USER_MENTION.findall(content or "")]
        return [i for i in dict.fromkeys(ids) if i in self._ctx.world.users]

    def payload(self, message: Message) -> dict[str, Any]:
        return message.to_payload(self._ctx.world.users)

    def _dispatch(self, event: str, message: Message) -> None:
        channel = self._ctx.world.channels.get(message.channel_id)
        if message.ephemeral or (channel is not None and self._ctx.world.is_private(channel)):
            return  # a DM between users: the bot, no recipient, is sent nothing of it
        self._emit(event, self.payload(message), message)

    def _emit(self, event: str, data: dict[str, Any], message: Message) -> None:
        """Sends a MESSAGE_* event, gated by intents like Discord's gateway."""
        world = self._ctx.world
        guild = world.guilds.get(message.guild_id) if message.guild_id is not None else None
        intent = INTENT_GUILD_MESSAGES if guild is not None else INTENT_DIRECT_MESSAGES
        if guild is not None:
            data["guild_id"] = str(guild.id)
            member = guild.members.get(message.author.id)
            if member is not None and "author" in data:
                data["member"] = member.to_payload(with_user=False)
        bot_id = world.bot.id
        privileged = message.author.id == bot_id or bot_id in message.mention_ids or guild is None

        def redact(payload: dict[str, Any], intents: int) -> dict[str, Any]:
            if privileged or intents & INTENT_MESSAGE_CONTENT or "content" not in payload:
                return payload
            return {**payload, "content": "", "embeds": [], "attachments": [], "components": []}

        self._ctx.gateway.dispatch(
            event, data, guild_id=message.guild_id, intent=intent, transform=redact
        )
