"""AI seats: seats held by no Discord user and played by the simulator's baseline AI.

An AI seat is a ``game_players`` row whose ``user_id`` is NULL. In the lobby a moderator
sets ``ai_seats`` (a game setting): that many AI rows wait in the lobby beside the humans,
each with a tavern name that says what it is (🤖 and a name from the game's language), so
the deal, the seed and ``verify`` treat them as any other seat. Or ``fill_to`` (0: off):
the AI fills the table up to that many players, giving up a seat to each human who
joins and taking it back when one leaves. A game needs at least one human. Once dealt, ``seat_to_ai`` hands a living seat to the AI (an absent player's,
for instance); ``/game replace`` gives an AI seat to a newcomer as any other seat.

How an AI seat plays (what it reads, when it submits) is :mod:`bot.features.ai_seats.play`.
"""

from __future__ import annotations

import random
from typing import Any

import engine
from bot.core import table
from bot.core.errors import BadArgumentError, ServiceError
from bot.core.hooks import Step
from bot.core.messages import PlayerReplaced, SeatHandedOver, Sheet
from bot.core.steps import step_result, write_step
from bot.core.table import Table
from bot.core.types import GameSettings, StepResult
from bot.db import repositories as repo
from bot.db.models import GamePlayer
from bot.db.session import Database
from bot.features.ai_seats.turns import plan_phase
from bot.features.moderation.seats import check_seat_argument, held_seat, vacate
from bot.i18n import t

AI_MARK = "🤖"
NAMES = 14  # ai_seat.name_1 … name_14 in each catalogue: at most 14 AI seats beside one human


class AiSeatsTooManyError(BadArgumentError):
    """More AI seats than the table has room for beside the humans (and at least one)."""

    key = "error.ai_seats_too_many"


class AiBothError(BadArgumentError):
    """``ai_seats`` and ``fill_to`` given together: one says how many, the other to how many."""

    key = "error.ai_fill_both"


class FillToRangeError(BadArgumentError):
    """``fill_to`` below the smallest game or above the player limit."""

    key = "error.ai_fill_range"


class NeedsAHumanError(ServiceError):
    """A game of AI seats alone."""

    key = "error.ai_needs_human"


def is_ai(holder: GamePlayer) -> bool:
    return holder.user_id is None


def ai_names(game_id: int, count: int, language: str) -> list[str]:
    """``count`` distinct tavern names for game ``game_id``'s AI seats, in ``language``:
    a different draw for each game, the same for the same game."""
    picked = random.Random(f"ai-names:{game_id}").sample(range(1, NAMES + 1), NAMES)[:count]
    return [f"{AI_MARK} {t(f'ai_seat.name_{i}', language)}" for i in picked]


def merged(current: dict[str, Any], changes: dict[str, Any]) -> dict[str, Any]:
    """``current`` settings with ``changes``: a fixed count (``ai_seats``) switches the
    filling (``fill_to``) off and the filling the fixed count; both at once are refused."""
    if changes.get("ai_seats") and changes.get("fill_to"):
        raise AiBothError(field="fill_to")
    if changes.get("fill_to"):
        changes = {"ai_seats": 0} | changes
    elif changes.get("ai_seats"):
        changes = {"fill_to": 0} | changes
    return current | changes


def wanted(settings: GameSettings, humans: int) -> int:
    """How many AI seats the lobby has beside ``humans`` people: the fixed count, or
    what fills the table to ``fill_to`` (keeping a place for one human at least)."""
    if settings.fill_to:
        return max(0, settings.fill_to - max(humans, 1))
    return settings.ai_seats


def check(settings: GameSettings) -> None:
    """A filling target is a table the game can be played at (6 players at least) and
    within the player limit."""
    if settings.ai_seats and settings.fill_to:
        raise AiBothError(field="fill_to")
    if settings.fill_to and not engine.MIN_PLAYERS <= settings.fill_to <= settings.max_players:
        raise FillToRangeError(field="fill_to", min=engine.MIN_PLAYERS, max=settings.max_players)


async def sync_lobby(t: Table, settings: GameSettings) -> None:
    """Make the lobby's AI rows match ``settings`` (``wanted``, in the settings'
    language), after a change of settings or a human's coming or going. Refused when the
    AI seats and the humans who joined would not fit the table, or when no seat would be
    left for a human. The seats that stay keep their names and places: filling the
    table, the last AI seat named is the one that gives way to a human."""
    check(settings)
    members = await t.lobby()
    humans = sum(1 for m in members if not is_ai(m))
    count = wanted(settings, humans)
    if count + max(humans, 1) > settings.max_players:
        raise AiSeatsTooManyError(field="ai_seats", max=settings.max_players - max(humans, 1))
    current = [m for m in members if is_ai(m)]
    names = ai_names(t.id, count, settings.language)
    have = [m.display_name for m in current]
    if have == names:
        return
    keep = min(len(have), len(names))
    if have[:keep] != names[:keep]:  # another language: all anew
        keep = 0
    for gone in current[keep:]:
        await t.left(gone)
    for name in names[keep:]:
        t.joined(GamePlayer(game_id=t.id, user_id=None, active_user_id=None, display_name=name, status="lobby", joined_at=t.now))
    await t.session.flush()


def require_human(members: list[GamePlayer]) -> None:
    """At the deal: at least one seat goes to a human."""
    if all(is_ai(m) for m in members):
        raise NeedsAHumanError()


def ai_count(holders: dict[int, GamePlayer]) -> int:
    """How many of a game's seats the AI holds."""
    return sum(1 for h in holders.values() if is_ai(h))


async def seat_to_ai(db: Database, game_id: int, seat: int) -> StepResult:
    """Hand a living seat of a running or paused game to the AI: its holder is released
    (told by DM, free to join other games, as when replaced), the seat takes an AI name
    and goes on playing from what the seat knows. A seat the AI already holds is
    refused (SeatGoneError is not right: BadArgumentError naming the seat)."""
    check_seat_argument(seat)
    async with table.of(db, game_id, writing=True) as t:
        return await hand_to_ai(t, seat)


async def hand_to_ai(t: Table, seat: int, *, reason: str | None = None) -> StepResult:
    """``seat_to_ai`` on the caller's table (also the absence policy's "ai"); ``reason``
    (absence) is kept in the step's inputs, as a moderator's hand-over's."""
    holders = await held_seat(t, seat)
    game, state, s = t.game, t.state, t.session
    old = holders[seat]
    if is_ai(old):
        raise BadArgumentError(field="seat", reason="the AI holds it already")
    taken = {h.display_name for h in holders.values()}
    name = next(n for n in ai_names(game.id, NAMES, t.settings.language) if n not in taken)
    vacate(old, "replaced", t.now)
    await s.flush()
    t.joined(GamePlayer(game_id=game.id, user_id=None, active_user_id=None, display_name=name, seat=seat, status="playing", joined_at=t.now))
    old_name = state.player(seat).name
    state.player(seat).name = name
    step = Step(t, "replace", game.round, str(game.phase))
    seq = write_step(t, step, inputs={"seat": seat, "name": name} | ({"reason": reason} if reason else {}), state=state)
    await s.flush()
    mail = step.mail = await t.mail(seq=seq, round_no=game.round, phase=str(game.phase))
    mail.public(PlayerReplaced(seat=seat, old_name=old_name, new_name=name))
    mail.to_seat(seat, Sheet(sheet=engine.view.sheet(state, seat)))
    assert old.user_id is not None
    mail.locales.update(await repo.user_locales(s, [old.user_id]))
    mail.private(old.user_id, SeatHandedOver(seat=seat, new_name=name))
    await s.flush()
    await plan_phase(t)  # its turn in the open phase (a paused game's: at the resume)
    return step_result(step, seq)
