"""How a line-up and its odds read: the setting's one line, the classes of each faction
and the simulated win rates with their 95% intervals (a warning when a faction falls
outside the balance target), for the lobby post, /mod lineup and the settings."""

from __future__ import annotations

import discord

from bot.ai.odds import TARGET_WIN, off_target, rate_and_interval
from bot.core.types import GameSettings, LineupOdds
from bot.i18n import t, terms
from bot.render import words
from engine import lineup as lineups
from engine.values import FACTIONS


def lineup_name(choice: str, locale: str) -> str:
    """A stored line-up setting as a moderator knows it: a preset's name, or the classes."""
    if lineups.is_preset(choice):
        return t(f"lineup.name_{choice}", locale)
    return f"{t('lineup.name_custom', locale)} ({classes_text(lineups.parse(choice), locale)})"


def setting_line(s: GameSettings, locale: str) -> str:
    return t("lineup.setting", locale, value=lineup_name(s.lineup, locale))


def classes_text(lineup: lineups.Lineup, locale: str) -> str:
    """``Warrior, Monk / Barbarian, Druid / Bard, Ranger``: Lawful first."""
    return " / ".join(", ".join(terms.class_name(c, locale) for c in row) for row in lineup.rows)


def faction_lines(lineup_text: str | None, locale: str) -> str:
    """The classes of each faction, one line each (the deal by lot, said so)."""
    if lineup_text is None:
        return t("lineup.random_body", locale)
    lineup = lineups.parse(lineup_text)
    return "\n".join(
        t(
            "lineup.faction_line",
            locale,
            faction=terms.faction(f.value, locale),
            classes=words.listing((terms.class_name(c, locale) for c in lineup.of(f)), locale),
        )
        for f in FACTIONS
    )


def _pct(x: float) -> str:
    return f"{x:.0%}"


def odds_text(odds: LineupOdds, locale: str) -> str:
    """The win rate of each faction with its interval, the median length, and whether
    every faction is within the balance target."""
    lo, hi = TARGET_WIN
    lines, outside = [], []
    for f in FACTIONS:
        rate, low, high = rate_and_interval(odds.wins.get(f.value, 0), odds.games)
        name = terms.faction(f.value, locale)
        lines.append(t("lineup.odds_line", locale, faction=name, rate=_pct(rate), low=_pct(low), high=_pct(high)))
        if off_target(rate):
            outside.append(name)
    lines.append(t("lineup.odds_median", locale, rounds=f"{odds.median_rounds:g}"))
    if outside:
        lines.append(t("lineup.odds_warning", locale, low=_pct(lo), high=_pct(hi), factions=words.listing(outside, locale)))
    else:
        lines.append(t("lineup.odds_ok", locale, low=_pct(lo), high=_pct(hi)))
    return "\n".join(lines)


def add_lineup_fields(embed: discord.Embed, odds: LineupOdds | None, locale: str, *, pending: bool = False) -> discord.Embed:
    """The line-up at the size the lobby would start with and, once simulated, its odds
    (``pending``: say they are coming)."""
    if odds is None:
        return embed
    embed.add_field(name=t("lineup.field", locale, players=odds.players), value=faction_lines(odds.lineup, locale)[:1024], inline=False)
    if odds.known:
        embed.add_field(name=t("lineup.odds_field", locale, games=odds.games), value=odds_text(odds, locale)[:1024], inline=False)
    elif pending:
        embed.add_field(name=t("lineup.odds_field", locale, games="…"), value=t("lineup.odds_pending", locale), inline=False)
    return embed
