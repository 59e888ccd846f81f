"""Sorcerer (术士): a pool of spell points (memory ``spell_points``) that it alone splits
among its spells.

The pool's rules, exactly: it starts at the class data's ``memory.spell_points``; at the
start of every night the Sorcerer can act in, it gains Chaos Bolt's ``gain`` (capped at
``cap``); unspent points carry over; a spell pays when it resolves (what is left if the
pool is short, fizzling at 0); Arcane Ward pays at the night's start, after the gain; Font
of Power adds its points at the night's end (capped). Chaos Bolt's data holds the pool's
numbers, so every skill reads them from there.
"""

from __future__ import annotations

from engine.classes import class_spec
from engine.events import audit, private
from engine.model import GameState, Player, State
from engine.night.combat import damage_roll, deal, inflict, opposed, plain, spell_target
from engine.night.context import Night
from engine.skills.base import Skill, skills_of
from engine.submissions import Action, Orders

POOL = "spell_points"
GAINED = "sorcerer.gained"  # Turn.notes: tonight's gain has been added
SURGE = "sorcerer.wild_surge"  # Turn.notes: spells cost nothing from now on tonight


def _pool_param(p: Player, name: str) -> int:
    return int(skills_of(p.class_id)["chaos_bolt"].param(name))


def points(p: Player) -> int:
    return int(p.memory.get(POOL, 0))


def _refill(night: Night, owner: Player) -> None:
    """Add the night's gain once, whichever skill's ``night_started`` runs first; none
    for a Sorcerer who starts the night wounded."""
    turn = night.turn(owner.seat)
    if turn.notes.get(GAINED) or not owner.able:
        return
    turn.notes[GAINED] = True
    owner.memory[POOL] = min(points(owner) + _pool_param(owner, "gain"), _pool_param(owner, "cap"))


def _pay(night: Night, actor: Player, wanted: int) -> int:
    """Pay for a spell as it resolves: the points it gets to use (what is left if short).
    After Wild Surge the spell gets all it asked for and the pool is untouched."""
    if night.turn(actor.seat).notes.get(SURGE):
        return wanted
    paid = min(wanted, points(actor))
    actor.memory[POOL] = points(actor) - paid
    return paid


def _aim_and_pay(night: Night, actor: Player, action: Action, why: str) -> tuple[Player, int] | None:
    """The target of a pool spell and the points it gets, or None when it fizzles: at a
    target dead before it resolves (nothing paid), or with no points to pay."""
    target = spell_target(night, actor, action.targets[0], why)
    if target is None:
        return None
    spent = _pay(night, actor, action.amount or 0)
    if spent == 0:
        night.emit(audit("SpellFizzled", caster=actor.seat, target=target.seat, why=why, reason="no_points"))
        return None
    return target, spent


class ChaosBolt(Skill):
    """Holds the pool: the night's gain, the Dusk budget check, and the bolt itself."""

    class_id = "sorcerer"
    skill_id = "chaos_bolt"

    def check_orders(self, state: GameState, actor: Player, orders: Orders) -> str | None:
        spec = class_spec(actor.class_id)
        volley: list[int] = []
        total = 0
        for i, a in enumerate(orders.actions):
            s = spec.skill(a.skill)
            if s is not None and s.group == self.spec.group:
                volley.append(i)
                total += a.amount or 0
        if not volley:
            return None
        surge = next((i for i, a in enumerate(orders.actions) if a.skill == "wild_surge"), None)
        if surge is not None and surge < min(volley):
            return None
        budget = min(points(actor) + int(self.param("gain")), int(self.param("cap")))
        if "arcane_ward" in orders.toggles:  # the ward is paid first, at nightfall
            ward = class_spec(actor.class_id).skill("arcane_ward")
            budget -= int(ward.params["cost"]) if ward is not None else 0
        return None if total <= budget else "reason.no_points"

    def night_started(self, night: Night, owner: Player) -> None:
        _refill(night, owner)

    def execute(self, night: Night, actor: Player, action: Action) -> None:
        cast = _aim_and_pay(night, actor, action, "chaos_bolt")
        if cast is None:
            return
        target, spent = cast
        dodged = plain(night, target, "reflex", f"chaos-bolt-reflex:{target.seat}")
        damage = damage_roll(night, actor, target, override=spent)
        if dodged:
            damage //= 2
        night.emit(audit("SpellCast", caster=actor.seat, target=target.seat, why="chaos_bolt", points=spent, dodged=dodged, damage=damage))
        if damage > 0:
            deal(night, target, damage, actor.seat, "chaos_bolt")


class Frighten(Skill):
    class_id = "sorcerer"
    skill_id = "frighten"

    def execute(self, night: Night, actor: Player, action: Action) -> None:
        cast = _aim_and_pay(night, actor, action, "frighten")
        if cast is None:
            return
        target, spent = cast
        ok = opposed(night, actor, target, "will", "frighten")
        night.emit(audit("SpellCast", caster=actor.seat, target=target.seat, why="frighten", points=spent, success=ok))
        if not ok:
            return
        inflict(night, target, State.SHAKEN, night.round + int(self.param("shaken_nights")), actor.seat)
        if spent >= int(self.param("daze_points")):
            inflict(night, target, State.DAZED, night.round, actor.seat)


class ArcaneWard(Skill):
    class_id = "sorcerer"
    skill_id = "arcane_ward"

    def night_started(self, night: Night, owner: Player) -> None:
        _refill(night, owner)  # the gain comes first, whichever hook runs first
        if not night.toggled(owner, self.skill_id):
            return
        cost = int(self.param("cost"))
        if points(owner) < cost:
            night.emit(audit("WardFailed", seat=owner.seat, reason="no_points"))
            return
        owner.memory[POOL] = points(owner) - cost
        night.turn(owner.seat).armor += int(self.param("armor_mod"))
        night.emit(audit("WardRaised", seat=owner.seat, points=points(owner)))


class FontOfPower(Skill):
    """Runs at every night's end for a living Sorcerer: adds the grail's points if it held
    the grail, then tells the owner its pool (private SpellPoints), the last thing any
    skill does to the pool that night."""

    class_id = "sorcerer"
    skill_id = "font_of_power"

    def night_ended(self, night: Night, owner: Player) -> None:
        gained = 0
        if night.held_grail(owner):
            before = points(owner)
            owner.memory[POOL] = min(before + int(self.param("points")), _pool_param(owner, "cap"))
            gained = points(owner) - before
        night.emit(private(owner.seat, "SpellPoints", points=points(owner), cap=_pool_param(owner, "cap"), gained=gained))


class WildSurge(Skill):
    class_id = "sorcerer"
    skill_id = "wild_surge"

    def execute(self, night: Night, actor: Player, action: Action) -> None:
        night.turn(actor.seat).notes[SURGE] = True
        night.emit(audit("WildSurge", seat=actor.seat))
