"""Paladin (圣武士): smites the Chaotic, heals with a touch, fears nothing.

Numbers come from ``engine/data/classes/paladin.toml``."""

from __future__ import annotations

from engine.health import heal
from engine.model import GameState, Player, State
from engine.night.combat import attack
from engine.night.context import Night
from engine.skills.base import Skill, no_attack_with
from engine.submissions import Action, Orders


class SmiteEvil(Skill):
    class_id = "paladin"
    skill_id = "smite_evil"

    def execute(self, night: Night, actor: Player, action: Action) -> None:
        if night.turn(actor.seat).cannot_attack:  # Divine Guard (refused at Dusk already)
            return
        target = night.player(action.targets[0])
        bonus = int(self.param("damage_mod")) if target.faction.value == self.param("evil") else 0
        attack(
            night,
            actor,
            target,
            why="smite_evil",
            ab_mod=int(self.param("ab_mod")),
            damage_bonus=bonus,
        )


class LayOnHands(Skill):
    """The healed one learns its new HP (health.heal), never who healed it."""

    class_id = "paladin"
    skill_id = "lay_on_hands"

    def execute(self, night: Night, actor: Player, action: Action) -> None:
        heal(night.events, night.player(action.targets[0]), int(self.param("heal")), "lay_on_hands")


class AuraOfCourage(Skill):
    class_id = "paladin"
    skill_id = "aura_of_courage"

    def resists(self, night: Night, owner: Player, state: str) -> bool:
        return state in (State.SHAKEN, State.DAZED)


class DivineGuard(Skill):
    """A real choice: guard (and heal) tonight, or attack. Smite Evil is an attack too."""

    class_id = "paladin"
    skill_id = "divine_guard"

    def check_orders(self, state: GameState, actor: Player, orders: Orders) -> str | None:
        return no_attack_with(self.skill_id, orders, ("attack", "smite_evil"))

    def night_started(self, night: Night, owner: Player) -> None:
        if night.toggled(owner, self.skill_id):
            t = night.turn(owner.seat)
            t.armor += int(self.param("armor_mod"))
            t.cannot_attack = True


class GrailKnight(Skill):
    class_id = "paladin"
    skill_id = "grail_knight"

    def attack_bonus(self, night: Night, attacker: Player, target: Player) -> int:
        return int(self.param("ab_mod")) if night.held_grail(attacker) else 0

    def damage_taken(self, night: Night, victim: Player, amount: int, source: int | None) -> int:
        if not night.held_grail(victim):
            return amount
        return max(0, amount - int(self.param("damage_reduction")))
