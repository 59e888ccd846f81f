"""A season's words: its name, the moderator's answers to ``/mod season``, the end post
(its summary and awards) and the seasons a player's ``/stats view`` lists, in the
reader's language."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

import discord

from bot.core.messages import SeasonEnded
from bot.core.outbox import OutgoingMessage
from bot.core.types import GameInfo
from bot.features.seasons.seasons import SeasonInfo
from bot.features.stats.stats import PlayerSeason
from bot.i18n import t, terms
from bot.render import words
from bot.render.outgoing import RENDERERS, Rendered

SEASON_COLOUR = 0xD97706
AWARD_ICONS = {"points": "🏆", "identifier": "🔍", "steady": "🕯️"}


def season_name(number: int, name: str | None, locale: str) -> str:
    """"Season 3" or "Season 3: Spring" (the name escaped)."""
    if name:
        return t("season.named", locale, number=number, name=words.player_name(name))
    return t("season.numbered", locale, number=number)


def info_name(season: SeasonInfo, locale: str) -> str:
    return season_name(season.number, season.name, locale)


def award_title(key: str, locale: str) -> str:
    if key.startswith("record_"):
        faction = key.removeprefix("record_")
        return t("season.award.record", locale, faction=terms.faction(faction, locale))
    return t(f"season.award.{key}", locale)


def award_figure(key: str, value: float, out_of: int, locale: str) -> str:
    if key.startswith("record_"):
        return t("season.figure.record", locale, percent=round(100 * value), out_of=out_of, count=out_of)
    if key == "identifier":
        return t("season.figure.identifier", locale, percent=round(100 * value), out_of=out_of, count=out_of)
    return t(f"season.figure.{key}", locale, value=int(value), count=int(value))


def award_line(a: dict[str, Any], locale: str) -> str:
    """One award of a season's end post: its title, the winners, the figure."""
    figure = award_figure(a["key"], float(a["value"]), int(a.get("out_of", 0)), locale)
    icon = AWARD_ICONS.get(a["key"], "🎖️")
    return t("season.award_line", locale, icon=icon, title=award_title(a["key"], locale), names=_names(a["names"], locale), figure=figure)


def _names(names: Sequence[str | None], locale: str) -> str:
    return words.listing([words.shown_name(n or "", locale) for n in names], locale)


def summary_embed(m: Any, locale: str) -> discord.Embed:
    """The end post of a season (a ``SeasonEnded`` message)."""
    embed = discord.Embed(title=t("season.ended_title", locale, season=season_name(m.number, m.name, locale)), colour=SEASON_COLOUR)
    lines = [t("season.ended_counts", locale, games=m.games, players=m.players, count=m.games)]
    lines.append(t("season.dates", locale, start=_date(m.started_at), end=_date(m.ended_at)))
    embed.description = "\n".join(lines)
    if m.top:
        top = [
            t("season.top_line", locale, rank=i, name=_names([r.get("name")], locale), rating=f"{float(r['rating']):.1f}",
              games=r["games"], wins=r["wins"])
            for i, r in enumerate(m.top, 1)
        ]  # fmt: skip
        embed.add_field(name=t("season.top", locale), value="\n".join(top)[:1024], inline=False)
    awards = [award_line(a, locale) for a in m.awards]
    embed.add_field(name=t("season.awards", locale), value=("\n".join(awards) or t("season.no_awards", locale))[:1024], inline=False)
    embed.set_footer(text=t("season.ended_footer", locale))
    return embed


def _date(iso: str) -> str:
    return f"<t:{int(datetime.fromisoformat(iso).timestamp())}:D>"


def started_embed(season: SeasonInfo, locale: str) -> discord.Embed:
    text = t("season.started", locale, season=info_name(season, locale))
    return discord.Embed(description=text, colour=SEASON_COLOUR)


def player_season_lines(seasons: Sequence[PlayerSeason], locale: str, shown: int = 3) -> list[str]:
    """A player's seasons in ``/stats view``, the latest first."""
    out = []
    for p in seasons[:shown]:
        key = "season.stats_line_open" if p.season.open else "season.stats_line"
        line = t(
            key, locale, season=info_name(p.season, locale), games=p.games, wins=p.wins, count=p.games,
            rating=f"{p.rating:.1f}", rank=p.rank if p.rank is not None else "—",
        )  # fmt: skip
        if p.awards:
            line += " · " + ", ".join(f"{AWARD_ICONS.get(k, '🎖️')} {award_title(k, locale)}" for k in p.awards)
        out.append(line)
    return out


def _season_ended(m: SeasonEnded, msg: OutgoingMessage, info: GameInfo | None, loc: str) -> Rendered:
    """In the channel a season was ended from: its summary and awards."""
    return Rendered(embeds=[summary_embed(m, loc)])


RENDERERS.add(SeasonEnded, _season_ended)
