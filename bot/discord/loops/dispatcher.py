"""Delivering the outbox to Discord.

:class:`DiscordSender` renders one outbox message and sends it; :class:`Dispatcher`
claims due messages from the service, sends them one at a time in creation order and
records each result.

* Rate limits: discord.py already waits out a 429 and retries a 5xx a few times; when it
  gives up, the message is retried here a few times with backoff (honouring
  ``retry_after``), then handed back to the service (``mark_failed``), which retries it
  later with a longer backoff.
* Closed DMs (error 50007): the message goes to the player's inbox (``/inbox``). The
  game channel gets a ping that says nothing of the content, and only for a message every
  player gets at once (the sheet): a ping after a grail win would name the winner.
* Never twice: each send carries a nonce derived from the idempotency key, with
  ``enforce_nonce``, so Discord itself drops a repeat sent within minutes. The
  "delivered" mark records the Discord message id; a message sent whose mark failed is
  remembered (``journal``, with its id) and marked, not resent. A message that comes
  back with ``attempts > 1`` (its lease expired: a crash, or a dispatcher that stalled)
  is reconciled before any new send: first the database, where another dispatcher may
  have recorded it delivered with its id meanwhile; then, for a crash between the send
  and the mark, the bot's recent messages in the destination (same text, sent after the
  message was created).
* Order: a message that fails holds back the later ones to the same recipient in the
  batch (they stay leased and come back after the earlier one's retry).
* A game channel that refuses a post (a right taken away) holds its posts for their
  backoff, until the right is back: then they go at once (``channel_access``).
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import replace
from datetime import timedelta
from typing import TYPE_CHECKING, Any

import aiohttp
import discord

from bot.core.dispatch import Undeliverable
from bot.core.dm_channels import forget_dm_channel, remember_dm_channel
from bot.core.messages import GameCancelled, Sheet
from bot.core.outbox import OutgoingMessage, delivered_message_id, nonce_for, recorded_message_ids
from bot.discord.bounded import BoundedSet
from bot.discord.features import discover
from bot.discord.guild import channel_access
from bot.discord.guild.checks import still_member
from bot.discord.guild.quiet_dead import find_dead_channel
from bot.discord.outbound.moderator_dm import dm_moderator, moderator_locale
from bot.i18n import t
from bot.render import words
from bot.render.outgoing import Rendered, render_outgoing

if TYPE_CHECKING:
    from bot.discord.client import WolfBot

log = logging.getLogger("wolfhowl.discord.dispatcher")

CANNOT_DM = 50007
EMPTY_MESSAGE = 50006  # what Discord says of a message whose embeds it stripped (no Embed Links)
# Discord stamps messages by its own clock: a host clock ahead of it must not hide a message
# sent just after its outbox row was written. (An older post of the same text is already
# recorded as its own row's delivery, so it is not taken for this one.)
CLOCK_MARGIN = timedelta(minutes=2)
UNKNOWN_CHANNEL = 10003
GONE_CODES = {UNKNOWN_CHANNEL, 10004, 10013}  # unknown channel, unknown guild (the bot was removed), unknown user
# The private messages whose failure is pinged in the game channel: those every seat
# holder gets at the same moment (the sheet at the start, the notice of a cancelled game).
# A ping for any other (a grail won, a night's news) would tell the table who got one.
PING_TYPES = frozenset({Sheet.KIND, GameCancelled.KIND})
SEND_TRIES = 3
DM_CACHE = 4096  # DM channel ids kept in memory; the rest are read from the database
MAX_BACKOFF = 30.0

# The pause between two passes while the reconciler still has games waiting: short, so a
# start-up's check of every live game is spread over seconds, not over minutes of polls.
BUSY_GAP = 0.05

Sleep = Callable[[float], Awaitable[None]]


def backoff(attempt: int, retry_after: float | None = None, *, base: float = 1.0, jitter: float = 0.25) -> float:
    """Seconds to wait before try ``attempt + 1``: Discord's ``retry_after`` when it gave
    one, else exponential from ``base``, capped, with a little jitter."""
    if retry_after is not None and retry_after > 0:
        return min(retry_after, MAX_BACKOFF * 4)
    delay = min(MAX_BACKOFF, base * 2.0**attempt)
    return delay + random.uniform(0, jitter * delay)


def passing(exc: BaseException) -> bool:
    """A failure worth retrying soon: rate limited, Discord's server error, the network."""
    if isinstance(exc, discord.RateLimited):
        return True
    if isinstance(exc, discord.HTTPException):
        return exc.status == 429 or exc.status >= 500
    return isinstance(exc, aiohttp.ClientError | asyncio.TimeoutError | OSError)


class StaleDm(Exception):
    """The DM channel remembered for a user is unknown to Discord (10003)."""


class ChannelRefuses(Exception):
    """The game channel cannot take this post as it is (a permission is missing): a
    passing failure, retried once the moderator has given the permission back."""


def lacks(target: discord.abc.Messageable, rendered: Rendered) -> str | None:
    """The permission the bot lacks, as its cache sees it, for this post in this server
    channel: Embed Links (Discord would strip the embeds and keep only the rest, a post's
    button without its text, or refuse it), Attach Files (Discord refuses it)."""
    if not isinstance(target, discord.abc.GuildChannel):
        return None
    me = target.guild.me
    if me is None:
        return None
    perms = target.permissions_for(me)
    if rendered.embeds and not perms.embed_links:
        return "Embed Links"
    if rendered.attachments and not perms.attach_files:
        return "Attach Files"
    return None


class DiscordSender:
    """Renders and sends one outbox message (the service's ``Sender`` protocol, plus the
    Discord message id as the result). Every kind of message is rendered by its feature's
    look, so the features are discovered first (``bot.discord.features``)."""

    def __init__(self, bot: WolfBot, *, sleep: Sleep = asyncio.sleep) -> None:
        discover()
        self.bot = bot
        self.sleep = sleep
        # Hints about games and players, each kept to a fixed size (bot.discord.bounded).
        self._pinged: BoundedSet[tuple[int, int, str]] = BoundedSet()
        # Games whose moderator was told the bot cannot post in the game channel; cleared
        # by the next post that goes through, so a later problem is reported again.
        self._warned: BoundedSet[int] = BoundedSet()
        # Seated players whose DMs failed: still members this phase; told as gone.
        self._still_member: BoundedSet[tuple[int, int, str]] = BoundedSet()
        self._told_left: BoundedSet[tuple[int, int]] = BoundedSet()
        # The DM channels this process opened (the dispatcher reads those it remembers
        # with each batch: ``OutgoingMessage.dm_channel``).
        self._dm_ids: OrderedDict[int, int] = OrderedDict()

    def expected(self, exc: BaseException) -> bool:
        """Whether a failed send's ``exc`` is one of Discord's or the network's (logged
        without its traceback), not a bug."""
        return isinstance(exc, discord.HTTPException | ChannelRefuses) or passing(exc)

    async def send(self, message: OutgoingMessage) -> int:
        rendered = render_outgoing(message)
        target = await self._destination(message)
        if message.attempts > 1:
            earlier = await self._recorded(message)
            if earlier is None:
                earlier = await self._already_sent(target, rendered, message)
            if earlier is not None:
                log.info("outbox %s was delivered before (message %s)", message.key, earlier)
                return earlier
        try:
            sent = await self._send_with_retries(target, rendered, message)
        except StaleDm:
            # The remembered DM channel is unknown to Discord: open it again, once.
            await self._forget_dm(message.recipient_id)
            sent = await self._send_with_retries(await self._destination(replace(message, dm_channel=None)), rendered, message)
        if message.recipient_kind == "channel" and message.game_id:
            self._warned.discard(message.game_id)
        return sent

    async def _destination(self, message: OutgoingMessage) -> discord.abc.Messageable:
        if message.recipient_kind == "gallery":
            return self._gallery(message.recipient_id, message.room)
        try:
            if message.recipient_kind == "user":
                return await self._dm(message.recipient_id, message.dm_channel)
            channel = self.bot.get_channel(message.recipient_id) or await self.bot.fetch_channel(message.recipient_id)
        except discord.NotFound as exc:
            raise Undeliverable(f"{message.recipient_kind} {message.recipient_id} not found ({exc.code})") from exc
        if not isinstance(channel, discord.abc.Messageable):
            raise Undeliverable(f"channel {message.recipient_id} cannot receive messages")
        return channel

    def _gallery(self, game_channel_id: int, recorded: int | None) -> discord.abc.Messageable:
        """The gallery of ``game_channel_id``: the dead's channel the bot ``recorded`` for
        it, while it exists with quiet dead on, and no other room (one the living might
        read). Without it the post cannot be delivered (quiet dead off, the room deleted)."""
        game_channel = self.bot.get_channel(game_channel_id)
        if not isinstance(game_channel, discord.TextChannel):
            raise Undeliverable(f"game channel {game_channel_id} not found")
        room = find_dead_channel(game_channel.guild, game_channel_id, recorded)
        if room is None:
            raise Undeliverable(f"no gallery for channel {game_channel_id}")
        return room

    async def _dm(self, user_id: int, remembered: int | None) -> discord.abc.Messageable:
        """The DM channel of ``user_id``: from discord.py's cache, else the one remembered
        (read with the batch, or opened by this process), else opened now (one request)
        and remembered for next time."""
        user = self.bot.get_user(user_id)
        if user is not None and user.dm_channel is not None:
            return user.dm_channel
        channel_id = remembered or self._dm_ids.get(user_id)
        if channel_id is None:
            data = await self.bot.http.start_private_message(user_id)
            channel_id = int(data["id"])
            await remember_dm_channel(self.bot.db, user_id, channel_id)
        self._dm_ids[user_id] = channel_id
        self._dm_ids.move_to_end(user_id)
        while len(self._dm_ids) > DM_CACHE:
            self._dm_ids.popitem(last=False)
        return self.bot.get_partial_messageable(channel_id, type=discord.ChannelType.private)

    async def _forget_dm(self, user_id: int) -> None:
        """Discord does not know the remembered DM channel: open a new one next time."""
        self._dm_ids.pop(user_id, None)
        await forget_dm_channel(self.bot.db, user_id)

    async def _send_with_retries(self, target: discord.abc.Messageable, rendered: Rendered, message: OutgoingMessage) -> int:
        nonce = message.nonce
        kwargs: dict[str, Any] = {"nonce": nonce, "allowed_mentions": discord.AllowedMentions.none()}
        if rendered.content:
            kwargs["content"] = rendered.content[:2000]
        if rendered.embeds:
            kwargs["embeds"] = rendered.embeds[:10]
        if rendered.view is not None:
            kwargs["view"] = rendered.view
        lacking = lacks(target, rendered) if message.recipient_kind == "channel" else None
        if lacking:
            await self._warn_moderator(message)
            raise ChannelRefuses(f"no {lacking} in the game channel")
        for attempt in range(SEND_TRIES):
            try:
                sent = await target.send(files=rendered.files(), **kwargs)
                return sent.id
            except discord.Forbidden as exc:
                if exc.code == CANNOT_DM and message.recipient_kind == "user":
                    if not await self._tell_if_left(message) and message.payload.get("type") in PING_TYPES:
                        await self._ping(message)
                    raise Undeliverable(f"DMs closed ({exc.code})") from exc
                if message.recipient_kind == "channel":
                    await self._warn_moderator(message)
                raise
            except discord.NotFound as exc:
                if exc.code == UNKNOWN_CHANNEL and message.recipient_kind == "user":
                    raise StaleDm(message.recipient_id) from exc
                if exc.code in GONE_CODES:
                    raise Undeliverable(f"recipient gone ({exc.code})") from exc
                raise
            except Exception as exc:
                if isinstance(exc, discord.HTTPException) and exc.code == EMPTY_MESSAGE and message.recipient_kind == "channel" and rendered.embeds:
                    # Embeds stripped for want of Embed Links (our cache had not seen it
                    # taken away yet): the post is fine, the channel is not.
                    await self._warn_moderator(message)
                    raise ChannelRefuses("embeds refused in the game channel") from exc
                if isinstance(exc, discord.HTTPException) and exc.status == 400:
                    # Discord refuses the message as it is (too long, malformed): sending
                    # it again cannot help, and retrying would hold back every later post
                    # to the same place for the whole backoff. A bug of ours: logged so.
                    log.error("outbox %s refused by Discord (%s): %s", message.key, exc.code, exc.text[:500])
                    raise Undeliverable(f"refused by Discord ({exc.code})") from exc
                if not passing(exc) or attempt == SEND_TRIES - 1:
                    raise
                delay = backoff(attempt, getattr(exc, "retry_after", None))
                log.info("outbox %s: %s, retrying in %.1fs", message.key, exc, delay)
                await self.sleep(delay)
        raise AssertionError("unreachable")

    async def _recorded(self, message: OutgoingMessage) -> int | None:
        """The Discord message id another dispatcher recorded for this one, if it has
        been marked delivered meanwhile (a lease that expired while it was sending)."""
        try:
            return await delivered_message_id(self.bot.db, message.key)
        except Exception:
            log.info("could not look up outbox %s; searching the history", message.key, exc_info=True)
            return None

    async def _already_sent(self, target: discord.abc.Messageable, rendered: Rendered, message: OutgoingMessage) -> int | None:
        """The id of the bot's own message in ``target`` that is this one, if an earlier
        attempt delivered it: the same text, created after the outbox row, and not
        already recorded as another row's delivery (the same post twice, as a second
        pause, is two messages)."""
        try:
            same = await self._own_since(target, rendered.fingerprint(), message)
            taken = await recorded_message_ids(self.bot.db, message.recipient_kind, message.recipient_id, same)
        except discord.HTTPException:
            log.info("could not read the history of %s %s", message.recipient_kind, message.recipient_id, exc_info=True)
            return None
        return next((i for i in same if i not in taken), None)

    async def _own_since(self, target: discord.abc.Messageable, fingerprint: tuple[str, ...], message: OutgoingMessage) -> list[int]:
        """The ids of the bot's recent messages in ``target`` with this fingerprint,
        created after the outbox row ``message`` (less ``CLOCK_MARGIN``)."""
        me = self.bot.user
        if me is None:
            return []
        after = message.created_at - CLOCK_MARGIN
        return [m.id async for m in target.history(limit=25, after=after) if m.author.id == me.id and _fingerprint(m) == fingerprint]

    async def _ping(self, message: OutgoingMessage) -> None:
        """Tell a player whose DMs are closed, in the game channel, that the game's private
        messages will wait in their inbox (never what). Once per game phase, and only for
        the messages everyone gets (``PING_TYPES``), so a ping tells nothing of the game.
        Not again after a crash between the ping and the inbox mark (found in the channel's
        history, as a message is in ``_already_sent``)."""
        info = message.game
        if info is None:
            return
        tag = (message.recipient_id, info.id, f"{info.round}:{info.phase}")
        if tag in self._pinged:
            return
        self._pinged.add(tag)
        try:
            channel = self.bot.get_channel(info.channel_id) or await self.bot.fetch_channel(info.channel_id)
            text = t("reply.post.inbox_ping", info.settings.language, user=f"<@{message.recipient_id}>")
            if message.attempts > 1 and await self._own_since(channel, (text,), message):  # type: ignore[arg-type]
                return  # pinged by the process that died before it could mark the message
            await channel.send(  # type: ignore[union-attr]
                text,
                nonce=nonce_for(message.key + ":ping"),
                allowed_mentions=discord.AllowedMentions(users=True, everyone=False, roles=False),
            )
        except discord.NotFound as exc:
            if exc.code not in GONE_CODES:
                raise
            log.info("no channel to ping user %s in: game %s's channel is gone", message.recipient_id, info.id)
        except discord.HTTPException:
            log.warning("could not ping user %s about their inbox", message.recipient_id, exc_info=True)

    async def _tell_if_left(self, message: OutgoingMessage) -> bool:
        """A seated player whose DMs fail may have left the game's server (the bot has no
        members intent, so nobody tells it): ask Discord, once per player and phase.
        When they have, there is no point pinging them in the channel (True then), and if
        they still play, the moderator is told once, in their language, to replace or
        remove them (not for one who has died or been removed: nothing to do there)."""
        info = message.game
        uid = message.recipient_id
        holder = next((p for p in info.players if p.user_id == uid and p.seat is not None), None) if info else None
        if info is None or holder is None:
            return False
        tag = (uid, info.id, f"{info.round}:{info.phase}")
        if tag in self._still_member:
            return False
        if info.guild_id is None or await still_member(self.bot, info.guild_id, discord.Object(uid)):
            self._still_member.add(tag)
            return False
        if holder.alive and (uid, info.id) not in self._told_left:
            self._told_left.add((uid, info.id))
            locale = await moderator_locale(self.bot, info)
            name = words.player_name(holder.name)
            player = words.seat_name(holder.seat, name) if holder.seat is not None else name
            text = t("reply.post.player_left_server", locale, user=f"<@{uid}>", player=player, game=info.id)
            await dm_moderator(self.bot, info, text, nonce=nonce_for(f"left:{info.id}:{uid}"))
        return True

    async def _warn_moderator(self, message: OutgoingMessage) -> None:
        """The game channel refuses the bot (a permission taken away): tell the game's
        moderator by DM, once until a post goes through again. The post itself is retried
        as usual and goes out, in order, once the permissions are back."""
        channel = self.bot.get_channel(message.recipient_id)
        cache_let_post = isinstance(channel, discord.abc.GuildChannel) and channel_access.may_post(channel)
        self.bot.access.refused(message.recipient_id, cache_let_post)
        info = message.game
        if info is None or info.id in self._warned:
            return
        self._warned.add(info.id)
        log.warning("game %s: the bot may not post in channel %s", info.id, info.channel_id)
        locale = await moderator_locale(self.bot, info)
        text = t("reply.post.cannot_post", locale, channel=f"<#{info.channel_id}>", game=info.id)
        await dm_moderator(self.bot, info, text, nonce=nonce_for(f"{message.key}:warn"))


def _fingerprint(m: discord.Message) -> tuple[str, ...]:
    out = [m.content or ""]
    for e in m.embeds:
        out += [e.title or "", e.description or ""]
    return tuple(out)
