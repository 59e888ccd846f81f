"""Watching a game from its gallery, on Discord: ``/game watch`` and ``/game unwatch``, in
the game's channel. The gallery is the game channel's room for the dead
(``bot.discord.guild.quiet_dead``): a spectator is let in there and muted in the game
channel, as the departed are, by the same sync the reconciler runs after any change or
restart (the spectators are stored: ``bot.features.gallery.gallery``). Run here at once too, so
the reply can name a room already open."""

from __future__ import annotations

import discord
from discord.ext import commands

from bot.core.types import GameInfo
from bot.discord.context import Ctx
from bot.discord.errors import ReplyError
from bot.discord.groups import command
from bot.discord.guild.quiet_dead import (
    find_dead_channel,
    quiet_dead_on,
    recorded_room,
    sync_quiet_dead,
)
from bot.discord.guild.quiet_notes import tell_moderator
from bot.features.gallery.gallery import unwatch_game, watch_game
from bot.features.lobby.games import game_in_channel
from bot.i18n import t
from bot.render.replies import notice_embed


async def _game_here(ctx: Ctx) -> GameInfo:
    """The live game of the channel the command is used in."""
    channel_id = ctx.interaction.channel_id
    info = await game_in_channel(ctx.db, channel_id) if channel_id is not None else None
    if info is None:
        raise ReplyError("reply.error.watch_where")
    return info


async def _room(ctx: Ctx, info: GameInfo) -> discord.TextChannel | None:
    """The game's gallery (its dead channel), None when quiet dead is off there; a
    ReplyError when it is off."""
    guild = ctx.bot.get_guild(info.guild_id) if info.guild_id is not None else None
    channel = guild.get_channel(info.channel_id) if guild is not None else None
    if not isinstance(channel, discord.TextChannel):
        return None
    recorded = await recorded_room(ctx.bot, channel.id)
    if not quiet_dead_on(channel, recorded):
        raise ReplyError("gallery.off", game=info.id)
    return find_dead_channel(channel.guild, channel.id, recorded)


def _shown(info: GameInfo, locale: str) -> str:
    return t(f"gallery.shown_{info.settings.gallery}", locale)


class Gallery(commands.Cog):
    """The gallery: ``/game watch``, ``/game unwatch``."""

    position = 20  # where a shared group lists its commands (bot.discord.features)

    @command("game", "watch")
    async def watch(self, interaction: discord.Interaction) -> None:
        ctx = await Ctx.begin(interaction)
        game = await _game_here(ctx)
        if not game.practice:
            await _room(ctx, game)  # refused where quiet dead is off: there is no gallery
        watching = await watch_game(ctx.db, game.id, ctx.user, await ctx.standing(game))
        info, loc = watching.info, ctx.locale
        if info.version >= 1:  # started: in at once (the reconciler would do it too)
            await tell_moderator(ctx.bot, info, await sync_quiet_dead(ctx.bot, info))
        room = await _room(ctx, info)
        mention = room.mention if room is not None else "—"
        if watching.status == "departed":
            text = t("gallery.departed", loc, game=info.id, room=mention)
        elif watching.status == "again":
            text = t("gallery.again", loc, game=info.id, room=mention)
        elif info.status == "lobby":
            text = t("gallery.watching_lobby", loc, game=info.id, room=mention, shown=_shown(info, loc))
        else:
            text = t("gallery.watching", loc, game=info.id, room=mention, shown=_shown(info, loc), channel=f"<#{info.channel_id}>")
        await ctx.send(embed=notice_embed(text))

    @command("game", "unwatch")
    async def unwatch(self, interaction: discord.Interaction) -> None:
        ctx = await Ctx.begin(interaction)
        game = await _game_here(ctx)
        info = await unwatch_game(ctx.db, game.id, interaction.user.id)
        if info.version >= 1:
            await tell_moderator(ctx.bot, info, await sync_quiet_dead(ctx.bot, info))
        key = "gallery.unwatched_lobby" if info.status == "lobby" else "gallery.unwatched"
        await ctx.send(embed=notice_embed(t(key, ctx.locale, game=info.id, channel=f"<#{info.channel_id}>")))
