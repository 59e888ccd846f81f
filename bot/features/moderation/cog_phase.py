"""``/phase``, the running game's clock, for its moderators: ``advance`` (close the open
phase now), ``extend`` (more time), ``pause`` and ``resume``. Registered with the same
default permission as ``/mod`` (``bot.discord.groups``); each is a command of
``bot.features.moderation.commands`` done by ``service.moderate``, which checks the
moderator at run time as for ``/mod``."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.core.types import MAX_PHASE_SECONDS
from bot.discord.context import Ctx
from bot.discord.durations import parse_duration
from bot.discord.groups import command
from bot.discord.translator import L
from bot.features.moderation.commands import AdvancePhase, ExtendDeadline, PauseGame, ResumeGame
from bot.i18n import t
from bot.render.durations import format_duration
from bot.render.replies import closing_line, deadline_line, notice_embed, phase_name


async def pause_or_resume(interaction: discord.Interaction, change: type[PauseGame | ResumeGame], said: str) -> None:
    ctx = await Ctx.begin(interaction)
    info = await ctx.moderate(change())
    await ctx.send(embed=notice_embed(t(said, ctx.locale, game=info.id)))


class Phase(commands.Cog):
    """The clock of a game: ``/phase advance|extend|pause|resume``."""

    position = 70  # where a shared group lists its commands (bot.discord.features)

    @command("phase", "advance")
    async def advance(self, interaction: discord.Interaction) -> None:
        ctx = await Ctx.begin(interaction)
        result = await ctx.moderate(AdvancePhase())
        if result.over:
            text = t("reply.advanced_over", ctx.locale, game=result.game_id)
        else:
            text = t("reply.advanced", ctx.locale, closed=phase_name(result.closed_phase, ctx.locale), phase=phase_name(result.phase, ctx.locale), round=result.round, closes=closing_line(result.deadline, ctx.locale))
        await ctx.send(embed=notice_embed(text))

    @command("phase", "extend")
    @app_commands.rename(duration=L("cmd.name.duration"))
    @app_commands.describe(duration=L("cmd.param.duration"))
    async def extend(self, interaction: discord.Interaction, duration: str) -> None:
        ctx = await Ctx.begin(interaction)
        seconds = parse_duration(duration, low=60, high=MAX_PHASE_SECONDS)
        info = await ctx.moderate(ExtendDeadline(seconds))
        if info.status == "paused":
            text = t("reply.extended_paused", ctx.locale, duration=format_duration(info.paused_remaining or 0, ctx.locale))
        else:
            text = t("reply.extended", ctx.locale, deadline=deadline_line(info.deadline, ctx.locale))
        await ctx.send(embed=notice_embed(text))

    @command("phase", "pause")
    async def pause(self, interaction: discord.Interaction) -> None:
        await pause_or_resume(interaction, PauseGame, "reply.paused")

    @command("phase", "resume")
    async def resume(self, interaction: discord.Interaction) -> None:
        await pause_or_resume(interaction, ResumeGame, "reply.resumed")
