"""What a player typed, resolved against their own view of the game: pure functions.

A command names players, skills and guesses as people type them; the service resolves
them from the caller's view (the table's seats, the caller's sheet) inside the unit of
work that stores what they send (``bot.service.commands``). A player is named by a seat
(``3``, ``#3``, ``3号``), a name or the start of one, a mention (``<@123>``, ``<@!123>``)
or a raw user id, or the autocomplete's own values (the seat number); a skill by its id
or its name in either language; a guess by ``what:value``, a trait, faction or class in
either language. What names nothing is refused with a :class:`ResolveError`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from bot.i18n import LOCALES, t, terms
from bot.render import words
from bot.service.errors import ResolveError
from bot.service.types import SeatInfo
from engine.classes import SkillSpec, catalogue, class_spec
from engine.values import FACTIONS, Trait
from engine.view import Sheet

MENTION = re.compile(r"^<@!?(\d{15,21})>$")
SEAT = re.compile(r"^(?:#|no\.?\s*|seat\s*)?(\d{1,2})(?:\s*\u53f7)?$", re.IGNORECASE)  # \u53f7: the seat suffix typed in Chinese ("3 hao")
SNOWFLAKE = re.compile(r"^\d{15,21}$")

# Invisible characters a name may hide ("al\u200bice" is typed "alice").
INVISIBLE = dict.fromkeys(map(ord, "\u200b\u200c\u200d\u2060\ufeff"))


def seat_label(p: SeatInfo) -> str:
    return words.seat_name(p.seat or 0, p.name)


def fold_name(text: str) -> str:
    """A player's name or what was typed for it, folded for comparison."""
    return text.translate(INVISIBLE).casefold().strip().lstrip("@").strip()


def fold(text: str) -> str:
    """A skill's or a guess's name, folded for comparison."""
    return text.casefold().strip()


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
        raise ResolveError("reply.error.player_ambiguous", text=raw[:50], candidates=[seat_label(p) for p in found[:8]])
    if not found.alive and not allow_dead:
        raise ResolveError("reply.error.player_gone", player=seat_label(found))
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


def parse_skill(text: str, sheet: Sheet) -> SkillSpec | str:
    """The caller's skill named by ``text`` (id, or name in either language)."""
    want = fold(text or "")
    spec = class_spec(sheet["class_id"])
    if want == "release" or want in {fold(t(key, loc)) for key in ("skill.release", "reply.skill.release") for loc in LOCALES}:
        return "release"
    for s in spec.skills:
        names = {fold(s.id)} | {fold(s.name[loc]) for loc in LOCALES}  # type: ignore[index]
        if want in names:
            return s
    raise ResolveError("reply.error.skill_unknown", skill=(text or "")[:50])


def all_values(what: str) -> list[str]:
    if what == "trait":
        return [x.value for x in Trait]
    if what == "faction":
        return [f.value for f in FACTIONS]
    return sorted(catalogue())


def parse_guess(text: str, sheet: Sheet | None = None) -> tuple[str, str]:
    """("trait", "holy") from ``trait:holy``, ``holy``, ``Holy``, ``神圣``, ``Cleric``…"""
    raw = (text or "").strip()
    if ":" in raw:
        what, _, value = raw.partition(":")
        if what in ("trait", "class", "faction") and value in all_values(what):
            return what, value
    want = fold(raw)
    for what in ("trait", "faction", "class"):
        for value in all_values(what):
            names = {value} | {fold(terms.guess_value(what, value, loc)) for loc in LOCALES}
            if want in names:
                return what, value
    raise ResolveError("reply.error.guess_unknown", text=raw[:50])


def seats_of(targets: Iterable[str | int], players: Sequence[SeatInfo]) -> tuple[int, ...]:
    return tuple(seat_of(x, players) for x in targets)
