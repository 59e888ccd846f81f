"""Embed fields for lists that may outgrow Discord's 1,024 characters a field: a table
of 15 long names, everything a player has learned. Lines are never cut: the list goes on
in further fields under a blank name."""

from __future__ import annotations

from collections.abc import Iterable

import discord

FIELD_LIMIT = 1024
BLANK = "\u200b"  # a field's name may not be empty


def chunks(lines: Iterable[str], limit: int = FIELD_LIMIT) -> list[str]:
    """``lines`` joined by newlines into as few values of at most ``limit`` characters as
    they fit in, whole lines each (a single line longer than ``limit`` is cut)."""
    out: list[str] = []
    current = ""
    for line in lines:
        line = line[:limit]
        if current and len(current) + 1 + len(line) > limit:
            out.append(current)
            current = line
        else:
            current = f"{current}\n{line}" if current else line
    if current:
        out.append(current)
    return out


def add_lines(embed: discord.Embed, name: str, lines: Iterable[str], *, empty: str = "—") -> None:
    """Add ``lines`` under ``name``, in as many fields as they need."""
    for i, value in enumerate(chunks(lines) or [empty]):
        embed.add_field(name=name if i == 0 else BLANK, value=value, inline=False)
