"""``/settings``: a user's own preferences, for every game. ``/settings prompts`` turns
the private prompt that comes with each phase on or off (``bot.features.prompts.prompts``), or
says what it is now; ``/settings timezone`` sets, clears or shows the user's time zone
(``bot.core.time_zones``), suggested as they type."""

from __future__ import annotations

from datetime import UTC, datetime

import discord
from discord import app_commands
from discord.ext import commands

from bot.core.time_zones import local, set_time_zone, time_zone_of, utc_offset, zones_matching
from bot.discord.context import Ctx
from bot.discord.groups import group
from bot.discord.translator import L
from bot.features.prompts.prompts import prompts_of, set_prompts
from bot.i18n import t
from bot.render.replies import notice_embed

STATE_CHOICES = [
    app_commands.Choice(name=L(f"cmd.choice.prompts_{v}"), value=v) for v in ("on", "off")
]


CLEAR_WORDS = frozenset({"off", "none", "clear", "关", "关闭", "无", "清除"})


class Settings(commands.Cog):
    """A user's own preferences: ``/settings prompts``, ``/settings timezone``."""

    position = 150  # where a shared group lists its commands (bot.discord.features)

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

    @settings.command(name=L("cmd.name.timezone"), description=L("cmd.desc.settings_timezone"))
    @app_commands.rename(zone=L("cmd.name.zone"))
    @app_commands.describe(zone=L("cmd.param.zone"))
    async def timezone(self, interaction: discord.Interaction, zone: app_commands.Range[str, 1, 64] | None = None) -> None:
        ctx = await Ctx.begin(interaction, idempotent=True)
        if zone is None:
            current = await time_zone_of(ctx.db, interaction.user.id)
            text = t("tz.unset", ctx.locale) if current is None else zone_text("tz.current", current, ctx.locale)
            await ctx.send(embed=notice_embed(text))
            return
        if zone.strip().casefold() in CLEAR_WORDS:
            await set_time_zone(ctx.db, ctx.user, None)
            await ctx.send(embed=notice_embed(t("tz.cleared", ctx.locale)))
            return
        chosen = await set_time_zone(ctx.db, ctx.user, zone)
        assert chosen is not None
        await ctx.send(embed=notice_embed(zone_text("tz.set", chosen, ctx.locale)))

    @timezone.autocomplete("zone")
    async def _zones(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        now = datetime.now(UTC)
        return [app_commands.Choice(name=f"{z} ({utc_offset(z, now)})", value=z) for z in zones_matching(current)]


def zone_text(key: str, zone: str, locale: str) -> str:
    now = datetime.now(UTC)
    return t(key, locale, zone=zone, offset=utc_offset(zone, now), time=f"{local(now, zone):%H:%M}")
