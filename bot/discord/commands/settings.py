"""``/settings``: a user's own preferences, for every game. ``/settings prompts`` turns
the private prompt that comes with each phase on or off (``bot.service.prompts``), or
says what it is now."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord.commands.groups import group
from bot.discord.context import Ctx
from bot.discord.embeds.replies import notice_embed
from bot.discord.translator import L
from bot.i18n import t
from bot.service.prompts import prompts_of, set_prompts

STATE_CHOICES = [
    app_commands.Choice(name=L(f"cmd.choice.prompts_{v}"), value=v) for v in ("on", "off")
]


class Settings(commands.Cog):
    """A user's own preferences: ``/settings prompts``."""

    settings = group("settings")

    @settings.command(name=L("cmd.name.prompts"), description=L("cmd.desc.settings_prompts"))
    @app_commands.rename(state=L("cmd.name.state"))
    @app_commands.describe(state=L("cmd.param.prompts_state"))
    @app_commands.choices(state=STATE_CHOICES)
    async def prompts(
        self, interaction: discord.Interaction, state: app_commands.Choice[str] | None = None
    ) -> None:
        ctx = await Ctx.begin(interaction, idempotent=True)
        if state is None:
            chosen = await prompts_of(ctx.db, interaction.user.id)
            key = (
                "prompts.state_default"
                if chosen is None
                else f"prompts.state_{'on' if chosen else 'off'}"
            )
            await ctx.send(embed=notice_embed(t(key, ctx.locale)))
            return
        on = state.value == "on"
        user = ctx.user
        changed = await set_prompts(ctx.db, interaction.user.id, user.name, user.locale, on)
        await ctx.send(
            embed=notice_embed(
                t(f"prompts.{state.value}_{'now' if changed else 'already'}", ctx.locale)
            )
        )
