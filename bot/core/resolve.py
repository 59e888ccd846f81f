"""The players a player typed, resolved against their own view of the game: pure
functions.

A command names players as people type them; the service resolves them from the
caller's view (the table's seats) inside the unit of work that stores what they send
(``bot.features.play.commands``). A player is named by a seat (``3``, ``#3``, ``3号``), a name
or the start of one, a mention (``<@123>``, ``<@!123>``) or a raw user id, or the
autocomplete's own values (the seat number). What names nobody is refused with a
:class:`ResolveError`. A skill or a guess typed by name is the engine's to read
(``engine.parse_skill``, ``engine.parse_guess``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from bot.core.errors import NamedSeat, ResolveError
from bot.core.types import SeatInfo

MENTION = re.compile(r"^<@!?(\d{15,21})>$")
SEAT = re.compile(r"^(?:#|no\.?\s*|seat\s*)?(\d{1,2})(?:\s*\u53f7)?$", re.IGNORECASE)  # \u53f7: the seat suffix typed in Chinese ("3 hao")
SNOWFLAKE = re.compile(r"^\d{15,21}$")

# Invisible characters a name may hide ("al\u200bice" is typed "alice").
INVISIBLE = dict.fromkeys(map(ord, "\u200b\u200c\u200d\u2060\ufeff"))


def named(p: SeatInfo) -> NamedSeat:
    """``p`` as a refusal names them (worded by the user interface)."""
    return NamedSeat(p.seat or 0, p.name)


def fold_name(text: str) -> str:
    """A player's name or what was typed for it, folded for comparison."""
    return text.translate(INVISIBLE).casefold().strip().lstrip("@").strip()


def parse_player(text: str, players: Sequence[SeatInfo], *, allow_dead: bool = False, lobby: bool = False) -> SeatInfo:
    """The seated player ``text`` names, or a :class:`ResolveError` saying why not:
    no such player, several match (with their seats), or the player has left. Before
    the start nobody has a seat: the game has not started, unless ``lobby`` asks for a
    joined player (a moderator removing someone from the lobby)."""
    raw = (text or "").strip()
    if not raw:
        raise ResolveError("reply.error.player_missing")
    seated = [p for p in players if p.seat is not None]
    if not seated and players:
        if not lobby:
            raise ResolveError("reply.error.not_started")
        seated = list(players)
    found = _match(raw, seated)
    if found is None:
        raise ResolveError("reply.error.player_unknown", text=raw[:50])
    if isinstance(found, list):
        raise ResolveError("reply.error.player_ambiguous", text=raw[:50], candidates=[named(p) for p in found[:8]])
    if not found.alive and not allow_dead:
        raise ResolveError("reply.error.player_gone", player=named(found))
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
    want = fold_name(raw)
    exact = [p for p in seated if fold_name(p.name) == want]
    if len(exact) == 1:
        return exact[0]
    if len(exact) > 1:
        # "Bob" and "bob" at one table: the spelling typed tells them apart.
        same = [p for p in exact if p.name.strip() == raw.lstrip("@").strip()]
        return same[0] if len(same) == 1 else exact
    for test in (lambda n: n.startswith(want), lambda n: want in n):
        hits = [p for p in seated if test(fold_name(p.name))]
        living = [p for p in hits if p.alive]
        # A dead namesake does not make a living player's name ambiguous.
        if len(living) == 1:
            return living[0]
        if len(hits) == 1:
            return hits[0]
        if hits:
            return hits
    return None


def seat_of(target: str | int, players: Sequence[SeatInfo]) -> int:
    """The seat a target names: a seat picked from a menu as it is (the engine checks
    it), typed text resolved (:func:`parse_player`)."""
    if not isinstance(target, str):
        return target
    seat = parse_player(target, players).seat
    assert seat is not None
    return seat


def seats_of(targets: Iterable[str | int], players: Sequence[SeatInfo]) -> tuple[int, ...]:
    return tuple(seat_of(x, players) for x in targets)
