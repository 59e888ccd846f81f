"""A player argument: what a user types or picks for "which player".

Discord's user picker cannot list the players of a game in a DM, so every player option
is a string with autocomplete. It accepts what people actually paste: a seat (``3``,
``#3``, ``3号``), a name or the start of one, a mention (``<@123>``, ``<@!123>``) or a raw
user id, and the autocomplete's own values (the seat number).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from discord import app_commands

from bot.discord.errors import ReplyError
from bot.render import words
from bot.service.types import SeatInfo

MENTION = re.compile(r"^<@!?(\d{15,21})>$")
SEAT = re.compile(r"^(?:#|no\.?\s*|seat\s*)?(\d{1,2})(?:\s*号)?$", re.IGNORECASE)
SNOWFLAKE = re.compile(r"^\d{15,21}$")
MAX_CHOICES = 25


def seat_label(p: SeatInfo) -> str:
    return words.seat_name(p.seat or 0, p.name)


# Invisible characters a name may hide ("al\u200bice" is typed "alice").
INVISIBLE = dict.fromkeys(map(ord, "\u200b\u200c\u200d\u2060\ufeff"))


def _fold(text: str) -> str:
    return text.translate(INVISIBLE).casefold().strip().lstrip("@").strip()


def parse_player(text: str, players: Sequence[SeatInfo], *, allow_dead: bool = False, lobby: bool = False) -> SeatInfo:
    """The seated player ``text`` names, or a :class:`ReplyError` saying why not:
    no such player, several match (with their seats), or the player has left. Before
    the start nobody has a seat: the game has not started, unless ``lobby`` asks for a
    joined player (a moderator removing someone from the lobby)."""
    raw = (text or "").strip()
    if not raw:
        raise ReplyError("reply.error.player_missing")
    seated = [p for p in players if p.seat is not None]
    if not seated and players:
        if not lobby:
            raise ReplyError("reply.error.not_started")
        seated = list(players)
    found = _match(raw, seated)
    if found is None:
        raise ReplyError("reply.error.player_unknown", text=raw[:50])
    if isinstance(found, list):
        raise ReplyError("reply.error.player_ambiguous", text=raw[:50], candidates=[seat_label(p) for p in found[:8]])
    if not found.alive and not allow_dead:
        raise ReplyError("reply.error.player_gone", player=seat_label(found))
    return found


def _match(raw: str, seated: Sequence[SeatInfo]) -> SeatInfo | list[SeatInfo] | None:
    m = MENTION.match(raw)
    if m or SNOWFLAKE.match(raw):
        uid = int(m.group(1) if m else raw)
        return next((p for p in seated if p.user_id == uid), None)
    m = SEAT.match(raw)
    if m:
        seat = int(m.group(1))
        by_seat = next((p for p in seated if p.seat == seat), None)
        if by_seat is not None:
            return by_seat
    # "#3 Alice" (an autocomplete label pasted back) names seat 3.
    m = re.match(r"^#(\d{1,2})\s+\S", raw)
    if m:
        by_label = next((p for p in seated if p.seat == int(m.group(1))), None)
        if by_label is not None:
            return by_label
    want = _fold(raw)
    exact = [p for p in seated if _fold(p.name) == want]
    if len(exact) == 1:
        return exact[0]
    if len(exact) > 1:
        # "Bob" and "bob" at one table: the spelling typed tells them apart.
        same = [p for p in exact if p.name.strip() == raw.lstrip("@").strip()]
        return same[0] if len(same) == 1 else exact
    for test in (lambda n: n.startswith(want), lambda n: want in n):
        hits = [p for p in seated if test(_fold(p.name))]
        living = [p for p in hits if p.alive]
        # A dead namesake does not make a living player's name ambiguous.
        if len(living) == 1:
            return living[0]
        if len(hits) == 1:
            return hits[0]
        if hits:
            return hits
    return None


def player_choices(
    current: str, players: Iterable[SeatInfo], *, exclude_user: int | None = None, living: bool = True, lobby: bool = False
) -> list[app_commands.Choice[str]]:
    """At most 25 choices among the living seated players (not the caller), matching
    what has been typed by seat or name; the value is the seat number. With ``lobby``
    and nobody seated yet: the joined players, by name, the value their user id."""
    want = _fold(current or "").lstrip("#")
    players = list(players)
    if lobby and not any(p.seat is not None for p in players):
        joined = [p for p in players if not want or want in _fold(p.name)]
        return [app_commands.Choice(name=p.name[:100], value=str(p.user_id)) for p in joined[:MAX_CHOICES]]
    out: list[app_commands.Choice[str]] = []
    for p in sorted((p for p in players if p.seat is not None), key=lambda p: p.seat or 0):
        if (living and not p.alive) or (exclude_user is not None and p.user_id == exclude_user):
            continue
        label = seat_label(p)
        if want and not (str(p.seat).startswith(want) or want in _fold(p.name)):
            continue
        out.append(app_commands.Choice(name=label[:100], value=str(p.seat)))
        if len(out) == MAX_CHOICES:
            break
    return out
