"""Joining and leaving a game before it starts: ``/game join``, ``/game leave`` and the
lobby post's buttons, which share one flow each."""

from __future__ import annotations

import discord
from discord.ext import commands

import bot.service as service
from bot.discord.commands.groups import command
from bot.discord.components.lobby import is_lobby_post, refresh_lobby
from bot.discord.context import Ctx
from bot.discord.embeds.replies import notice_embed
from bot.discord.errors import ReplyError
from bot.i18n import t
from bot.service.types import GameInfo


async def _lobby_here(ctx: Ctx) -> int:
    """/game join names no game: it is the one of the channel it is used in."""
    interaction = ctx.interaction
    if interaction.guild_id is None or interaction.channel_id is None:
        raise ReplyError("reply.error.join_where")
    info = await service.game_in_channel(ctx.db, interaction.channel_id)
    if info is None:
        raise ReplyError("reply.error.no_game_here")
    return info.id


async def join_flow(interaction: discord.Interaction, game_id: int | None) -> None:
    ctx = await Ctx.begin(interaction)
    if game_id is None:
        game_id = await _lobby_here(ctx)
    game = await service.get_game(ctx.db, game_id)
    info = await service.join_game(ctx.db, game.id, ctx.user, await ctx.standing(game))
    await _refresh(ctx, info)
    await ctx.send(
        embed=notice_embed(t("reply.joined", ctx.locale, game=info.id, count=len(info.players), max=info.settings.max_players))
    )


async def leave_flow(interaction: discord.Interaction, game_id: int | None) -> None:
    ctx = await Ctx.begin(interaction)
    if game_id is None:
        game_id = (await ctx.game()).id
    info = await service.leave_game(ctx.db, game_id, interaction.user.id)
    await _refresh(ctx, info)
    await ctx.send(embed=notice_embed(t("reply.left", ctx.locale, game=info.id)))


async def _refresh(ctx: Ctx, info: GameInfo) -> None:
    """Show the new roster on the game's lobby post, in the game's own channel: the
    message whose button was pressed only when it is that post (a button's id names a
    game, not the message it sits on)."""
    interaction = ctx.interaction
    channel = interaction.channel if interaction.channel_id == info.channel_id else ctx.bot.messageable(info.channel_id, info.guild_id)
    if not isinstance(channel, discord.abc.Messageable):
        return
    pressed = interaction.message if interaction.type is discord.InteractionType.component else None
    message = pressed if pressed is not None and pressed.channel.id == info.channel_id and is_lobby_post(pressed, info.id) else None
    await refresh_lobby(channel, info, message)


class Lobby(commands.Cog):
    """Joining and leaving a game's lobby: ``/game join``, ``/game leave``."""

    @command("game", "join")
    async def join(self, interaction: discord.Interaction) -> None:
        await join_flow(interaction, None)

    @command("game", "leave")
    async def leave(self, interaction: discord.Interaction) -> None:
        await leave_flow(interaction, None)
