"""Catching up: what one seat has been told, read back from the game log.

A recap is a rendering of stored events, like a DM or a post: from each step of the
game log, its public events (what the channel was shown) and the private events
addressed to the seat (what its holder was sent by DM), nothing else: no audit events,
no other seat's news. The seat's private history belongs to the seat, not to a person:
whoever holds it now plays that character, so a newcomer is told everything the seat
was told under its earlier holders.

``seat_recap`` answers ``/recap`` (from a round the player picks; by default the round of
the last thing they sent); ``mail_catch_up`` writes the whole history, oldest first,
as the DMs a newcomer gets on taking a seat (``replace_player``, the one path every
hand-over goes through), in parts small enough for one Discord message each.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

import engine
from bot.core import table
from bot.core.errors import BadArgumentError, GameNotStartedError, NotInGameError, ServiceError
from bot.core.messages import RecapPart
from bot.core.outbox import Mail
from bot.core.table import Place
from bot.core.types import GameInfo, check_id
from bot.db import repositories as repo
from bot.db.models import Game, GameStep
from bot.db.session import Database
from engine.night import turns as night_turns

PUBLIC = engine.Audience.PUBLIC.value
PRIVATE = engine.Audience.PRIVATE.value
# One DM of a catch-up holds at most this many steps and events, so that its rendering
# stays well inside one Discord message (10 embeds, 6,000 characters).
PART_STEPS = 8
PART_EVENTS = 30


class RecapRoundError(ServiceError):
    """The round asked for is not one the game has had (1 to the current round)."""

    key = "error.recap_round"


@dataclass(frozen=True, slots=True)
class RecapEntry:
    """What one step of the game log told the seat: the public events and the seat's
    own private ones (event dicts, as stored), from the close of ``phase`` of ``round``
    (``step``: advance, remove, end)."""

    round: int
    phase: str
    step: str
    public: tuple[dict[str, Any], ...]
    private: tuple[dict[str, Any], ...]

    def to_dict(self) -> dict[str, Any]:
        return {"round": self.round, "phase": self.phase, "step": self.step, "public": list(self.public), "private": list(self.private)}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> RecapEntry:
        return cls(int(d["round"]), str(d["phase"]), str(d["step"]), tuple(d.get("public", [])), tuple(d.get("private", [])))

    @property
    def size(self) -> int:
        return len(self.public) + len(self.private)


@dataclass(frozen=True, slots=True)
class Recap:
    """A seat's recap from ``since_round`` on; ``default_since``: the round was not
    chosen but taken from the player's last submission."""

    game: GameInfo
    seat: int
    since_round: int
    entries: tuple[RecapEntry, ...]
    default_since: bool = False


def seat_history(steps: Iterable[GameStep], seat: int, since_round: int = 0) -> list[RecapEntry]:
    """The entries of ``seat`` in the game log ``steps`` (in order), from ``since_round``
    on; a step that told the seat nothing is left out."""
    out = []
    for st in steps:
        if st.round < since_round:
            continue
        public = tuple(e for e in st.events if e["audience"] == PUBLIC)
        told = night_turns.logged_turns(st.kind, st.phase, st.events, st.inputs, st.state)
        private = tuple(e for e in told if e["audience"] == PRIVATE and e.get("seat") == seat)
        if public or private:
            out.append(RecapEntry(st.round, st.phase, st.kind, public, private))
    return out


def parts(entries: list[RecapEntry]) -> list[list[RecapEntry]]:
    """Entries grouped into DMs of at most PART_STEPS steps and PART_EVENTS events (a
    step bigger than that alone in its DM), order kept."""
    out: list[list[RecapEntry]] = []
    size = 0
    for entry in entries:
        if not out or len(out[-1]) >= PART_STEPS or size + entry.size > PART_EVENTS:
            out.append([])
            size = 0
        out[-1].append(entry)
        size += entry.size
    return out


async def seat_recap(db: Database, user_id: int, channel_id: int | None = None, since_round: int | None = None) -> Recap:
    """The caller's recap of the game they play in (the live game of ``channel_id``
    when given and it has one, else their one live game): the public events and their
    seat's private ones from ``since_round`` (1 to the current round; default: the
    round of the last thing they sent, or the whole game if they have sent nothing).
    NotInGameError for anyone not holding a seat in it; RecapRoundError for a round
    the game has not had."""
    check_id(user_id, "user")
    if since_round is not None and (not isinstance(since_round, int) or isinstance(since_round, bool)):
        raise BadArgumentError(field="since_round", reason="a round number")
    async with table.at(db, Place.of(user_id, channel_id=channel_id), writing=False) as t:
        game, s = t.game, t.session
        member = await t.caller_row()
        if member is None or (member.seat is None and game.status != "lobby"):
            raise NotInGameError(game_id=game.id)
        if game.state is None or member.seat is None:
            raise GameNotStartedError(game_id=game.id)
        default = since_round is None
        if since_round is None:
            since_round = await repo.last_sent_round(s, game.id, user_id) or 1
        if not 1 <= since_round <= game.round:
            raise RecapRoundError(round=since_round, last=game.round)
        entries = seat_history(await repo.steps(s, game.id), member.seat, since_round)
        return Recap(await t.info(), member.seat, since_round, tuple(entries), default)


async def mail_catch_up(s: AsyncSession, mail: Mail, game: Game, seat: int, user_id: int) -> int:
    """Write the DMs that catch ``user_id`` up on ``seat``, which they have just taken:
    its whole history, oldest first, in parts (see ``parts``). Returns how many."""
    await s.flush()
    chunks = parts(seat_history(await repo.steps(s, game.id), seat))
    for i, chunk in enumerate(chunks, start=1):
        mail.private(
            user_id,
            RecapPart(seat=seat, part=i, parts=len(chunks), entries=[e.to_dict() for e in chunk]),
            audience="recap",
        )
    return len(chunks)
