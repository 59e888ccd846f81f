"""Druid (德鲁伊): a wolf companion (memory ``companion_hp``) that takes 30% of the attacks
aimed at the Druid and joins every attack the Druid makes.

The wolf has no wounded state: it fights on at HP 0 and dies below 0, like the source's
"HP below 0 is death". Its maximum HP is the class data's starting ``companion_hp``."""

from __future__ import annotations

from engine.classes import class_spec
from engine.events import audit, private
from engine.health import heal
from engine.model import Player, State
from engine.night.attacks import AttackResult, Swing
from engine.night.combat import (
    attack,
    damage_roll,
    deal,
    inflict,
    plain,
    spell_target,
)
from engine.night.context import Night
from engine.skills.base import Skill, StatToggle, hooks_for
from engine.stats import armor_class, attack_bonus
from engine.submissions import Action

COMPANION = "companion_hp"


def wolf_hp(druid: Player) -> int:
    return int(druid.memory.get(COMPANION, -1))


def wolf_alive(druid: Player) -> bool:
    return wolf_hp(druid) >= 0


def wolf_max(druid: Player) -> int:
    return int(class_spec(druid.class_id).memory[COMPANION])


class AnimalCompanion(Skill):
    class_id = "druid"
    skill_id = "animal_companion"

    def intercept(self, night: Night, owner: Player, attacker: Player, swing: Swing) -> bool:
        """The 30% roll (the Druid's, recorded); then the attack, with all its own
        modifiers and the attacker's bonuses against the Druid, is rolled against the
        wolf's flat AC. No steal, no counter: the wolf carries nothing and has no reflexes."""
        if not wolf_alive(owner):
            return False
        if not night.dice.check(int(self.param("chance")), owner.seat, f"companion-intercept:{attacker.seat}"):
            return False
        ab = attack_bonus(attacker, night) + swing.ab_mod
        for s in hooks_for(attacker.class_id, "attack_bonus"):
            ab += s.attack_bonus(night, attacker, owner)
        need = ab - int(self.param("ac"))
        roll = night.dice.roll(100, attacker.seat, f"{swing.why}:companion:{owner.seat}", need=need)
        hit = roll <= need
        night.emit(audit("AttackRolled", attacker=attacker.seat, target=owner.seat, companion=True, why=swing.why, roll=roll, need=need, hit=hit))
        if hit and swing.deal_damage:
            damage = damage_roll(night, attacker, owner, swing.damage_override, swing.damage_bonus, swing.die)
            self.hurt_wolf(night, owner, damage, attacker.seat)
        return True

    def hurt_wolf(self, night: Night, owner: Player, damage: int, source: int) -> None:
        hp = wolf_hp(owner) - damage
        owner.memory[COMPANION] = hp
        night.emit(audit("CompanionDamaged", druid=owner.seat, source=source, amount=damage, hp=hp))
        if hp < 0:
            night.emit(private(owner.seat, "CompanionDied"))
        else:
            night.emit(private(owner.seat, "CompanionHurt", amount=damage, hp=hp, max_hp=wolf_max(owner)))

    def attack_made(self, night: Night, owner: Player, target: Player, result: AttackResult) -> None:
        """The wolf's own attack on the Druid's target: AB 50 against the target's AC and
        defences (a wounded target is always hit), d2 damage credited to the Druid, no steal,
        not countered. The Druid's states do not touch the wolf. A Druid wounded or killed
        during its own attack (a counter) does nothing more (E12): nor does its wolf."""
        if not wolf_alive(owner) or not owner.able or not target.alive:
            return
        ac = armor_class(target, night)
        for s in hooks_for(target.class_id, "defense_bonus"):
            ac += s.defense_bonus(night, target, owner)
        need = int(self.param("ab")) - ac
        roll = night.dice.roll(100, owner.seat, f"companion:{target.seat}", need=100 if target.wounded else need)
        hit = target.wounded or roll <= need
        night.emit(audit("AttackRolled", attacker=owner.seat, target=target.seat, companion=True, why="companion", roll=roll, need=need, hit=hit))
        if hit:
            damage = night.dice.roll(int(self.param("die")), owner.seat, f"companion-damage:{target.seat}")
            deal(night, target, damage, owner.seat, "companion")


class Entangle(Skill):
    class_id = "druid"
    skill_id = "entangle"

    def execute(self, night: Night, actor: Player, action: Action) -> None:
        target = spell_target(night, actor, action.targets[0], "entangle")
        if target is None:
            return
        escaped = plain(night, target, "reflex", f"entangle-reflex:{target.seat}")
        night.emit(audit("SpellCast", caster=actor.seat, target=target.seat, why="entangle", success=not escaped))
        if not escaped:
            inflict(night, target, State.DAZED, night.round + int(self.param("daze_nights")), actor.seat)


class Barkskin(StatToggle):
    class_id = "druid"
    skill_id = "barkskin"

    BONUSES = (("armor", "armor_mod"), ("ab", "ab_mod"))


class WildShape(Skill):
    class_id = "druid"
    skill_id = "wild_shape"

    def execute(self, night: Night, actor: Player, action: Action) -> None:
        attack(night, actor, night.player(action.targets[0]), why="wild_shape", ab_mod=int(self.param("ab_mod")), die=int(self.param("die")))


class NaturesBounty(Skill):
    class_id = "druid"
    skill_id = "natures_bounty"

    def night_ended(self, night: Night, owner: Player) -> None:
        if not night.held_grail(owner):
            return
        heal(night.events, owner, int(self.param("heal")), "natures_bounty")
        if wolf_alive(owner):
            before = wolf_hp(owner)
            owner.memory[COMPANION] = min(before + int(self.param("companion_heal")), max(before, wolf_max(owner)))
            gained = wolf_hp(owner) - before
            if gained > 0:
                night.emit(private(owner.seat, "CompanionHealed", amount=gained, hp=wolf_hp(owner), max_hp=wolf_max(owner)))
