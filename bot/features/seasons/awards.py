"""A season's awards, computed once at its end from the records of the games counted in
it (``bot.features.seasons.seasons``). Pure: the rows in, the awards out.

Each award names the players at the top (all of them when tied, up to ``SHOWN``) with
the figure that put them there. Only a seat that counts for a player's games and rating
counts here (``ratings.counts``: a user held it to the end of the game or of their life
in it; never an AI seat, a replaced holder or a forgotten user), and a player who hides
their stats is left out, as on the leaderboard.

* ``points``: most points, the final scores of the player's factions added up over
  their season games;
* ``record_<faction>``: best record with that faction, the share of games won (a shared
  win counts) among players with at least ``MIN_FACTION_GAMES`` games with it;
* ``identifier``: best identifier, the share of identification guesses confirmed (R6)
  among players who sent at least ``MIN_GUESSES``;
* ``steady``: most games finished without a miss, a seat held to the end of the game or
  of the player's life in it (not removed) having sent every phase it was asked.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from bot.db.models import SeatRecord
from bot.features.records.ratings import counts

FACTIONS = ("lawful", "neutral", "chaotic")
MIN_FACTION_GAMES = 3
MIN_GUESSES = 5
SHOWN = 3  # tied winners named, at most


@dataclass(frozen=True)
class Award:
    """One award: its key, the winners' user ids, and the figure (a count, or a share
    from 0 to 1 with ``out_of`` the games or guesses it is of, for the best winner)."""

    key: str
    users: tuple[int, ...]
    value: float
    out_of: int = 0

    def to_json(self) -> dict[str, object]:
        return {"key": self.key, "users": list(self.users), "value": self.value, "out_of": self.out_of}


@dataclass
class _Player:
    points: int = 0
    games: defaultdict[str, int] = field(default_factory=lambda: defaultdict(int))
    wins: defaultdict[str, int] = field(default_factory=lambda: defaultdict(int))
    guesses: int = 0
    right: int = 0
    steady: int = 0


def _top(key: str, players: dict[int, _Player], figure: Callable[[_Player], tuple[float, int] | None]) -> Award | None:
    """The award for the highest ``figure`` (value, out of); None when nobody has one
    above zero."""
    scored = {uid: f for uid, p in players.items() if (f := figure(p)) is not None and f[0] > 0}
    if not scored:
        return None
    best = max(f[0] for f in scored.values())
    winners = sorted((uid for uid, f in scored.items() if f[0] == best), key=lambda uid: (-scored[uid][1], uid))
    return Award(key, tuple(winners[:SHOWN]), best, scored[winners[0]][1])


def _record(faction: str) -> Callable[[_Player], tuple[float, int] | None]:
    def figure(p: _Player) -> tuple[float, int] | None:
        games = p.games[faction]
        return (p.wins[faction] / games, games) if games >= MIN_FACTION_GAMES else None

    return figure


def _sent_all(seat: SeatRecord) -> bool:
    return (
        seat.fate != "removed"
        and seat.phases_asked is not None
        and seat.phases_sent == seat.phases_asked
        and not seat.phases_abandoned
    )


def awards(seats: Iterable[SeatRecord], hidden: frozenset[int] = frozenset()) -> list[Award]:
    """The season's awards from the seat records of its games (``hidden``: players left
    out), in the order they are shown; an award nobody earned is left out."""
    players: dict[int, _Player] = {}
    for seat in seats:
        if not counts(seat) or seat.user_id in hidden:
            continue
        assert seat.user_id is not None
        p = players.setdefault(seat.user_id, _Player())
        p.points += seat.faction_score
        p.games[seat.faction] += 1
        p.wins[seat.faction] += seat.result != "loss"
        p.guesses += seat.guesses or 0
        p.right += seat.guesses_right or 0
        p.steady += _sent_all(seat)
    found = [_top("points", players, lambda p: (p.points, sum(p.games.values())))]
    for faction in FACTIONS:
        found.append(_top(f"record_{faction}", players, _record(faction)))
    found.append(_top("identifier", players, lambda p: (p.right / p.guesses, p.guesses) if p.guesses >= MIN_GUESSES else None))
    found.append(_top("steady", players, lambda p: (p.steady, sum(p.games.values()))))
    return [a for a in found if a is not None]
