"""What every answer shares: a plain notice and the colours of a receipt and of
information, each seat's name as a message's text shows it, the table as lines, a phase's
name, its deadline and when it closes. Short lines, so they read well on a phone; a feature's own embeds are
its look (``bot/features/<name>/look.py``)."""

from __future__ import annotations

from datetime import datetime

import discord

from bot.core.types import GameInfo
from bot.i18n import t
from bot.render import words

OK_COLOUR = 0x15803D
INFO_COLOUR = 0x4B5563


def notice_embed(text: str, colour: int = OK_COLOUR) -> discord.Embed:
    return discord.Embed(description=text[:4096], colour=colour)


def names_of(info: GameInfo, locale: str | None) -> dict[int, str]:
    """Seat -> name, escaped for the text of a message (``words.shown_name``)."""
    return {p.seat: words.shown_name(p.name, locale) for p in info.players if p.seat is not None}


def player_lines(info: GameInfo) -> list[str]:
    lines = []
    for i, p in enumerate(info.players, start=1):
        seat = p.seat if p.seat is not None else i
        lines.append(f"{seat}. {words.player_name(p.name)}" + ("" if p.alive else " 💀"))
    return lines


def ts(when: datetime | None) -> int | None:
    return int(when.timestamp()) if when is not None else None


def deadline_line(when: datetime | None, locale: str) -> str:
    stamp = ts(when)
    return f"<t:{stamp}:R>" if stamp else t("reply.no_deadline", locale)


def closing_line(when: datetime | None, locale: str) -> str:
    """When the phase closes, in running text: "closes in 2 hours", "2小时后截止"."""
    stamp = ts(when)
    return t("reply.closes", locale, when=f"<t:{stamp}:R>") if stamp else t("reply.closes_manual", locale)


def phase_name(phase: str | None, locale: str) -> str:
    return t(f"phase.{phase}", locale) if phase in ("day", "dusk", "morning", "over") else t("reply.lobby_phase", locale)
