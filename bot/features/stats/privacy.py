"""A player's say over their stats: hide them from others (and the leaderboards), show
them again, or be forgotten.

Hiding changes nobody's data: ``/stats view`` by anyone else is refused and the
leaderboards leave the player out, while the games (history, replays, exports) still
name them, as they name everyone who sat at the table.

Forgetting is done where the names are kept, not where they are read: a game keeps a
player's name in its state, in every step of its log (the start's names, a
replacement's newcomer, the events and the state after each step), in its members'
rows and in the messages it wrote, and ``/game history``, the replay, ``wolfhowl
export`` and the recaps each read one of those. So ``forget`` rewrites every one of
them, in every game the user took part in, to ``FORGOTTEN_NAME``, which the renderers
show as "a former player"; no reader needs to know who was forgotten, and a reader
added later cannot bring the name back. The seat, its class and the game's story stay
whole: the engine only carries a name along with its seat (the deal and the dice never
read it), so the rewritten log still replays exactly (``wolfhowl verify``).

What forgetting does, table by table, for the games that have ended (over, or
cancelled):

* ``game_players``: the user's row loses its user id and its name; the seat stays.
* ``games.state`` and ``game_steps``: each name the user's seat had while the user
  held it becomes ``FORGOTTEN_NAME`` (a seat's other holders keep theirs).
* ``outbox``: the same in every message of the game (sent or not, to anyone), and the
  messages addressed to the user are deleted, delivered or not (a DM still due, or
  waiting in their ``/inbox``, included): each ties the user's id to the game, and
  would keep it once sent.
* ``submissions``: the user id becomes 0, the id of nobody; the orders stay in the log.
* ``standbys`` and ``seat_offers``: the user's rows are deleted (offers made while they
  held a seat keep the offer, with holder 0).
* ``seat_records``: user id and name cleared; the user's profile and standings deleted,
  and the standings of the servers they played in replayed from the records as they
  now are, so that ``wolfhowl db ratings --rebuild`` still lands on the numbers shown.

A game that has not ended is refused (ForgetWhilePlayingError): its log is still being
written, and its table must still know who sits where. The user asks again after its end.
The ``users`` row (the id, the name last seen and the language, which every command
refreshes) is not a record of any game and stays."""

from __future__ import annotations

from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from bot.core.types import check_id
from bot.db import repositories as repo
from bot.db.models import (
    GamePlayer,
    PlayerProfile,
)
from bot.db.repos import forgetting
from bot.db.session import Database
from bot.features.records.ratings import rebuild_standings
from bot.features.seasons.seasons import forget_in_summaries
from bot.features.stats.errors import ForgetNotYoursError, ForgetWhilePlayingError

# The name a forgotten player leaves behind, wherever a game kept theirs. Empty: no
# Discord name is, and a renderer that did not know of it would show nothing, not a name.
FORGOTTEN_NAME = ""
# The keys under which a game's data carries a seat holder's name, beside the "seat".
NAME_KEYS = ("name", "old_name", "new_name")
ENDED = ("over", "cancelled")


async def set_hidden(db: Database, user_id: int, hidden: bool) -> bool:
    """Hide (or show again) the user's stats; False when it was so already. Hidden, they
    are refused to anyone else's ``/stats view`` and left off the leaderboards."""
    check_id(user_id, "user")
    async with db.transaction() as s:
        profile = await s.get(PlayerProfile, user_id)
        if profile is not None and profile.hidden == hidden:
            return False
        if profile is None:
            if not hidden:
                return False
            s.add(PlayerProfile(user_id=user_id, hidden=True, updated_at=db.now()))
        else:
            profile.hidden, profile.updated_at = hidden, db.now()
        return True


def scrub(value: Any, seat: int, name: str) -> Any:
    """``value`` (stored JSON) with ``name`` replaced by FORGOTTEN_NAME wherever it is
    given as the name of ``seat``: in a mapping whose "seat" is ``seat``, under one of
    NAME_KEYS. The same name on another seat is someone else's and stays."""
    if isinstance(value, list):
        return [scrub(v, seat, name) for v in value]
    if not isinstance(value, dict):
        return value
    out = {k: scrub(v, seat, name) for k, v in value.items()}
    if out.get("seat") == seat:
        for key in NAME_KEYS:
            if out.get(key) == name:
                out[key] = FORGOTTEN_NAME
    return out


def scrub_start(inputs: dict[str, Any], seat: int, name: str) -> dict[str, Any]:
    """The start's inputs: its ``names`` are the seats' names in seat order."""
    names = list(inputs.get("names") or [])
    if 1 <= seat <= len(names) and names[seat - 1] == name:
        names[seat - 1] = FORGOTTEN_NAME
    return inputs | {"names": names}


async def _forget_in_game(s: AsyncSession, game_id: int, member: GamePlayer, user_id: int) -> None:
    """Take ``member`` (the user's row) out of the ended game ``game_id``."""
    seat = member.seat if member.seat is not None else member.former_seat
    name = member.display_name
    if seat is not None:
        for step in await repo.steps(s, game_id):
            inputs = scrub(step.inputs, seat, name)
            step.inputs = scrub_start(inputs, seat, name) if step.kind == "start" else inputs
            step.events = scrub(step.events, seat, name)
            step.state = scrub(step.state, seat, name)
        # Past the ORM: a game's row is written under its version, which counts steps.
        state = await forgetting.game_state(s, game_id)
        if state is not None:
            await forgetting.set_game_state(s, game_id, scrub(state, seat, name))
        for message in await forgetting.game_messages(s, game_id):
            message.payload = scrub(message.payload, seat, name)
    await forgetting.take_out_of_game(s, game_id, member.id, user_id, name=FORGOTTEN_NAME)


async def forget(db: Database, caller_id: int, user_id: int | None = None) -> int:
    """Take the user out of every game that has ended and every record (the seats stay,
    anonymous: see the module docstring); returns how many seat records they had.
    ``caller_id`` asks, for ``user_id`` (themselves when None): only a user may have
    themselves forgotten, so another's id is refused (ForgetNotYoursError), whatever id
    a button carried. ForgetWhilePlayingError, and nothing changed, while they are in a
    game that has not ended (in its lobby, at its table, replaced or removed from it, on
    its standby list, or among its spectators)."""
    check_id(caller_id, "user")
    if user_id is None:
        user_id = caller_id
    if user_id != caller_id:
        raise ForgetNotYoursError()
    async with db.transaction() as s:
        members = await forgetting.memberships(s, user_id)
        waiting = await forgetting.standby_games(s, user_id)
        watching = await forgetting.watched_games(s, user_id)
        live = sorted({m.game_id for m, status in members if status not in ENDED} | {g for g, status in [*waiting, *watching] if status not in ENDED})
        if live:
            raise ForgetWhilePlayingError(game=live[0])
        for member, _ in members:
            await _forget_in_game(s, member.game_id, member, user_id)
        await forgetting.delete_waiting_rows(s, user_id)
        guilds = await forgetting.recorded_guilds(s, user_id)
        changed = await forgetting.blank_seat_records(s, user_id)
        await forgetting.delete_standings(s, user_id)
        await forget_in_summaries(s, user_id)
        await forgetting.delete_profile(s, user_id)
        if guilds:
            await rebuild_standings(s, guilds)
        return changed


async def forget_leftovers(db: Database) -> int:
    """Finish the forgetting of those who asked before forgetting reached the games
    themselves: their seat records were blanked, but the games they finished still
    named them. A record left without a user and a name that is no AI seat's is such a
    seat; its holder is the member of that game at that seat whose id no record of the
    seat still carries (a seat handed over has a record per holder). Each such game is
    rewritten as :func:`forget` would (``_forget_in_game``), that game alone: games the
    user played since stay as they are. Idempotent, and cheap when there is nothing to
    do (one query): run at every upgrade, by the bot's start and ``wolfhowl db
    upgrade``. How many games were rewritten."""
    async with db.read() as s:
        blanked = await forgetting.blanked_seats(s)
    done = 0
    for game_id, seat in blanked:
        async with db.transaction() as s:
            kept = await forgetting.recorded_holders(s, game_id, seat)
            holders = await forgetting.seat_members(s, game_id, seat)
            for member in holders:
                if member.user_id is not None and member.user_id not in kept:
                    await _forget_in_game(s, game_id, member, member.user_id)
                    done += 1
    return done
