"""Warrior (战士): exactly as the source gives it."""

from __future__ import annotations

from engine import rules
from engine.events import private
from engine.model import GameState, Player, State
from engine.night.combat import attack, inflict
from engine.night.context import Night
from engine.skills.base import Skill
from engine.submissions import Action


class Cleave(Skill):
    """After a hit, the next night's orders may name one extra target (AB −10%)."""

    class_id = "warrior"
    skill_id = "cleave"

    def check(self, state: GameState, actor: Player, action: Action) -> str | None:
        return None if actor.memory.get("cleave_round") == state.round else "reason.not_ready"

    def attack_hit(self, night: Night, owner: Player, target: Player, damage: int) -> None:
        owner.memory["cleave_round"] = night.round + 1

    def night_ended(self, night: Night, owner: Player) -> None:
        """Told once the night is over (not at the hit: the order of the news must not
        say which of its attacks hit); the sheet says so too until that Dusk has passed."""
        if owner.memory.get("cleave_round") == night.round + 1 and rules.in_force() >= rules.CLEAVE_NEWS:
            night.emit(private(owner.seat, "CleaveReady", round=night.round + 1))

    def execute(self, night: Night, actor: Player, action: Action) -> None:
        attack(night, actor, night.player(action.targets[0]), why="cleave", ab_mod=self.param("ab_mod"))


class CombatReflexes(Skill):
    class_id = "warrior"
    skill_id = "combat_reflexes"

    def attacked_and_missed(self, night: Night, owner: Player, attacker: Player) -> None:
        if owner.able and night.dice.check(self.param("chance"), owner.seat, "combat-reflexes"):
            # A counter cannot itself be countered, or two Warriors would trade blows forever.
            attack(night, owner, attacker, why="counter", ab_mod=self.param("ab_mod"), counterable=False)


class CombatExpertise(Skill):
    class_id = "warrior"
    skill_id = "combat_expertise"

    def execute(self, night: Night, actor: Player, action: Action) -> None:
        actor.ab_mod += self.param("ab_mod")
        actor.dex_mod += self.param("dex_mod")


class Whirlwind(Skill):
    class_id = "warrior"
    skill_id = "whirlwind"

    def execute(self, night: Night, actor: Player, action: Action) -> None:
        results = [attack(night, actor, night.player(t), why="whirlwind", ab_mod=self.param("ab_mod")) for t in action.targets]
        if not any(r.hit or r.fizzled or r.intercepted for r in results):
            inflict(night, actor, State.DAZED, night.round, actor.seat)


class PreciseAttack(Skill):
    class_id = "warrior"
    skill_id = "precise_attack"

    def attack_bonus(self, night: Night, attacker: Player, target: Player) -> int:
        return int(self.param("ab_mod")) if night.held_grail(attacker) else 0
