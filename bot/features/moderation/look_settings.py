"""How the settings read: the settings embed of /mod settings and the lobby post's
settings field, made from the settings' declaration (``cog_settings``, each setting with
its line), and a lobby's start time."""

from __future__ import annotations

import discord

from bot.core.types import HOUSE_RULES, GameInfo, GameSettings
from bot.features.moderation import cog_settings as game_settings
from bot.features.moderation.look import ai_count
from bot.i18n import t
from bot.render.replies import INFO_COLOUR, ts


def settings_lines(s: GameSettings, locale: str, ai: int | None = None) -> str:
    """The settings, one line each; ``ai``: how many seats the AI holds now (by default
    the fixed count the settings ask for)."""
    return "\n".join(game_settings.lines(s, locale, s.ai_seats if ai is None else ai))


def house_rule_lines(s: GameSettings, locale: str) -> list[str]:
    """The game's house rules and its line-up, one line each, as the options' choices name them."""
    return game_settings.lines(s, locale, s.ai_seats, names=(*HOUSE_RULES, "lineup"))


def start_line(info: GameInfo, locale: str) -> str | None:
    """A lobby's start time and what happens at it, if it has one."""
    if info.start_at is None or info.status != "lobby":
        return None
    return t("lobby_start.line", locale, ts=ts(info.start_at), min=6)


def settings_embed(info: GameInfo, locale: str, quiet_dead: bool | None = None) -> discord.Embed:
    embed = discord.Embed(title=t("reply.settings.title", locale, game=info.id), description=settings_lines(info.settings, locale, ai_count(info)), colour=INFO_COLOUR)
    if quiet_dead is not None:
        embed.description = (embed.description or "") + "\n" + t("reply.settings.quiet_dead", locale, value=t("reply.yes" if quiet_dead else "reply.no", locale))
    start = start_line(info, locale)
    if start:
        embed.description = (embed.description or "") + "\n" + start
    return embed
