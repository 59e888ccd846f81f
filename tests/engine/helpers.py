"""Builders for engine tests: a hand-made table and dice that roll what the test says."""

from __future__ import annotations

from collections.abc import Iterable

from engine.classes import SkillSpec, class_spec
from engine.dice import Dice
from engine.events import Event
from engine.model import GameState, Phase, Player, Settings
from engine.night.resolve import resolve_night
from engine.submissions import Action, Guess, Identification, Orders
from engine.values import Faction


class ScriptedDice(Dice):
    """Rolls the queued results in order; checks each roll's die size when given as
    (die, result). Running out of script fails the test loudly."""

    def __init__(self, script: Iterable[int | tuple[int, int]] = ()) -> None:
        super().__init__(0)
        self.script = list(script)

    def push(self, *values: int | tuple[int, int]) -> None:
        self.script.extend(values)

    def roll(self, die: int, who: int | None, why: str, need: int | None = None) -> int:
        if not self.script:
            raise AssertionError(f"unscripted roll: d{die} for {why} by {who}")
        item = self.script.pop(0)
        if isinstance(item, tuple):
            want_die, result = item
            assert want_die == die, f"expected a d{want_die} for {why}, got d{die}"
        else:
            result = item
        assert 1 <= result <= die, f"scripted {result} does not fit a d{die} ({why})"
        from engine.dice import Roll

        self.rolls.append(Roll(who, why, die, result, need))
        return result


def table(*roles: tuple[str, str], settings: Settings | None = None, phase: Phase = Phase.DUSK) -> GameState:
    """A state with seats 1..n holding (class_id, faction) in order, full HP."""
    players = []
    for seat, (class_id, faction) in enumerate(roles, start=1):
        spec = class_spec(class_id)
        players.append(Player(seat, f"P{seat}", class_id, Faction(faction), spec.hp, spec.hp, memory=dict(spec.memory)))
    return GameState(players=players, settings=settings or Settings(), phase=phase)


def night(state: GameState, dice: Dice, orders: dict[int, Orders] | None = None, idents: dict[int, Identification] | None = None) -> list[Event]:
    """Resolve one night in place and return its events."""
    events: list[Event] = []
    resolve_night(state, dice, events, idents or {}, orders or {})
    return events


def kinds(events: list[Event]) -> list[str]:
    return [e.kind for e in events]


def needs(events: list[Event], attacker: int | None = None) -> list[int]:
    """The percentage each attack roll needed (of ``attacker``'s only, when given)."""
    return [
        e.data["need"]
        for e in events
        if e.kind == "AttackRolled" and (attacker is None or e.data["attacker"] == attacker)
    ]


def orders(*actions: Action, toggles: tuple[str, ...] | frozenset[str] = ()) -> Orders:
    """Night orders of ``actions``, with the toggles named switched on."""
    return Orders(tuple(actions), frozenset(toggles))


def hit(target: int) -> Action:
    """An attack on seat ``target``."""
    return Action("attack", (target,))


def attack(target: int, *toggles: str) -> Orders:
    """Orders of a single attack on seat ``target``, with ``toggles`` on."""
    return Orders((hit(target),), frozenset(toggles))


def ident(*guesses: tuple[int, str, str]) -> Identification:
    """An identification of ``(seat, what, value)`` guesses."""
    return Identification(tuple(Guess(*g) for g in guesses))


def skill_of(class_id: str, skill_id: str) -> SkillSpec:
    """A class's skill from the class data (tests read balance numbers from it, so a
    tuning pass needs no test change)."""
    found = class_spec(class_id).skill(skill_id)
    assert found is not None, f"{class_id}.{skill_id}"
    return found


def param_of(class_id: str, skill_id: str, name: str) -> int:
    return int(skill_of(class_id, skill_id).params[name])
