"""``/mod lineup``: see or choose a game's line-up in the lobby (a preset or the classes
of each faction, suggested as one types), then the simulated odds follow on the lobby
post. The choice is a setting like the house rules: fixed once the classes are dealt."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.core.lineup_odds import table_size
from bot.core.types import GameInfo
from bot.discord.context import Ctx
from bot.discord.groups import command
from bot.discord.translator import L
from bot.features.lineup.look import add_lineup_fields, classes_text, lineup_name, setting_line
from bot.features.lobby.components import refresh_lobby
from bot.features.moderation.commands import ChooseLineup
from bot.i18n import normalize_locale, refusal_text, t
from bot.render.replies import INFO_COLOUR
from engine import RuleViolation
from engine import lineup as lineups

MAX_CHOICE = 100  # Discord's limit on an autocomplete choice's name and value


def lineup_embed(info: GameInfo, locale: str, *, pending: bool) -> discord.Embed:
    embed = discord.Embed(title=t("lineup.title", locale, game=info.id), description=setting_line(info.settings, locale), colour=INFO_COLOUR)
    return add_lineup_fields(embed, info.odds, locale, pending=pending)


def suggestions(current: str, players: int, locale: str) -> list[app_commands.Choice[str]]:
    """The presets at this size (named with their classes), and what is typed, read as a
    line-up: accepted, or the reason it is not."""
    out: list[app_commands.Choice[str]] = []
    typed = current.strip()
    if any(ch in typed for ch in "/;|／；"):
        try:
            lineup = lineups.parse(typed)
            text = lineup.text()
            if len(text) <= MAX_CHOICE:
                out.append(app_commands.Choice(name=t("lineup.choice_custom", locale, classes=classes_text(lineup, locale))[:MAX_CHOICE], value=text))
        except RuleViolation as exc:
            out.append(app_commands.Choice(name=t("lineup.choice_bad", locale, reason=refusal_text(exc, locale))[:MAX_CHOICE], value=typed[:MAX_CHOICE]))
    matching = [n for n in lineups.PRESETS if typed.casefold() in f"{n} {lineup_name(n, locale)}".casefold()]
    for name in matching or lineups.PRESETS:
        label = lineup_name(name, locale)
        dealt = lineups.preset(name, players)
        about = classes_text(dealt, locale) if dealt is not None else t("lineup.about_random", locale)
        out.append(app_commands.Choice(name=f"{label} — {about}"[:MAX_CHOICE], value=name))
    return out[:25]


class Lineup(commands.Cog):
    """The line-up and its odds: ``/mod lineup``."""

    position = 40  # where a shared group lists its commands (bot.discord.features)

    @command("mod", "lineup")
    @app_commands.rename(lineup=L("cmd.name.lineup"))
    @app_commands.describe(lineup=L("cmd.param.lineup"))
    async def lineup(self, interaction: discord.Interaction, lineup: str | None = None) -> None:
        ctx = await Ctx.begin(interaction)
        info = await ctx.moderate(ChooseLineup(lineup))
        if lineup is not None:
            channel = ctx.bot.get_channel(info.channel_id)
            if info.status == "lobby" and isinstance(channel, discord.abc.Messageable):
                await refresh_lobby(ctx.bot, channel, info.id)
        ctx.bot.odds.ensure(info)  # in the background: the reply does not wait for it
        pending = bool(ctx.bot.odds.games) and info.odds is not None and not info.odds.known
        await ctx.send(embed=lineup_embed(info, ctx.locale, pending=pending))

    @lineup.autocomplete("lineup")
    async def _suggest(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        info = await interaction.client.tables.get(interaction.client, interaction, moderating=True)  # type: ignore[attr-defined]
        players = 15 if info is None else table_size(info.settings, len(info.players))
        return suggestions(current, players, normalize_locale(str(interaction.locale)))
