"""Rogue (游荡者): strikes the unready, lifts the grail without a fight, slips away.

Numbers come from ``engine/data/classes/rogue.toml``."""

from __future__ import annotations

from engine.events import audit
from engine.model import GameState, Player, State
from engine.night.combat import steal
from engine.night.context import Night
from engine.skills.base import Skill, no_attack_with
from engine.stats import dex_bonus, save
from engine.submissions import Action, Orders


class SneakAttack(Skill):
    """Whether the target has acted yet is the core's ``Turn.acted``: a target whose
    orders were voided before its turn never acted, so it stays open to a sneak attack."""

    class_id = "rogue"
    skill_id = "sneak_attack"

    def damage_bonus(self, night: Night, attacker: Player, target: Player) -> int:
        if not night.turn(target.seat).acted or dex_bonus(target, night) == 0:
            return int(self.param("damage_mod"))
        return 0


class Pickpocket(Skill):
    class_id = "rogue"
    skill_id = "pickpocket"

    def chance(self, night: Night, actor: Player, target: Player) -> int:
        diff = save(actor, "reflex", night) - save(target, "reflex", night)
        raw = int(self.param("base_chance")) + diff // int(self.param("divisor"))
        return max(int(self.param("min_chance")), min(int(self.param("max_chance")), raw))

    def execute(self, night: Night, actor: Player, action: Action) -> None:
        target = night.player(action.targets[0])
        if night.state.grail_holder != target.seat:
            night.emit(audit("PickpocketEmpty", seat=actor.seat, target=target.seat))
            return
        steal(night, actor, target, chance=self.chance(night, actor, target), why="pickpocket")


class UncannyDodge(Skill):
    class_id = "rogue"
    skill_id = "uncanny_dodge"

    def keeps_dex(self, night: Night | None, owner: Player) -> bool:
        return not owner.has(State.GRAPPLED)


class HideInShadows(Skill):
    """The −20 to attacks on you is an AC bonus against attacks; spells are not attacks."""

    class_id = "rogue"
    skill_id = "hide_in_shadows"

    def check_orders(self, state: GameState, actor: Player, orders: Orders) -> str | None:
        return no_attack_with(self.skill_id, orders)

    def night_started(self, night: Night, owner: Player) -> None:
        if night.toggled(owner, self.skill_id):
            night.turn(owner.seat).cannot_attack = True

    def defense_bonus(self, night: Night, defender: Player, attacker: Player) -> int:
        return int(self.param("defense")) if night.toggled(defender, self.skill_id) else 0


class SlipperyFingers(Skill):
    """Called for the thief's and the victim's skills alike, so each role is checked by
    class. Floors and ceilings (not additions) make a second call harmless, let a better
    Pickpocket chance stand, and let the victim's guard have the last word."""

    class_id = "rogue"
    skill_id = "slippery_fingers"

    def steal_chance(self, night: Night, thief: Player, victim: Player, chance: int) -> int:
        if thief.class_id == self.class_id and night.held_grail(thief):
            chance = max(chance, int(self.param("own_chance")))
        if victim.class_id == self.class_id and night.held_grail(victim):
            chance = min(chance, int(self.param("against_chance")))
        return chance
