"""The baseline AI player: decides every submission from its :class:`Knowledge` alone.

It plays sensibly rather than well: a grail number near the expected mean; identifications
where they teach it most about who is friend or foe; attacks and votes on the seat it
suspects most; its class's skills when they are useful (see :mod:`bot.ai.tactics`). All
its chance comes from the ``random.Random`` it is given (one per game and seat).
"""

from __future__ import annotations

import random
from functools import cache
from operator import itemgetter
from typing import Any

from bot.ai.knowledge import FACTION_MASK, Knowledge, guess_mask
from bot.ai.tactics import plan_orders
from engine.classes import catalogue
from engine.submissions import GrailNumber, Guess, Identification, Submission, Vote
from engine.values import FACTIONS, Trait

GRAIL_LOW, GRAIL_HIGH = 40, 60
# Each player's own hunch about every seat, drawn once per game: it breaks ties between
# equally suspect seats at random, and keeps one player on the same suspect from night
# to night, so that damage piles up into kills.
RANK_NOISE = 0.12


@cache
def _values(what: str) -> tuple[str, ...]:
    if what == "trait":
        return tuple(t.value for t in Trait)
    if what == "faction":
        return tuple(f.value for f in FACTIONS)
    return tuple(catalogue())


# (candidate roles, guess mask, friend mask) -> expected information; pure, so shared.
_GAIN: dict[tuple[int, int, int], float] = {}


def _unsure(c: int, friends: int) -> float:
    f = (c & friends).bit_count() / c.bit_count()
    return f * (1.0 - f)


def info_gain(cand: int, mask: int, friends: int) -> float:
    """How much asking "is it one of ``mask``" is expected to settle friend-or-foe, plus a
    little for narrowing the role itself (0 when the answer is already known)."""
    key = (cand, mask, friends)
    g = _GAIN.get(key)
    if g is not None:
        return g
    yes = cand & mask
    no = cand & ~mask
    if not yes or not no:
        g = 0.0
    else:
        n = cand.bit_count()
        ny = yes.bit_count()
        py = ny / n
        g = _unsure(cand, friends) - py * _unsure(yes, friends) - (1 - py) * _unsure(no, friends)
        g += 0.02 * min(ny, n - ny) / n
    _GAIN[key] = g
    return g


_BEST: dict[tuple[int, int, tuple[str, tuple[str, ...]]], tuple[float, str]] = {}


def best_guess(cand: int, friends: int, slot: tuple[str, tuple[str, ...]]) -> tuple[float, str]:
    """The most informative value for an identification slot ``(what, values)`` about a
    seat with candidate roles ``cand``, and its gain (0.0 when nothing is left to learn)."""
    key = (cand, friends, slot)
    hit = _BEST.get(key)
    if hit is not None:
        return hit
    what, values = slot
    best = (0.0, "")
    for v in values or _values(what):
        g = info_gain(cand, guess_mask(what, v), friends)
        if g > best[0]:
            best = (g, v)
    _BEST[key] = best
    return best


def _pick(rng: random.Random, seats: list[int], count: int) -> list[int]:
    """``count`` distinct seats at random (cheaper than ``random.sample`` for a few)."""
    pool = list(seats)
    out = []
    for _ in range(count):
        out.append(pool.pop(int(rng.random() * len(pool))))
    return out


class BaselineAI:
    """One seat's player. ``notes`` is its memory of its own choices (whom it sang to,
    since when it holds someone); everything else comes from the Knowledge."""

    __slots__ = ("_ranked", "hunch", "last_target", "notes", "rng")

    def __init__(self, rng: random.Random, seats: int = 15) -> None:
        self.rng = rng
        self.notes: dict[str, Any] = {}
        self.last_target = 0
        self.hunch = [RANK_NOISE * rng.random() for _ in range(seats + 1)]
        self._ranked: tuple[int, list[int]] = (-1, [])

    # -- Day -------------------------------------------------------------------------
    def grail_number(self, k: Knowledge) -> GrailNumber:
        """A number near the mean everyone is expected to aim at."""
        return GrailNumber(GRAIL_LOW + int((GRAIL_HIGH - GRAIL_LOW + 1) * self.rng.random()))

    # -- Dusk ------------------------------------------------------------------------
    def dusk(self, k: Knowledge) -> list[Submission]:
        """Identifications, then the night's orders (none when wounded)."""
        out: list[Submission] = []
        ident = self.identification(k)
        if ident is not None:
            out.append(ident)
        if k.hp > 0:
            orders = plan_orders(self, k)
            if orders is not None and (orders.actions or orders.toggles):
                out.append(orders)
        return out

    def identification(self, k: Knowledge) -> Identification | None:
        """Fill each identification slot with the guesses that teach the most, on the
        seats it knows least about. Seats with the same candidate roles are worth the
        same guess, so they are scored once and picked among at random."""
        slots = k.sheet.get("identify", ())
        others = k.others_alive()
        if not slots or not others:
            return None
        groups: dict[int, list[int]] = {}
        cand = k.cand
        for seat in others:
            groups.setdefault(cand[seat], []).append(seat)
        friends = k.friend_mask
        rng = self.rng
        guesses: list[Guess] = []
        for slot in slots:
            what = slot["what"]
            key = (what, tuple(slot.get("values") or ()))
            options = []
            for c, seats in groups.items():
                gain, value = best_guess(c, friends, key)
                if gain > 0.0:
                    options.append((gain * (1.0 + 0.3 * rng.random()), value, seats))
            options.sort(key=itemgetter(0), reverse=True)
            left = int(slot["count"])
            for _, value, seats in options:
                picked = seats if len(seats) <= left else _pick(rng, seats, left)
                for seat in picked:
                    g = Guess(seat, what, value)
                    if g not in guesses:
                        guesses.append(g)
                left -= len(picked)
                if left <= 0:
                    break
        return Identification(tuple(guesses)) if guesses else None

    # -- Morning ---------------------------------------------------------------------
    def vote(self, k: Knowledge) -> Vote | None:
        """The most suspected living seat (never a known friend)."""
        ranked = self.ranked(k)
        return Vote(ranked[0]) if ranked else None

    # -- suspicion -------------------------------------------------------------------
    def ranked(self, k: Knowledge, prefer: str | None = None) -> list[int]:
        """Living other seats that may be enemies, most suspected first: confirmed
        enemies, then the unknown by their chance of being an enemy (plus the player's
        hunch); known friends are left out. ``prefer`` (a faction) ranks its possible
        members higher. Cached until the Knowledge changes."""
        if prefer is None and self._ranked[0] == k.version:
            return self._ranked[1]
        pe = k.pe
        hunch = self.hunch
        vd = k.vote_damage
        scored = [(pe[s] + hunch[s] + 0.03 * vd[s], s) for s in k.others_alive() if pe[s]]
        if prefer is not None:
            pref = FACTION_MASK.get(prefer, 0)
            cand = k.cand
            scored = [(sc + 0.15 * (cand[s] & pref).bit_count() / cand[s].bit_count(), s) for sc, s in scored]
        scored.sort(reverse=True)
        ranked = [s for _, s in scored]
        if prefer is None:
            self._ranked = (k.version, ranked)
        return ranked
