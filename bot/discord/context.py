"""The per-interaction context: who asks, in which language, about which game, and how
to answer.

Which game: the service finds it from the interaction's place (``bot.core.table``): a
command in a game's channel is about that game; anywhere else (a DM, or another channel)
about the caller's one live game, or a moderator's about the one game they moderate.
What Discord says of the caller comes with the place when the interaction carries it,
else from :class:`DiscordCaller`, asked only when the service needs it.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, TypeVar

import discord

from bot.core import users
from bot.core.errors import ServiceError
from bot.core.policy import GameLike, Standing
from bot.core.table import Place, standing_in
from bot.core.types import GameInfo, PlayerView, UserRef
from bot.core.views import game_info, view_at
from bot.discord import first_response
from bot.discord.errors import ReplyError
from bot.discord.guild.checks import member_in, member_is_moderator, still_member
from bot.discord.guild.standing import standing_of_member
from bot.features.moderation.commands import ModeratorCommand, moderate
from bot.i18n import normalize_locale

log = logging.getLogger("wolfhowl.discord")

if TYPE_CHECKING:
    from bot.discord.client import WolfBot

R = TypeVar("R")


def locale_of(interaction: discord.Interaction) -> str:
    """The caller's language (their Discord client's), as one of ours."""
    return normalize_locale(str(interaction.locale))


def server_language(interaction: discord.Interaction, configured: str) -> str:
    """The language of what the bot posts for a whole server (a new game, a season's
    summary): a Chinese-speaking server (its Discord community language) gets Chinese,
    in the script it chose (zh-TW or zh-CN); any other the configured default."""
    loc = str(interaction.guild_locale or "")
    return normalize_locale(loc) if loc.lower().startswith("zh") else configured


async def note_locale(bot: WolfBot, user_id: int, locale: str) -> None:
    """Keep the user's recorded language (their DMs are written in it) up with their
    client's, once per user and language in this process: one write when it changed."""
    if bot.locales_noted.get(user_id) == locale:
        return
    try:
        recorded = await users.note_locale(bot.db, user_id, locale)
    except Exception:  # a language not noted must not cost the player their command
        log.warning("could not record the language of user %s", user_id, exc_info=True)
        return
    if recorded:  # someone not recorded is asked about again next time
        bot.locales_noted[user_id] = locale
    if len(bot.locales_noted) > 50_000:
        bot.locales_noted.clear()


def user_ref(user: discord.abc.User, locale: str | None) -> UserRef:
    name = (getattr(user, "display_name", None) or user.name or str(user.id))[:100]
    return UserRef(user.id, name, locale)


def place_of(interaction: discord.Interaction, user: UserRef, moderator_role: str) -> Place:
    """Where the interaction comes from, with what it says of the caller there: in a
    server, their membership, whether they see this channel and whether they moderate,
    from the interaction's own member data (Discord computed its permissions for this
    channel): no request to Discord."""
    here = None
    member = interaction.user
    if interaction.guild_id is not None and isinstance(member, discord.Member) and member.guild.id == interaction.guild_id:
        sees = (interaction.channel_id,) if interaction.channel_id is not None and interaction.permissions.view_channel else ()
        here = Standing(user.id, interaction.guild_id, True, frozenset(sees), member_is_moderator(member, moderator_role))
    return Place(user, interaction.guild_id, interaction.channel_id, here=here)


class DiscordCaller:
    """What Discord says of one interaction's caller elsewhere than where they sent it
    (``bot.core.table.Caller``): asked of Discord when the service needs it, once per
    game or server (the member by REST, since the bot has no members intent)."""

    def __init__(self, bot: WolfBot, interaction: discord.Interaction) -> None:
        self.bot = bot
        self.interaction = interaction
        self._standings: dict[int, Standing] = {}

    async def standing(self, game: GameLike) -> Standing:
        """The caller's standing in ``game``'s server and channel. The game's creator
        whom Discord does not answer for (an outage) is taken for a member: it locks
        them out of nothing."""
        if game.id not in self._standings:
            user = self.interaction.user
            guild_id = game.guild_id
            if guild_id is None:
                found = Standing.stranger(user.id)
            else:
                member = await member_in(self.bot, guild_id, user)
                if member is not None:
                    found = await standing_of_member(self.bot, member, game.channel_id, self.interaction)
                elif game.moderator_id == user.id and await still_member(self.bot, guild_id, user):
                    found = Standing.member_of(user.id, guild_id)
                else:
                    found = Standing.stranger(user.id, guild_id)
            self._standings[game.id] = found
        return self._standings[game.id]

    async def moderates_in(self, guild_ids: Sequence[int]) -> frozenset[int]:
        """Those of ``guild_ids`` where the caller is a moderator: one lookup per server,
        all at once (without the members intent each may be a REST call)."""
        user = self.interaction.user
        found = await asyncio.gather(*(member_in(self.bot, guild_id, user) for guild_id in guild_ids))
        role = self.bot.config.moderator_role
        return frozenset(gid for gid, m in zip(guild_ids, found, strict=True) if m is not None and member_is_moderator(m, role))


class TableCache:
    """A few seconds of memory of each game's table, so autocomplete (which must answer
    at once and is sent on every keystroke) does not hit the database each time."""

    def __init__(self, ttl: float = 5.0) -> None:
        self.ttl = ttl
        self._by_key: dict[tuple[int, int | None, bool], tuple[float, GameInfo]] = {}

    async def get(self, bot: WolfBot, interaction: discord.Interaction, *, moderating: bool = False) -> GameInfo | None:
        """The game a player command is about or, ``moderating``, the one a moderator
        command is about (:func:`moderated_game`); None when there is none."""
        key = (interaction.user.id, interaction.channel_id if interaction.guild_id else None, moderating)
        hit = self._by_key.get(key)
        now = time.monotonic()
        if hit and now - hit[0] < self.ttl:
            return hit[1]
        try:
            ctx = Ctx(interaction)
            info = await game_info(bot.db, ctx.place, moderating=moderating, caller=ctx.caller)
        except (ServiceError, ReplyError):
            return None
        self._by_key[key] = (now, info)
        if len(self._by_key) > 5000:
            self._by_key.clear()
        return info


class ViewCache:
    """A few seconds of memory of each player's own view (sheet, what they sent), for
    the autocomplete of their skills and guesses."""

    def __init__(self, ttl: float = 5.0) -> None:
        self.ttl = ttl
        self._by_user: dict[int, tuple[float, PlayerView]] = {}

    async def get(self, bot: WolfBot, interaction: discord.Interaction) -> PlayerView | None:
        hit = self._by_user.get(interaction.user.id)
        now = time.monotonic()
        if hit and now - hit[0] < self.ttl:
            return hit[1]
        try:
            view = await view_at(bot.db, Ctx(interaction).place)
        except ServiceError:
            return None
        self._by_user[interaction.user.id] = (now, view)
        if len(self._by_user) > 5000:
            self._by_user.clear()
        return view


class Ctx:
    """One interaction being answered, ephemerally unless told otherwise
    (:mod:`bot.discord.first_response`)."""

    def __init__(self, interaction: discord.Interaction) -> None:
        self.interaction = interaction
        self.bot: WolfBot = interaction.client  # type: ignore[assignment]
        self.locale = locale_of(interaction)
        self.user = user_ref(interaction.user, self.locale)
        # Where it comes from and what Discord says of the caller there (no request).
        self.place = place_of(interaction, self.user, self.bot.config.moderator_role)
        # What Discord says of them elsewhere, asked only when the service needs it.
        self.caller = DiscordCaller(self.bot, interaction)

    @classmethod
    async def begin(cls, interaction: discord.Interaction, *, ephemeral: bool = True, idempotent: bool = False) -> Ctx:
        """Start answering: the interaction is acknowledged ("thinking…", public unless
        ``ephemeral``) now, or for an ``idempotent`` command (one whose work is the same
        done twice: see :mod:`bot.discord.first_response`) only if its answer is slow."""
        ctx = cls(interaction)
        await first_response.begin(interaction, idempotent=idempotent, ephemeral=ephemeral)
        await note_locale(ctx.bot, interaction.user.id, ctx.locale)
        return ctx

    @property
    def db(self) -> Any:
        return self.bot.db

    async def game(self) -> GameInfo:
        """The public view of the game a player's command is about."""
        return await game_info(self.db, self.place)

    async def standing(self, game: GameInfo) -> Standing:
        """What Discord says of the caller in ``game``'s server and channel, for the
        service's access policy (``bot.core.table.standing_in``)."""
        return await standing_in(self.place, game, self.caller)

    async def moderate(self, command: ModeratorCommand[R]) -> R:
        """``command`` done by the service as the caller's, in one call (``moderate``,
        which finds the game and checks that they moderate)."""
        return await moderate(self.db, self.place, command, self.caller)

    async def view(self) -> PlayerView:
        """The caller's own view of the game their command is about."""
        return await view_at(self.db, self.place)

    async def send(
        self,
        content: str | None = None,
        *,
        embed: discord.Embed | None = None,
        embeds: list[discord.Embed] | None = None,
        view: discord.ui.View | None = None,
        file: discord.File | None = None,
        ephemeral: bool = True,
    ) -> None:
        kwargs: dict[str, Any] = {"ephemeral": ephemeral}
        if content is not None:
            kwargs["content"] = content[:2000]
        if embed is not None:
            kwargs["embed"] = embed
        if embeds:
            kwargs["embeds"] = embeds[:10]
        if view is not None:
            kwargs["view"] = view
        if file is not None:
            kwargs["file"] = file
        await first_response.reply(self.interaction, **kwargs)
