"""A player argument: what a user types or picks for "which player".

Discord's user picker cannot list the players of a game in a DM, so every player option
is a string with autocomplete. What people actually paste (a seat, a name or the start of
one, a mention, a raw user id, the autocomplete's own values) is resolved by
``bot.core.resolve.parse_player``; here are the choices offered.
"""

from __future__ import annotations

from collections.abc import Iterable

from discord import app_commands

from bot.core.resolve import fold_name
from bot.core.types import SeatInfo
from bot.render import words

MAX_CHOICES = 25


def player_choices(
    current: str, players: Iterable[SeatInfo], *, exclude_user: int | None = None, living: bool = True, lobby: bool = False
) -> list[app_commands.Choice[str]]:
    """At most 25 choices among the living seated players (not the caller), matching
    what has been typed by seat or name; the value is the seat number. With ``lobby``
    and nobody seated yet: the joined players, by name, the value their user id."""
    want = fold_name(current or "").lstrip("#")
    players = list(players)
    if lobby and not any(p.seat is not None for p in players):
        joined = [p for p in players if not want or want in fold_name(p.name)]
        return [app_commands.Choice(name=p.name[:100], value=str(p.user_id)) for p in joined[:MAX_CHOICES]]
    out: list[app_commands.Choice[str]] = []
    for p in sorted((p for p in players if p.seat is not None), key=lambda p: p.seat or 0):
        if (living and not p.alive) or (exclude_user is not None and p.user_id == exclude_user):
            continue
        label = words.seat_name(p.seat or 0, p.name)
        if want and not (str(p.seat).startswith(want) or want in fold_name(p.name)):
            continue
        out.append(app_commands.Choice(name=label[:100], value=str(p.seat)))
        if len(out) == MAX_CHOICES:
            break
    return out
