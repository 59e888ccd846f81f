"""Barbarian (野蛮人): rage now and pay for it tomorrow; hard to put down.

Numbers come from ``engine/data/classes/barbarian.toml``."""

from __future__ import annotations

from engine import rules
from engine.events import audit, private
from engine.model import Player, State
from engine.night.combat import attack, inflict
from engine.night.context import Night
from engine.skills.base import Skill
from engine.submissions import Action


class Rage(Skill):
    """Toggle. The Fatigue comes at the night's end, not at its start: inflicted at once it
    would cancel tonight's own bonus (Fatigued is AB −5, damage −1)."""

    class_id = "barbarian"
    skill_id = "rage"

    def night_started(self, night: Night, owner: Player) -> None:
        if night.toggled(owner, self.skill_id):
            t = night.turn(owner.seat)
            t.ab += int(self.param("ab_mod"))
            t.damage += int(self.param("damage_mod"))
            t.dex += int(self.param("dex_mod"))
            t.notes["raged"] = True

    def night_ended(self, night: Night, owner: Player) -> None:
        if night.turn(owner.seat).notes.get("raged"):
            inflict(
                night,
                owner,
                State.FATIGUED,
                night.round + int(self.param("fatigue_nights")),
                owner.seat,
            )


class DamageReduction(Skill):
    """Night damage only: the vote's damage does not pass through the damage_taken hooks.
    Damage already reduced to 0 by something else stays 0."""

    class_id = "barbarian"
    skill_id = "damage_reduction"

    def damage_taken(self, night: Night, victim: Player, amount: int, source: int | None) -> int:
        if amount <= 0:
            return amount
        return max(int(self.param("minimum")), amount - int(self.param("amount")))


class Indomitable(Skill):
    """Once per game, passive: the first killing blow at night leaves the Barbarian at HP 0.
    A death ward already keeps it alive, so the save is not wasted then. The owner is told
    privately, since it must know the skill is spent, with the blow's damage: the blow a
    save stops is shown nowhere else when the Barbarian was already at HP 0."""

    class_id = "barbarian"
    skill_id = "indomitable"

    def damage_taken(self, night: Night, victim: Player, amount: int, source: int | None) -> int:
        floor = int(self.param("floor_hp"))
        if self.skill_id in victim.used_once or night.turn(victim.seat).death_ward:
            return amount
        if victim.hp - amount >= floor:
            return amount
        victim.used_once.append(self.skill_id)
        night.emit(audit("IndomitableSaved", seat=victim.seat, source=source, prevented=amount))
        news = {"amount": amount} if rules.in_force() >= rules.NIGHT_STORY else {}
        night.emit(private(victim.seat, "IndomitableSaved", **news))
        return max(0, victim.hp - floor)


class RecklessCharge(Skill):
    """The Dexterity penalty is taken before the attack and lasts the rest of the night."""

    class_id = "barbarian"
    skill_id = "reckless_charge"

    def execute(self, night: Night, actor: Player, action: Action) -> None:
        night.turn(actor.seat).dex += int(self.param("dex_mod"))
        attack(
            night,
            actor,
            night.player(action.targets[0]),
            why="reckless_charge",
            ab_mod=int(self.param("ab_mod")),
        )


class BloodFrenzy(Skill):
    class_id = "barbarian"
    skill_id = "blood_frenzy"

    def damage_bonus(self, night: Night, attacker: Player, target: Player) -> int:
        return int(self.param("damage_mod")) if night.held_grail(attacker) else 0

    def steal_chance(self, night: Night, thief: Player, victim: Player, chance: int) -> int:
        """Called for the thief's and the victim's skills alike, so act only when the
        thief is a Barbarian; raising to a floor (not adding) keeps a second call harmless."""
        if thief.class_id == self.class_id and night.held_grail(thief):
            return max(chance, int(self.param("steal_chance")))
        return chance
