"""Absent players, on Discord: ``/standby join`` and ``/standby leave`` (a game's standby
list, for anyone not playing) and ``/absence`` (a moderator's view and change of the
game's absence policy). They are top-level commands because Discord limits the size of
one command with all its options (4,000 characters), and ``/game`` has reached it."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

import bot.service as service
from bot.discord.checks import require_moderator
from bot.discord.cogs import CONTEXTS, INSTALLS, Groups, top_level
from bot.discord.context import Ctx, moderated_game
from bot.discord.durations import parse_duration
from bot.discord.errors import ReplyError
from bot.discord.replies import notice_embed, settings_embed
from bot.discord.translator import L
from bot.discord.views.lobby import refresh_lobby
from bot.i18n import t

ACTIONS = [app_commands.Choice(name=L(f"cmd.choice.absence_{v}"), value=v) for v in ("replace", "remove", "notify")]


async def _standby_game(ctx: Ctx, game_id: int | None) -> int:
    """The game named, else the live game of the channel the command is used in."""
    if game_id is not None:
        return game_id
    if ctx.interaction.guild_id is not None and ctx.interaction.channel_id is not None:
        info = await service.game_in_channel(ctx.db, ctx.interaction.channel_id)
        if info is not None:
            return info.id
    raise ReplyError("absence.which")


def policy_changes(misses: int | None, action: Any, offer_time: str | None) -> dict[str, Any]:
    """The options of ``/absence`` as GameSettings fields."""
    out: dict[str, Any] = {}
    if misses is not None:
        out["absence_misses"] = misses
    if action is not None:
        out["absence_action"] = action.value
    if offer_time is not None:
        out["offer_seconds"] = parse_duration(offer_time)
    return out


def install(tree: app_commands.CommandTree, groups: Groups) -> None:
    standby = app_commands.Group(
        name=L("cmd.name.standby"), description=L("cmd.desc.standby"), allowed_contexts=CONTEXTS, allowed_installs=INSTALLS
    )

    @standby.command(name=L("cmd.name.join"), description=L("cmd.desc.standby_join"))
    @app_commands.rename(game_id=L("cmd.name.game_id"))
    @app_commands.describe(game_id=L("cmd.param.standby_game"))
    async def join(interaction: discord.Interaction, game_id: app_commands.Range[int, 1] | None = None) -> None:
        ctx = await Ctx.begin(interaction)
        game_id = await _standby_game(ctx, game_id)
        waiting = await service.join_standby(ctx.db, game_id, ctx.user)
        await ctx.send(embed=notice_embed(t("absence.standby_joined", ctx.locale, game=game_id, count=waiting)))

    @standby.command(name=L("cmd.name.leave"), description=L("cmd.desc.standby_leave"))
    @app_commands.rename(game_id=L("cmd.name.game_id"))
    @app_commands.describe(game_id=L("cmd.param.standby_game"))
    async def leave(interaction: discord.Interaction, game_id: app_commands.Range[int, 1] | None = None) -> None:
        ctx = await Ctx.begin(interaction)
        info = await service.leave_standby(ctx.db, await _standby_game(ctx, game_id), interaction.user.id)
        ctx.bot.wake_dispatcher()  # an offer withdrawn: the next standby is asked
        await ctx.send(embed=notice_embed(t("absence.standby_left", ctx.locale, game=info.id)))

    @top_level("absence")
    @app_commands.rename(misses=L("cmd.name.absence_misses"), action=L("cmd.name.absence_action"), offer_time=L("cmd.name.offer_time"))
    @app_commands.describe(misses=L("cmd.param.absence_misses"), action=L("cmd.param.absence_action"), offer_time=L("cmd.param.offer_time"))
    @app_commands.choices(action=ACTIONS)
    async def absence(
        interaction: discord.Interaction,
        misses: app_commands.Range[int, 0, 10] | None = None,
        action: app_commands.Choice[str] | None = None,
        offer_time: str | None = None,
    ) -> None:
        ctx = await Ctx.begin(interaction)
        info = await moderated_game(ctx.bot, interaction)
        await require_moderator(ctx.bot, interaction, info)
        changes = policy_changes(misses, action, offer_time)
        if changes:
            info = await service.update_settings(ctx.db, info.id, **changes)
            channel = ctx.bot.get_channel(info.channel_id)
            if info.status == "lobby" and isinstance(channel, discord.abc.Messageable):
                await refresh_lobby(channel, info)  # the lobby post shows the policy
        await ctx.send(embed=settings_embed(info, ctx.locale))

    tree.add_command(standby)
    tree.add_command(absence)
