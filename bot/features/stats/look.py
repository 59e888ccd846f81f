"""``/stats`` and ``/leaderboard`` answers as embeds, in the reader's language (the chart
itself is drawn by :mod:`bot.features.stats.look_chart` from plain figures)."""

from __future__ import annotations

import discord

from bot.features.records.reliability import NEW_BELOW, Reliability
from bot.features.seasons.look import info_name, player_season_lines
from bot.features.stats.leaderboard import Board, BoardRow
from bot.features.stats.look_chart import stats_png
from bot.features.stats.stats import INTERVAL_MIN_GAMES, PlayerStats
from bot.i18n import t, terms
from bot.render import words
from bot.render.fields import add_lines

STATS_COLOUR = 0x7C3AED
CHART_FILE = "stats.png"


def percent(x: float) -> str:
    return f"{round(100 * x)}%"


def chart_png(stats: PlayerStats, locale: str) -> bytes:
    return stats_png({c: (x.wins, x.games) for c, x in stats.by_class.items()}, stats.form, locale)


def reliability_line(found: Reliability, here: bool, locale: str) -> str:
    """The player's reliability and the games it is over; "new" below the few games it needs."""
    if found.percent is None:
        return t("reliability.stats_new", locale, min=NEW_BELOW)
    return t("reliability.stats" if here else "reliability.stats_all", locale, percent=found.percent, games=found.games)


def stats_embed(stats: PlayerStats, name: str, locale: str) -> discord.Embed:
    """``name``: the player's display name as they chose it (escaped here)."""
    scope = t("stats.scope_here" if stats.guild_id is not None else "stats.scope_all", locale)
    lines = [t("stats.summary", locale, count=stats.games, games=stats.games, wins=stats.wins, rate=percent(stats.win_rate))]
    if stats.interval is not None:
        lines.append(t("stats.interval", locale, low=percent(stats.interval[0]), high=percent(stats.interval[1])))
    else:
        lines.append(t("stats.interval_later", locale, min=INTERVAL_MIN_GAMES))
    if stats.rating is not None:
        lines.append(t("stats.rating", locale, rating=f"{stats.rating:.1f}"))
    lines.append(reliability_line(stats.reliability, stats.guild_id is not None, locale))
    seasons = player_season_lines(stats.seasons, locale)
    embed = discord.Embed(title=t("stats.title", locale, name=words.player_name(name)), description="\n".join(lines), colour=STATS_COLOUR)
    embed.set_author(name=scope)
    add_lines(embed, t("stats.by_faction", locale), [
        t("stats.tally", locale, name=terms.faction(f, locale), wins=x.wins, games=x.games, rate=percent(x.rate))
        for f, x in stats.by_faction.items()
    ])
    add_lines(embed, t("stats.by_class", locale), [
        t("stats.tally", locale, name=terms.class_name(c, locale), wins=x.wins, games=x.games, rate=percent(x.rate))
        for c, x in stats.by_class.items()
    ])
    play = [
        t("stats.survived", locale, survived=stats.survived, games=stats.games),
        t("stats.kills", locale, kills=stats.kills, teamkills=stats.teamkills),
        t("stats.steals", locale, steals=stats.steals, grails=stats.grails),
    ]
    if stats.favourite_class:
        play.append(t("stats.favourite", locale, name=terms.class_name(stats.favourite_class, locale)))
    add_lines(embed, t("stats.play", locale), play)
    if seasons:
        add_lines(embed, t("season.stats_title", locale), seasons)
    add_lines(embed, t("stats.recent", locale), [
        t(
            "stats.recent_line", locale, game=g.game_id, date=f"<t:{int(g.ended_at.timestamp())}:d>",
            class_name=terms.class_name(g.class_id, locale), faction=terms.faction(g.faction, locale),
            result=t(f"stats.result.{g.result}", locale), fate=t(f"stats.fate.{g.fate}", locale),
        )
        for g in stats.recent
    ])
    embed.set_image(url=f"attachment://{CHART_FILE}")
    return embed


def board_line(row: BoardRow, sort: str, locale: str) -> str:
    return t(
        f"leaderboard.row_{sort}", locale, rank=row.rank, name=words.player_name(row.name), games=row.games,
        wins=row.wins, rate=percent(row.win_rate), rating=f"{row.rating:.1f}", brier=f"{row.brier:.3f}" if row.brier is not None else "",
    )


def leaderboard_embed(board: Board, locale: str) -> discord.Embed:
    embed = discord.Embed(
        title=t("leaderboard.title", locale, sort=t(f"leaderboard.sort.{board.sort}", locale)), colour=STATS_COLOUR
    )
    if board.season is not None:
        key = "season.board_open" if board.season.open else "season.board_ended"
        embed.set_author(name=t(key, locale, season=info_name(board.season, locale)))
    elif board.sort != "predictions":
        embed.set_author(name=t("season.board_all_time", locale))
    lines = [board_line(r, board.sort, locale) for r in board.rows]
    if board.sort in ("win_rate", "predictions"):
        lines.insert(0, t(f"leaderboard.min_games{'_predictions' if board.sort == 'predictions' else ''}", locale, min=board.min_games))
    if not board.rows:
        lines.append(t("leaderboard.empty", locale))
    embed.description = "\n".join(lines)
    if board.own is not None:
        embed.add_field(name=t("leaderboard.you", locale), value=board_line(board.own, board.sort, locale), inline=False)
    embed.set_footer(text=t("leaderboard.footer", locale, page=board.page, pages=board.pages, total=board.total, count=board.total))
    return embed
