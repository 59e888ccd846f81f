"""How ``/game history`` shows a server's finished games: a line each (winners, rounds,
the players), ten to a page."""

from __future__ import annotations

import discord

from bot.features.history.history import FinishedGame, HistoryPage
from bot.i18n import t, terms
from bot.render import words

SHOWN_NAMES = 8  # names on a game's line; the rest counted
COLOUR = 0x10B981


def game_line(g: FinishedGame, locale: str) -> str:
    winners = words.listing((terms.faction(w, locale) for w in g.winners), locale) or t("history.nobody", locale)
    names = [words.shown_name(n, locale) for n in g.players[:SHOWN_NAMES]]
    if len(g.players) > SHOWN_NAMES:
        names.append(t("history.more", locale, count=len(g.players) - SHOWN_NAMES))
    date = f"<t:{int(g.ended_at.timestamp())}:d>" if g.ended_at else "—"
    return t("history.line", locale, game=g.id, date=date, rounds=g.rounds, count=g.rounds, winners=winners, players=words.listing(names, locale))


def history_embed(page: HistoryPage, locale: str) -> discord.Embed:
    embed = discord.Embed(title=t("history.title", locale), colour=COLOUR)
    if not page.games:
        embed.description = t("history.empty", locale)
        return embed
    embed.description = "\n\n".join(game_line(g, locale) for g in page.games)[:4096]
    embed.set_footer(text=t("history.page", locale, page=page.page, pages=page.pages, count=page.total))
    return embed
