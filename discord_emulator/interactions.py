"""Interaction lifecycle: creation, the single initial response, followups.

Discord's rules a bot can break are enforced here: exactly one initial
response (second → 400/40060), sent within the deadline after dispatch
(late → 404/10062), response type valid for the interaction type, followups
and edits only while the 15-minute token lives (→ 401/50027).  The user side
observes everything through :class:`InteractionResult`.

An interaction authorized only by the user's own install of the app (no
``"0"`` in ``authorizing_integration_owners``: a server without the bot, or a
DM between users) is answered only through its token: at most 5 followups
(→ 400/40094, https://discord.com/developers/docs/interactions/receiving-and-responding#create-followup-message),
and in a server where the member lacks Use External Apps every answer is
ephemeral (https://discord.com/developers/docs/topics/permissions#permissions-bitwise-permission-flags).
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from . import limits
from . import permissions as perm
from .errors import ApiError, form_error
from .messages import INTERACTION_FLAGS, Origin, UploadedFile
from .state import FLAG_EPHEMERAL, FLAG_LOADING, Channel, Guild, Message, User

if TYPE_CHECKING:
    from collections.abc import Generator
    from typing import Self

    from .context import SandboxContext

APPLICATION_COMMAND = 2
MESSAGE_COMPONENT = 3
AUTOCOMPLETE = 4
MODAL_SUBMIT = 5

CHANNEL_MESSAGE = 4
DEFERRED_CHANNEL_MESSAGE = 5
DEFERRED_UPDATE_MESSAGE = 6
UPDATE_MESSAGE = 7
AUTOCOMPLETE_RESULT = 8
MODAL = 9

# Followups an interaction authorized only by a user install may create.
USER_INSTALL_FOLLOWUPS = 5
# What app_permissions holds where the bot is no member: Discord documents it for
# (group) DMs with other users; the emulator uses it in a server without the bot too.
FOREIGN_APP_PERMISSIONS = perm.ATTACH_FILES | perm.EMBED_LINKS | perm.MENTION_EVERYONE

# Which callback types Discord accepts for each interaction type.
ALLOWED_RESPONSES: dict[int, set[int]] = {
    APPLICATION_COMMAND: {CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE, MODAL},
    MESSAGE_COMPONENT: {
        CHANNEL_MESSAGE,
        DEFERRED_CHANNEL_MESSAGE,
        DEFERRED_UPDATE_MESSAGE,
        UPDATE_MESSAGE,
        MODAL,
    },
    AUTOCOMPLETE: {AUTOCOMPLETE_RESULT},
    MODAL_SUBMIT: {
        CHANNEL_MESSAGE,
        DEFERRED_CHANNEL_MESSAGE,
        DEFERRED_UPDATE_MESSAGE,
        UPDATE_MESSAGE,
    },
}


class BotNotConnected(RuntimeError):
    """No gateway session exists, so no interaction can reach the bot."""


class InteractionFailed(RuntimeError):
    """The deadline passed without a response: the user sees "This interaction failed"."""


@dataclass
class InteractionRecord:
    id: int
    token: str
    type: int
    user: User
    channel: Channel
    guild: Guild | None
    payload: dict[str, Any]
    created_at: float
    command_name: str | None = None
    source_message: Message | None = None
    response_type: int | None = None
    original: Message | None = None
    followups: list[Message] = field(default_factory=list)
    choices: list[dict[str, Any]] | None = None
    modal: dict[str, Any] | None = None
    rejected: list[ApiError] = field(default_factory=list)
    updates_after_ack: int = 0
    # When (on the emulator's clock, as ``created_at``) the initial response was accepted
    # and when the user first saw a definitive answer: what a load test reads, with no
    # waiter of its own per interaction.
    acknowledged_at: float | None = None
    answered_at: float | None = None

    @property
    def user_install_only(self) -> bool:
        """Authorized by the user's own install alone: the app is not installed where
        the interaction happened (``authorizing_integration_owners`` has no ``"0"``)."""
        return "0" not in self.payload["authorizing_integration_owners"]

    @property
    def forced_ephemeral(self) -> bool:
        """Discord makes every answer ephemeral: a user-installed app in a server where
        the member may not use external apps publicly (Use External Apps)."""
        if not self.user_install_only or self.guild is None:
            return False
        return not perm.has(int(self.payload["member"]["permissions"]), perm.USE_EXTERNAL_APPS)

    def is_final(self) -> bool:
        """True once the user sees a definitive answer (not just "thinking")."""
        if self.response_type == DEFERRED_CHANNEL_MESSAGE:
            return self.original is not None and not self.original.loading
        if self.response_type == DEFERRED_UPDATE_MESSAGE:
            return self.updates_after_ack > 0 or bool(self.followups)
        return self.response_type is not None


class InteractionResult:
    """The user's view of one interaction and of the bot's answer to it."""

    def __init__(self, record: InteractionRecord, ctx: SandboxContext) -> None:
        self.record = record
        self._ctx = ctx

    def __repr__(self) -> str:
        return f"<InteractionResult id={self.id} type={self.record.type} response={self.response_type}>"

    @property
    def id(self) -> int:
        return self.record.id

    @property
    def response_type(self) -> int | None:
        """The callback type the bot used (4 reply, 5 defer, 6 deferred update, 7 update, 8, 9)."""
        return self.record.response_type

    @property
    def type(self) -> int | None:
        """Alias of :attr:`response_type`."""
        return self.record.response_type

    def __await__(self) -> Generator[Any, None, Self]:
        """``await result`` is ``await result.wait()`` with the default timeout."""
        return self.wait().__await__()

    @property
    def acknowledged(self) -> bool:
        return self.record.response_type is not None

    @property
    def deferred(self) -> bool:
        return self.record.response_type in (DEFERRED_CHANNEL_MESSAGE, DEFERRED_UPDATE_MESSAGE)

    @property
    def message(self) -> Message | None:
        """The original response (or, for 6/7, the component's message)."""
        return self.record.original

    @property
    def content(self) -> str | None:
        return self.message.content if self.message else None

    @property
    def embeds(self) -> list[dict[str, Any]]:
        return self.message.embeds if self.message else []

    @property
    def components(self) -> list[dict[str, Any]]:
        return self.message.components if self.message else []

    @property
    def ephemeral(self) -> bool:
        return bool(self.message and self.message.ephemeral)

    @property
    def followups(self) -> list[Message]:
        return list(self.record.followups)

    @property
    def choices(self) -> list[dict[str, Any]] | None:
        return self.record.choices

    @property
    def modal(self) -> dict[str, Any] | None:
        return self.record.modal

    @property
    def rejected(self) -> list[ApiError]:
        """Callbacks the emulator refused (late, duplicate, invalid)."""
        return list(self.record.rejected)

    @property
    def failed(self) -> bool:
        return not self.acknowledged and self._ctx.clock.now() > self._deadline()

    def _deadline(self) -> float:
        return self.record.created_at + self._ctx.config.interaction_timeout

    def is_final(self) -> bool:
        """True once the user sees a definitive answer (not just "thinking")."""
        return self.record.is_final()

    @property
    def ack_seconds(self) -> float | None:
        """From dispatch to the accepted initial response (None: not yet)."""
        rec = self.record
        return None if rec.acknowledged_at is None else rec.acknowledged_at - rec.created_at

    @property
    def answer_seconds(self) -> float | None:
        """From dispatch to the first definitive answer (None: not yet)."""
        rec = self.record
        return None if rec.answered_at is None else rec.answered_at - rec.created_at

    async def wait(self, timeout: float = 5.0) -> Self:
        """Waits for the final response; raises :class:`InteractionFailed` on no answer."""

        def check() -> bool:
            if self.failed:
                raise InteractionFailed(
                    f"bot did not answer interaction {self.id} in time; rejected={self.rejected}"
                )
            return self.is_final()

        await self._ctx.notifier.wait_for(
            check, timeout, what=f"a response to interaction {self.id}"
        )
        return self

    async def wait_followups(self, count: int = 1, timeout: float = 5.0) -> list[Message]:
        def check() -> list[Message] | None:
            return self.followups if len(self.record.followups) >= count else None

        return await self._ctx.notifier.wait_for(check, timeout, what=f"{count} followup(s)")


class InteractionService:
    def __init__(self, ctx: SandboxContext) -> None:
        self._ctx = ctx
        self.records: dict[int, InteractionRecord] = {}
        self._by_token: dict[str, InteractionRecord] = {}

    # -- creation (user side) ------------------------------------------
    def create(
        self,
        type: int,
        user: User,
        channel: Channel,
        data: dict[str, Any],
        *,
        locale: str,
        command_name: str | None = None,
        source_message: Message | None = None,
        owners: dict[str, str] | None = None,
    ) -> InteractionResult:
        """Builds a complete INTERACTION_CREATE payload and dispatches it; ``owners``
        (``authorizing_integration_owners``, from ``CommandAccess.authorization``) default
        to those of the interaction that made ``source_message``, else the guild install's."""
        ctx = self._ctx
        if not ctx.gateway.has_session():
            raise BotNotConnected(
                "the bot has no gateway session; start it and wait for READY first"
            )
        world = ctx.world
        guild = world.guild_of(channel)
        interaction_id = ctx.snowflakes.next()
        token = f"aW50ZXJhY3Rpb24{interaction_id}.{secrets.token_urlsafe(48)}"
        channel_payload = channel.to_payload()
        if owners is None:
            made_by = source_message.interaction_metadata if source_message is not None else None
            if made_by is not None and made_by.get("authorizing_integration_owners"):
                owners = dict(made_by["authorizing_integration_owners"])
            else:
                owners = {"0": str(guild.id) if guild else "0"}
        reachable = not world.is_private(channel) if guild is None else ctx.bot.id in guild.members
        payload: dict[str, Any] = {
            "id": str(interaction_id),
            "application_id": str(ctx.application.id),
            "type": type,
            "data": data,
            "token": token,
            "version": 1,
            "locale": locale,
            "entitlements": [],
            "entitlement_sku_ids": [],
            "authorizing_integration_owners": owners,
            "context": world.context_of(channel),
            "attachment_size_limit": ctx.config.attachment_size_limit,
            "channel_id": str(channel.id),
            "channel": channel_payload,
            "app_permissions": str(
                ctx.guild_ops.permissions_in(channel, ctx.bot.id) if reachable else FOREIGN_APP_PERMISSIONS
            ),
        }
        if guild is not None:
            perms = ctx.guild_ops.permissions_in(channel, user.id)
            channel_payload["permissions"] = str(perms)
            payload.update(
                guild_id=str(guild.id),
                guild={
                    "id": str(guild.id),
                    "locale": guild.preferred_locale,
                    "features": list(guild.features),
                },
                guild_locale=guild.preferred_locale,
                member=guild.members[user.id].to_payload(permissions=perms),
            )
        else:
            payload["user"] = user.to_payload()
        if source_message is not None:
            payload["message"] = ctx.messages.payload(source_message)
        record = InteractionRecord(
            id=interaction_id,
            token=token,
            type=type,
            user=user,
            channel=channel,
            guild=guild,
            payload=payload,
            created_at=ctx.clock.now(),
            command_name=command_name,
            source_message=source_message,
        )
        self.records[interaction_id] = record
        self._by_token[token] = record
        ctx.gateway.dispatch("INTERACTION_CREATE", payload, guild_id=guild.id if guild else None)
        ctx.notifier.wake_at(ctx.config.interaction_timeout + 0.01)
        return InteractionResult(record, ctx)

    # -- initial response (POST /interactions/{id}/{token}/callback) ----
    def callback(
        self, interaction_id: int, token: str, body: dict[str, Any], files: list[UploadedFile]
    ) -> dict[str, Any]:
        record = self.records.get(interaction_id)
        if record is None or record.token != token:
            raise ApiError.of(10062)
        try:
            return self._respond(record, body, files)
        except ApiError as exc:
            record.rejected.append(exc)
            self._ctx.notifier.notify()
            raise

    def _respond(
        self, rec: InteractionRecord, body: dict[str, Any], files: list[UploadedFile]
    ) -> dict[str, Any]:
        ctx = self._ctx
        if rec.response_type is not None:
            raise ApiError.of(40060)
        if ctx.clock.now() > rec.created_at + ctx.config.interaction_timeout:
            raise ApiError.of(10062)
        rtype = body.get("type")
        data = body.get("data") or {}
        allowed = ALLOWED_RESPONSES.get(rec.type, set())
        if rec.type == MODAL_SUBMIT and rec.source_message is None:
            allowed = allowed - {DEFERRED_UPDATE_MESSAGE, UPDATE_MESSAGE}
        if rtype not in allowed:
            raise form_error(
                ("type",),
                "INTERACTION_RESPONSE_TYPE_INVALID",
                f"Response type {rtype} is invalid for interaction type {rec.type}",
            )
        if rec.forced_ephemeral and rtype in (CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE):
            data = {**data, "flags": int(data.get("flags") or 0) | FLAG_EPHEMERAL}
        if rtype == CHANNEL_MESSAGE:
            rec.original = ctx.messages.create(
                rec.channel,
                ctx.bot,
                data,
                files,
                allowed_flags=INTERACTION_FLAGS,
                origin=self._origin(rec),
            )
        elif rtype == DEFERRED_CHANNEL_MESSAGE:
            rec.original = ctx.messages.create(
                rec.channel,
                ctx.bot,
                {},
                extra_flags=FLAG_LOADING | (int(data.get("flags") or 0) & FLAG_EPHEMERAL),
                origin=self._origin(rec),
                allow_empty=True,
            )
        elif rtype == DEFERRED_UPDATE_MESSAGE:
            rec.original = rec.source_message
        elif rtype == UPDATE_MESSAGE:
            assert rec.source_message is not None
            rec.original = ctx.messages.edit(rec.source_message, data, files)
        elif rtype == AUTOCOMPLETE_RESULT:
            rec.choices = limits.validate_autocomplete(data, _focused_type(rec.payload["data"]))
        elif rtype == MODAL:
            limits.validate_modal(data)
            rec.modal = data
        rec.response_type = rtype
        rec.acknowledged_at = ctx.clock.now()
        self._changed(rec)
        message = (
            rec.original
            if rtype in (CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE, UPDATE_MESSAGE)
            else None
        )
        result: dict[str, Any] = {"interaction": {"id": str(rec.id), "type": rec.type}}
        if message is not None:
            result["interaction"].update(
                response_message_id=str(message.id),
                response_message_loading=message.loading,
                response_message_ephemeral=message.ephemeral,
            )
            result["resource"] = {"type": rtype, "message": ctx.messages.payload(message)}
        return result

    def _origin(self, rec: InteractionRecord, followup_of: Message | None = None) -> Origin:
        app_id = self._ctx.application.id
        meta: dict[str, Any] = {
            "id": str(rec.id),
            "type": rec.type,
            "user": rec.user.to_payload(),
            "authorizing_integration_owners": rec.payload["authorizing_integration_owners"],
        }
        if rec.command_name is not None:
            meta.update(name=rec.command_name, command_type=1)
        if rec.source_message is not None:
            meta["interacted_message_id"] = str(rec.source_message.id)
        if followup_of is not None:
            meta["original_response_message_id"] = str(followup_of.id)
        return Origin(
            webhook_id=app_id,
            application_id=app_id,
            interaction_metadata=meta,
            interaction_id=rec.id,
            visible_to=rec.user.id,
            type=20 if rec.type == APPLICATION_COMMAND and followup_of is None else 0,
        )

    # -- webhook side (followups, @original) -----------------------------
    def _by_webhook(self, application_id: int, token: str) -> InteractionRecord:
        record = self._by_token.get(token)
        if record is None or application_id != self._ctx.application.id:
            raise ApiError.of(10015)
        if self._ctx.clock.now() > record.created_at + self._ctx.config.token_lifetime:
            raise ApiError.of(50027)
        return record

    def followup(
        self, application_id: int, token: str, body: dict[str, Any], files: list[UploadedFile]
    ) -> Message:
        rec = self._by_webhook(application_id, token)
        if rec.response_type is None or rec.response_type == AUTOCOMPLETE_RESULT:
            raise ApiError.of(10015)
        ctx = self._ctx
        original = rec.original
        if (
            rec.response_type == DEFERRED_CHANNEL_MESSAGE
            and original is not None
            and original.loading
        ):
            # The first followup after a "thinking" defer becomes the original response.
            message = ctx.messages.edit(
                original, {k: v for k, v in body.items() if k != "flags"}, files
            )
        else:
            if rec.user_install_only and self._created_followups(rec) >= USER_INSTALL_FOLLOWUPS:
                raise ApiError.of(40094)
            if rec.forced_ephemeral:
                body = {**body, "flags": int(body.get("flags") or 0) | FLAG_EPHEMERAL}
            message = ctx.messages.create(
                rec.channel,
                ctx.bot,
                body,
                files,
                allowed_flags=INTERACTION_FLAGS,
                origin=self._origin(rec, original),
            )
        rec.followups.append(message)
        self._changed(rec)
        return message

    @staticmethod
    def _created_followups(rec: InteractionRecord) -> int:
        """Followups that made a message of their own (not the one that filled a defer)."""
        return sum(1 for m in rec.followups if m is not rec.original)

    def _target(self, rec: InteractionRecord, message_id: str) -> Message:
        if message_id == "@original":
            if rec.original is None or rec.original.deleted:
                raise ApiError.of(10008)
            return rec.original
        for message in [rec.original, *rec.followups]:
            if message is not None and str(message.id) == message_id and not message.deleted:
                return message
        raise ApiError.of(10008)

    def get_message(self, application_id: int, token: str, message_id: str) -> Message:
        return self._target(self._by_webhook(application_id, token), message_id)

    def edit_message(
        self,
        application_id: int,
        token: str,
        message_id: str,
        body: dict[str, Any],
        files: list[UploadedFile],
    ) -> Message:
        rec = self._by_webhook(application_id, token)
        target = self._target(rec, message_id)
        message = self._ctx.messages.edit(target, body, files)
        if target is rec.original:
            rec.updates_after_ack += 1
        self._changed(rec)
        return message

    def delete_message(self, application_id: int, token: str, message_id: str) -> None:
        rec = self._by_webhook(application_id, token)
        self._ctx.messages.delete(self._target(rec, message_id))
        if message_id == "@original":
            rec.updates_after_ack += 1
        self._changed(rec)

    def _changed(self, rec: InteractionRecord) -> None:
        """The bot's answer to ``rec`` moved on: note when it became final, wake waiters."""
        if rec.answered_at is None and rec.is_final():
            rec.answered_at = self._ctx.clock.now()
        self._ctx.notifier.notify()


def _focused_type(data: dict[str, Any]) -> int | None:
    """The option type of the focused option in an autocomplete interaction."""
    stack = list(data.get("options") or [])
    while stack:
        option = stack.pop()
        if option.get("focused"):
            return int(option["type"])
        stack.extend(option.get("options") or [])
    return None
