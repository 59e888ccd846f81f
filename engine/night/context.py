"""The night being resolved: per-player bookkeeping (actions left, the night's
modifiers, whether the grail was held) and the shared event and dice streams."""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.dice import Dice
from engine.events import Event
from engine.model import GameState, Player
from engine.submissions import Orders


@dataclass(slots=True)
class Turn:
    """One player's night. ``ab``/``armor``/``dex``/``saves`` are this night's changes."""

    standard: int = 1
    free: int = 1
    ab: int = 0
    armor: int = 0
    dex: int = 0
    damage: int = 0
    saves: dict[str, int] = field(default_factory=dict)
    held_grail: bool = False
    toggles: frozenset[str] = frozenset()
    acted: bool = False
    cannot_attack: bool = False
    void: bool = False  # orders lost (held, snared, …) if it has not acted yet
    death_ward: bool = False  # cannot fall below HP 0 tonight
    notes: dict[str, object] = field(default_factory=dict)


class Night:
    """Context handed to skills. Mutates ``state`` in place."""

    def __init__(self, state: GameState, dice: Dice, events: list[Event], orders: dict[int, Orders]) -> None:
        self.state = state
        self.dice = dice
        self.events = events
        self.orders = orders
        self.round = state.round
        self._turns: dict[int, Turn] = {}
        for p in state.players:
            t = Turn()
            o = orders.get(p.seat)
            if o is not None and p.able:
                t.toggles = o.toggles
            self._turns[p.seat] = t
        if state.grail_holder is not None:
            self._turns[state.grail_holder].held_grail = True
        # Seats still to act this night, in initiative order (filled by the resolver).
        self.order: list[int] = []

    def turn(self, seat: int) -> Turn:
        return self._turns[seat]

    def player(self, seat: int) -> Player:
        return self.state.player(seat)

    def toggled(self, p: Player, skill_id: str) -> bool:
        return skill_id in self._turns[p.seat].toggles

    def held_grail(self, p: Player) -> bool:
        """R10: has held the grail at any moment of this night so far. Holding it now
        counts too: a killer who takes it from the body never passes through
        ``give_grail``."""
        return self._turns[p.seat].held_grail or self.state.grail_holder == p.seat

    def give_grail(self, seat: int | None) -> None:
        old = self.state.grail_holder
        if old is not None:
            self._turns[old].held_grail = True
        self.state.grail_holder = seat
        if seat is not None:
            self._turns[seat].held_grail = True

    def spend(self, seat: int, cost: str) -> bool:
        """Pay for an action. A free action falls back on the standard one (never the
        other way round); ``none`` is always paid. False when it cannot be paid."""
        t = self._turns[seat]
        if cost == "none":
            return True
        if cost == "standard":
            if t.standard:
                t.standard -= 1
                return True
            return False
        if t.free:
            t.free -= 1
            return True
        if t.standard:
            t.standard -= 1
            return True
        return False

    def can_pay_free(self, seat: int) -> bool:
        t = self._turns[seat]
        return bool(t.free or t.standard)

    def emit(self, event: Event) -> None:
        self.events.append(event)
