"""Wizard (法师): spells that need no attack roll, and therefore never steal the grail."""

from __future__ import annotations

from engine.events import audit
from engine.model import Player, State
from engine.night.combat import damage_roll, deal, inflict, opposed, plain, spell_target
from engine.night.context import Night
from engine.skills.base import Skill, skills_of
from engine.submissions import Action


def _surge(night: Night, actor: Player, name: str) -> int:
    """Arcane Surge's ``name`` bonus while the Wizard has held the grail tonight, else 0."""
    if not night.held_grail(actor):
        return 0
    return int(skills_of(actor.class_id)["arcane_surge"].param(name))


class MagicMissile(Skill):
    """No attack roll: the missile always strikes. It goes through ``damage_roll`` like any
    damage the Wizard deals, so Fatigued still takes 1 off (at least 1)."""

    class_id = "wizard"
    skill_id = "magic_missile"

    def execute(self, night: Night, actor: Player, action: Action) -> None:
        target = spell_target(night, actor, action.targets[0], "magic_missile")
        if target is None:
            return
        bonus = _surge(night, actor, "missile_damage")
        damage = damage_roll(night, actor, target, bonus=bonus, die=int(self.param("die")))
        night.emit(audit("SpellCast", caster=actor.seat, target=target.seat, why="magic_missile", damage=damage))
        deal(night, target, damage, actor.seat, "magic_missile")


class HoldPerson(Skill):
    """The orders are lost whenever the hold succeeds, even if the target is immune to
    Dazed (the hold, not the daze, stops it acting)."""

    class_id = "wizard"
    skill_id = "hold_person"

    def execute(self, night: Night, actor: Player, action: Action) -> None:
        target = spell_target(night, actor, action.targets[0], "hold_person")
        if target is None:
            return
        ok = opposed(night, actor, target, "will", "hold-person", bonus=_surge(night, actor, "check_bonus"))
        night.emit(audit("SpellCast", caster=actor.seat, target=target.seat, why="hold_person", success=ok))
        if not ok:
            return
        inflict(night, target, State.DAZED, night.round + int(self.param("daze_nights")), actor.seat)
        turn = night.turn(target.seat)
        if not turn.acted:
            turn.void = True
            night.emit(audit("OrdersLost", seat=target.seat, source=actor.seat, why="hold_person"))


class MageArmor(Skill):
    class_id = "wizard"
    skill_id = "mage_armor"

    def night_started(self, night: Night, owner: Player) -> None:
        if night.toggled(owner, self.skill_id):
            turn = night.turn(owner.seat)
            turn.armor += int(self.param("armor_mod"))
            turn.saves["will"] = turn.saves.get("will", 0) + int(self.param("will_mod"))


class ArcaneSurge(Skill):
    """No hook of its own: Magic Missile and Hold Person read its numbers (``_surge``)."""

    class_id = "wizard"
    skill_id = "arcane_surge"


class Fireball(Skill):
    """Each target in the order named: its Reflex check, then its own d4+1 (halved,
    rounded down, on a pass). A target that has died meanwhile is skipped."""

    class_id = "wizard"
    skill_id = "fireball"

    def execute(self, night: Night, actor: Player, action: Action) -> None:
        for seat in action.targets:
            target = spell_target(night, actor, seat, "fireball")
            if target is None:
                continue
            dodged = plain(night, target, "reflex", f"fireball-reflex:{target.seat}")
            damage = damage_roll(night, actor, target, bonus=int(self.param("damage_mod")), die=int(self.param("die")))
            if dodged:
                damage //= 2
            night.emit(audit("SpellCast", caster=actor.seat, target=target.seat, why="fireball", dodged=dodged, damage=damage))
            if damage > 0:  # a halved 0 is no hit at all, not even for "at least 1" reductions
                deal(night, target, damage, actor.seat, "fireball")
