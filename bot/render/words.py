"""Text shaping for posts and replies: lists, clauses, sentences, players' names and seats.

The game's nouns themselves (factions, classes, skills...) are in :mod:`bot.i18n.terms`."""

from __future__ import annotations

import re
from collections.abc import Iterable

import discord

from bot.i18n import t


def listing(items: Iterable[str], locale: str | None) -> str:
    """Items as a list in running text: "a, b, c" in English, "a、b、c" in Chinese."""
    return t("ui.list_sep", locale).join(items)


def clauses(items: Iterable[str], locale: str | None) -> str:
    """Whole statements in one line: "a; b" in English, "a；b" in Chinese."""
    return t("ui.clause_sep", locale).join(items)


def sentences(items: Iterable[str], locale: str | None) -> str:
    """Sentences one after the other: "A. B." in English, "甲。乙。" (no space) in Chinese."""
    return t("ui.sentence_sep", locale).join(items)


# Direction overrides and isolates: in a name they would turn the rest of a line around.
BIDI_CONTROLS = dict.fromkeys(map(ord, "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"))


def player_name(name: str) -> str:
    """A player's display name as it may appear in a post or a reply. Players choose
    their names: escaped, a name cannot format the text around it (bold, links,
    spoilers), mention anyone, or reverse the line it stands in."""
    return discord.utils.escape_mentions(discord.utils.escape_markdown(name.translate(BIDI_CONTROLS)))


def shown_name(name: str, locale: str | None) -> str:
    """A seat holder's name as a post, a reply or a page shows it (``player_name``), or
    "a former player" for one who asked to be forgotten: forgetting leaves their seats
    no name at all (bot.features.stats.privacy), and no Discord name is empty."""
    return player_name(name) if name else t("stats.former_player", locale)


def seat_name(seat: int, name: str | None) -> str:
    """The one way a post, a reply, a menu or a page names a player: "#12 阿杰" (the seat
    alone when it has no name). ``name`` as the medium needs it (``shown_name`` for a
    message's text)."""
    return f"#{seat} {name}" if name else f"#{seat}"


SEAT_NAME = re.compile(r"#(?P<seat>\d{1,2})(?: (?P<name>.+))?")


def seat_label(seat: int, names: dict[int, str]) -> str:
    """:func:`seat_name` of ``seat`` with its name from ``names`` (seat -> shown name)."""
    return seat_name(seat, names.get(seat))
