"""The skill protocol and registry.

A skill's numbers come from the class data (``self.spec.params``); its behaviour is a
subclass of :class:`Skill` that names its ``class_id`` and ``skill_id``. The night resolver
calls only the hooks a class's skills actually override (see ``hooks_for``), so an
unused hook costs nothing.
"""

from __future__ import annotations

from functools import cache
from typing import Any, ClassVar

from engine import rules
from engine.classes import SkillSpec, catalogue_of
from engine.model import GameState, Player
from engine.night.attacks import AttackResult, Swing
from engine.night.context import Night
from engine.submissions import Action, Orders


class Skill:
    """Base class; every hook is a no-op until a subclass overrides it."""

    class_id: ClassVar[str]
    skill_id: ClassVar[str]

    def __init__(self, spec: SkillSpec) -> None:
        self.spec = spec

    def param(self, name: str) -> Any:
        return self.spec.params[name]

    # -- validation (Dusk) -------------------------------------------------------------
    def check(self, state: GameState, actor: Player, action: Action) -> str | None:
        """Extra preconditions beyond targets and cost; return a reason key to refuse."""
        return None

    def check_orders(self, state: GameState, actor: Player, orders: Orders) -> str | None:
        """Preconditions on the night's orders as a whole (a spell-point budget shared by
        several actions); called for every skill of the actor's class. A reason key refuses."""
        return None

    # -- resolution (Night) ------------------------------------------------------------
    def execute(self, night: Night, actor: Player, action: Action) -> None:
        """An active skill's effect, at the actor's turn, after its cost is paid."""
        raise NotImplementedError(f"{self.skill_id} is not an active skill")

    def night_started(self, night: Night, owner: Player) -> None:
        """Before initiative, for every living owner (wounded too: a wounded owner has no
        toggles on); toggles read ``night.toggled(owner, id)`` here."""

    def attack_bonus(self, night: Night, attacker: Player, target: Player) -> int:
        """AB change for ``attacker`` (the skill's owner) attacking ``target``."""
        return 0

    def damage_bonus(self, night: Night, attacker: Player, target: Player) -> int:
        return 0

    def defense_bonus(self, night: Night, defender: Player, attacker: Player) -> int:
        """AC change for ``defender`` (the owner) against ``attacker``."""
        return 0

    def damage_taken(self, night: Night, victim: Player, amount: int, source: int | None) -> int:
        """Adjust damage about to hit the owner; return the new amount."""
        return amount

    def intercept(self, night: Night, owner: Player, attacker: Player, swing: Swing) -> bool:
        """Take over an attack aimed at the owner (the Druid's companion), made with
        ``swing``'s modifiers; True if taken."""
        return False

    def attacked_and_missed(self, night: Night, owner: Player, attacker: Player) -> None:
        """An attack on the owner missed."""

    def attack_hit(self, night: Night, owner: Player, target: Player, damage: int) -> None:
        """The owner's attack hit ``target`` for ``damage``."""

    def attack_made(self, night: Night, owner: Player, target: Player, result: AttackResult) -> None:
        """The owner made an attack on ``target`` (hit, missed or intercepted; not fizzled),
        after everything it caused."""

    def steal_chance(self, night: Night, thief: Player, victim: Player, chance: int) -> int:
        """Adjust a steal's chance; called for the thief's and the victim's skills."""
        return chance

    def keeps_dex(self, night: Night | None, owner: Player) -> bool:
        """True if the owner keeps its Dexterity bonus despite Dazed/Grappled."""
        return False

    def resists(self, night: Night, owner: Player, state: str) -> bool:
        """True if the owner is immune to ``state``."""
        return False

    def night_ended(self, night: Night, owner: Player) -> None:
        """After every turn, before grails are banked."""


class StatToggle(Skill):
    """A toggle that, on the nights it is on, adds its modifiers to the owner's night:
    ``BONUSES`` pairs a number of the night's ``Turn`` (``ab``, ``armor``, ``dex``,
    ``damage``) with the skill parameter that holds its modifier."""

    BONUSES: ClassVar[tuple[tuple[str, str], ...]] = ()

    def night_started(self, night: Night, owner: Player) -> None:
        if night.toggled(owner, self.skill_id):
            turn = night.turn(owner.seat)
            for stat, param in self.BONUSES:
                setattr(turn, stat, getattr(turn, stat) + int(self.param(param)))


HOOKS = (
    "night_started",
    "attack_bonus",
    "damage_bonus",
    "defense_bonus",
    "damage_taken",
    "intercept",
    "attacked_and_missed",
    "attack_hit",
    "attack_made",
    "steal_chance",
    "keeps_dex",
    "resists",
    "night_ended",
)

def _registry() -> dict[tuple[str, str], type[Skill]]:
    """Every concrete skill by ``(class_id, skill_id)``: the subclasses of :class:`Skill`
    (at any depth) that name both. Plain class attributes rather than a decorator, so the
    classes stay native under mypyc (bench/engine.py --compiled). They are defined by the
    modules of :mod:`engine.skills.classes`, which import this module (and the combat
    rules, which import it too), never the other way round: whatever looks skills up by
    class (the night's resolver, ``engine.validate``) imports that package."""
    found: dict[tuple[str, str], type[Skill]] = {}
    todo = list(Skill.__subclasses__())
    while todo:
        cls = todo.pop()
        todo.extend(cls.__subclasses__())
        key = (getattr(cls, "class_id", ""), getattr(cls, "skill_id", ""))
        if not all(key):
            continue
        if key in found and found[key] is not cls:
            raise ValueError(f"skill {key} defined twice")
        found[key] = cls
    return found


def skills_of(class_id: str) -> dict[str, Skill]:
    """The class's skills, instantiated with their data under the rules version in force
    (engine.rules); every data skill must have code."""
    return _skills_of(class_id, rules.in_force())


@cache
def _skills_of(class_id: str, version: int) -> dict[str, Skill]:
    registry = _registry()
    spec = catalogue_of(version)[class_id]
    out: dict[str, Skill] = {}
    for s in spec.skills:
        impl = registry.get((class_id, s.id))
        if impl is None:
            raise LookupError(f"no behaviour defined for skill {class_id}.{s.id} (engine.skills.classes defines them)")
        out[s.id] = impl(s)
    return out


def hooks_for(class_id: str, hook: str) -> tuple[Skill, ...]:
    """The class's skills that override ``hook``."""
    return _hooks_for(class_id, hook, rules.in_force())


@cache
def _hooks_for(class_id: str, hook: str, version: int) -> tuple[Skill, ...]:
    base = getattr(Skill, hook)
    return tuple(s for s in _skills_of(class_id, version).values() if getattr(type(s), hook) is not base)


def no_attack_with(skill_id: str, orders: Orders, attacks: tuple[str, ...] = ("attack",)) -> str | None:
    """For toggles that forbid attacking (the plain attack and any ``attacks`` skills):
    refuse such orders at Dusk rather than let the attack be spent silently at night."""
    if skill_id in orders.toggles and any(a.skill in attacks for a in orders.actions):
        return "reason.no_attack_tonight"
    return None
