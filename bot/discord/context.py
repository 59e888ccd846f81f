"""The per-interaction context: who asks, in which language, about which game, and how
to answer.

Which game: a command in a game's channel is about that game; anywhere else (a DM, or
another channel) about the caller's one live game, which the service guarantees is
unique; a stranger gets "you are not in any game".
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import TYPE_CHECKING, Any, TypeVar

import discord

from bot.core import users
from bot.core.errors import ServiceError
from bot.core.live_places import live_game_places, servers_to_ask
from bot.core.policy import Standing
from bot.core.types import GameInfo, UserRef
from bot.core.views import PlayerView, player_view_here
from bot.discord import first_response
from bot.discord.errors import ReplyError
from bot.discord.guild.checks import member_in, member_is_moderator, moderator_standing
from bot.discord.guild.standing import standing_in
from bot.features.lobby.games import active_game_of, game_in_channel, games_moderated_by, get_game
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


async def game_for(bot: WolfBot, interaction: discord.Interaction) -> GameInfo:
    """The game a player command is about (see the module docstring)."""
    if interaction.guild_id is not None and interaction.channel_id is not None:
        here = await game_in_channel(bot.db, interaction.channel_id)
        if here is not None:
            return here
    return await active_game_of(bot.db, interaction.user.id)


async def view_for(bot: WolfBot, interaction: discord.Interaction) -> PlayerView:
    """The caller's own view of the game a player command is about (as :func:`game_for`
    chooses it), read at once."""
    here = interaction.channel_id if interaction.guild_id is not None else None
    return await player_view_here(bot.db, interaction.user.id, here)


async def moderated_game(bot: WolfBot, interaction: discord.Interaction) -> GameInfo:
    """The game a moderator command is about: this channel's; in a DM, the one game the
    caller moderates (:func:`games_moderated_from_afar`), whether or not they play in it;
    with several, none is guessed (the reply names their channels). A caller who
    moderates none gets the game they play in, whose moderator check then refuses them.
    In a channel without a game none is guessed either (advancing the wrong game cannot
    be undone): the reply names the channels of this server's live games."""
    if interaction.guild_id is not None and interaction.channel_id is not None:
        here = await game_in_channel(bot.db, interaction.channel_id)
        if here is None:
            elsewhere = await live_game_places(bot.db, interaction.guild_id)
            if elsewhere:
                raise ReplyError("reply.error.no_game_here_elsewhere", channels=[f"<#{g.channel_id}>" for g in elsewhere])
            raise ReplyError("reply.error.no_game_here")
        return here
    mine = await games_moderated_from_afar(bot, interaction.user)
    if len(mine) == 1:
        return mine[0]
    if mine:
        raise ReplyError("reply.error.several_games", channels=[f"<#{g.channel_id}>" for g in mine])
    return await active_game_of(bot.db, interaction.user.id)


# At most this many servers are asked about one DM moderator command (each may be a
# request to Discord): see ``service.servers_to_ask``.
SERVERS_ASKED_FROM_A_DM = 25


async def games_moderated_from_afar(bot: WolfBot, user: discord.abc.User) -> list[GameInfo]:
    """The live games a caller may run from a DM: those they created, and those in
    servers where they are a moderator (Manage Server or the configured role), looked up
    in the game's server since a DM carries no roles: at most
    ``SERVERS_ASKED_FROM_A_DM`` servers, those where the caller has played or moderated
    first (``service.servers_to_ask``). Oldest first."""
    mine = await games_moderated_by(bot.db, user.id)
    guild_ids = await servers_to_ask(bot.db, user.id, SERVERS_ASKED_FROM_A_DM)
    # One lookup per server, all at once (without the members intent each may be a REST call).
    found = await asyncio.gather(*(member_in(bot, guild_id, user) for guild_id in guild_ids))
    moderates = [gid for gid, m in zip(guild_ids, found, strict=True) if m is not None and member_is_moderator(m, bot.config.moderator_role)]
    known = {g.id for g in mine}
    places = await live_game_places(bot.db, guild_ids=moderates) if moderates else []
    others = [await get_game(bot.db, p.id) for p in places if p.id not in known]
    return sorted([*mine, *others], key=lambda g: g.id)


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
            info = await (moderated_game if moderating else game_for)(bot, interaction)
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
            view = await view_for(bot, interaction)
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

    @property
    def user(self) -> UserRef:
        return user_ref(self.interaction.user, self.locale)

    async def game(self) -> GameInfo:
        return await game_for(self.bot, self.interaction)

    async def standing(self, game: GameInfo) -> Standing:
        """What Discord says of the caller in ``game``'s server and channel, for the
        service's access policy (:mod:`bot.discord.guild.standing`)."""
        return await standing_in(self.bot, self.interaction, game.guild_id, game.channel_id)

    async def moderate(self, command: ModeratorCommand[R], game: GameInfo | None) -> R:
        """``command`` done by the service as the caller's (``service.moderate``, which
        checks that they moderate), with what Discord says of them in ``game``'s server
        (no game yet: this one's)."""
        return await moderate(self.db, command, await moderator_standing(self.bot, self.interaction, game))

    async def view(self) -> PlayerView:
        """The caller's own view of the game (see :func:`view_for`)."""
        return await view_for(self.bot, self.interaction)

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
