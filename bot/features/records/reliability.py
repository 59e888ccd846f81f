"""Reliability: the share of the phases a player was asked to send that they sent, over
their last games. A read model over the seat records, like the ratings: each figure it
adds up was written once, in the transaction that ended its game.

A phase asks a seat (:func:`asks`) when the seat is living and can send what the phase
waits for from everyone: a grail number at Day, orders (or a pass) at Dusk, a vote at
Morning; never the wounded, nor at Dusk a grappler keeping its hold (which it does by
sending nothing): the absence policy's own rule (``bot.features.absence.absence``). Each seat
record of a human holder keeps (``bot.features.records.records``):

- ``phases_sent``: the phases that asked the seat while they held it and found its
  submission stored at the close;
- ``phases_asked``: those, and the phases they missed (the absence policy's count: only a
  phase closed at its deadline counts a miss, so a phase a moderator closes early asks
  only those who had sent by then);
- ``phases_abandoned``: when the seat was taken from them for absence (handed to a standby
  or the AI, or removed, by the game's absence policy), every phase the game closed after
  that; 0 otherwise.

The figure is Σ sent / Σ (asked + abandoned) over the player's last ``GAMES`` records in a
server (or in every server) that asked them something. AI seats and practice games (which
write no records) never count, nor a record without the figures (a game that ended before
misses were counted). With fewer than ``NEW_BELOW`` such games a player is new: no figure,
and a lobby's minimum lets them in.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

import engine
from bot.core.errors import ServiceError
from bot.core.types import GameSettings
from bot.db.models import Game
from bot.db.repos import records as records_repo

# The games the figure is over: recent enough that a bad month ages out after a season of
# play, enough phases (about 15 a game) that one miss moves it by a third of a point.
GAMES = 20
# Fewer games than this: "new" (a figure over one or two games says too little).
NEW_BELOW = 3


def asks(player: engine.Player, phase: str) -> bool:
    """Whether ``phase`` asks ``player`` for the submission it waits for."""
    if not player.alive or player.wounded:
        return False
    return not (phase == "dusk" and "grappling" in player.memory)


def sent_seats(submissions: dict[str, list[dict[str, Any]]], phase: str) -> set[int]:
    """The seats whose main submission of ``phase`` is among an advance's stored
    ``submissions`` (seat as a string key, as the game log keeps them)."""
    kind = engine.MAIN_KIND.get(phase)
    return {int(seat) for seat, subs in submissions.items() if any(s.get("kind") == kind for s in subs)}


def misses_counted(game: Game) -> bool:
    """Whether the game's misses were counted while it ran: a game created since the
    absence policy existed has its setting stored (``absence_misses``); an older one
    counted none, and its records can say nothing of its players' reliability."""
    return "absence_misses" in (game.settings or {})


@dataclass(frozen=True)
class Reliability:
    """A player's figure over ``games`` games: ``sent`` of ``asked`` (the abandoned
    phases included)."""

    games: int = 0
    asked: int = 0
    sent: int = 0

    @property
    def new(self) -> bool:
        return self.games < NEW_BELOW

    @property
    def share(self) -> float | None:
        """The share sent, None for a new player."""
        if self.new or self.asked <= 0:
            return None
        return self.sent / self.asked

    @property
    def percent(self) -> int | None:
        """The share in whole percent, rounded down (a 89.7% never reads as the 90% it
        falls short of)."""
        share = self.share
        return None if share is None else math.floor(100 * share + 1e-9)

    def meets(self, minimum: int) -> bool:
        """Whether the figure reaches ``minimum`` percent (a new player always does)."""
        share = self.share
        return share is None or 100 * share >= minimum - 1e-9


def add_up(rows: Iterable[tuple[int, int, int]]) -> Reliability:
    """The figure from (asked, sent, abandoned) of the records it is over."""
    games = asked = sent = 0
    for a, s, left in rows:
        games += 1
        asked += a + left
        sent += s
    return Reliability(games, asked, sent)


async def reliability_of(s: AsyncSession, user_id: int, guild_id: int | None) -> Reliability:
    """``user_id``'s reliability in ``guild_id`` (None: every server), from their last
    ``GAMES`` records there that asked them something."""
    rows = await records_repo.reliability_figures(s, user_id, guild_id, GAMES)
    return add_up((int(a or 0), int(x or 0), int(left or 0)) for a, x, left in rows)


class ReliabilityTooLowError(ServiceError):
    """A join (of the lobby or the standby list) of a player whose reliability in the
    game's server is below the game's ``min_reliability``."""

    key = "error.reliability_too_low"


async def require_reliability(s: AsyncSession, game: Game, settings: GameSettings, user_id: int) -> None:
    """Refuse ``user_id`` when the game asks for a minimum they fall short of (a new
    player, with fewer than ``NEW_BELOW`` games in the server, is let in)."""
    if not settings.min_reliability or game.guild_id is None:
        return
    found = await reliability_of(s, user_id, game.guild_id)
    if not found.meets(settings.min_reliability):
        raise ReliabilityTooLowError(percent=found.percent, games=found.games, min=settings.min_reliability)
