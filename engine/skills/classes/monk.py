"""Monk (武僧): holds a foe fast (the Grappled state) or stills its heart.

The core owns the rest of the grapple (engine/night/resolve.py): the grappled one tries to
break free at its turn, and the Monk's orders are void unless it first lets go. This
module only starts the hold: Condition source = the Monk's seat, and the Monk's memory
``grappling`` = the held seat. Numbers come from ``engine/data/classes/monk.toml``."""

from __future__ import annotations

from engine.events import audit, private
from engine.health import apply_damage
from engine.model import Player, State
from engine.night.combat import attack, carries, damage_roll, deal, inflict, opposed, steal
from engine.night.context import Night
from engine.skills.base import Skill, StatToggle, skills_of
from engine.submissions import Action


def _ki_bonus(night: Night, monk: Player) -> int:
    """Ki Strike's bonus to the grapple check, when the Monk has held the grail."""
    ki = skills_of(monk.class_id).get("ki_strike")
    if ki is None or not night.held_grail(monk):
        return 0
    return int(ki.param("grapple_bonus"))


class Grapple(Skill):
    """A damageless attack, then opposed Fortitude with the Monk's training bonus (without
    it a Monk could never hold the sturdy classes, Fortitude 70–80). The held one is never told (RULES:
    Grappled); the Monk is (R9: it knows the states it gave). A wounded target is not
    held, as the core releases anyone wounded. The steal a hit allows comes after the
    grapple check."""

    class_id = "monk"
    skill_id = "grapple"

    def execute(self, night: Night, actor: Player, action: Action) -> None:
        target = night.player(action.targets[0])
        result = attack(night, actor, target, why="grapple", can_steal=False, deal_damage=False)
        if not result.hit:
            return
        if target.alive and not target.wounded:
            ok = opposed(
                night, actor, target, "fortitude", "grapple", bonus=int(self.param("hold_bonus")) + _ki_bonus(night, actor)
            )
            night.emit(audit("GrappleRolled", seat=actor.seat, target=target.seat, success=ok))
            if ok and inflict(night, target, State.GRAPPLED, None, actor.seat):
                cond = target.conditions.get(State.GRAPPLED)
                if cond is not None and cond.source == actor.seat:
                    actor.memory["grappling"] = target.seat
                    night.emit(private(actor.seat, "GrappleHeld", target=target.seat))
        if night.state.grail_holder == target.seat:
            steal(night, actor, target)


class StillMind(Skill):
    """The Monk casts nothing, so a flat Will bonus only ever helps it resist."""

    class_id = "monk"
    skill_id = "still_mind"

    def night_started(self, night: Night, owner: Player) -> None:
        saves = night.turn(owner.seat).saves
        saves["will"] = saves.get("will", 0) + int(self.param("will_mod"))

    def resists(self, night: Night, owner: Player, state: str) -> bool:
        return state in (State.SHAKEN, State.HYPNOTIC_PRELUDE)


class KiGuard(StatToggle):
    class_id = "monk"
    skill_id = "ki_guard"

    BONUSES = (("dex", "dex_mod"), ("ab", "ab_mod"))


class KiStrike(Skill):
    """Its grapple bonus is read by Grapple (see ``_ki_bonus``)."""

    class_id = "monk"
    skill_id = "ki_strike"

    def damage_bonus(self, night: Night, attacker: Player, target: Player) -> int:
        return int(self.param("damage_mod")) if night.held_grail(attacker) else 0


class QuiveringPalm(Skill):
    """On success the target is set to HP 0 directly (not through damage reductions): it
    is a fixed effect, not damage. The wound is credited to the Monk, so a later death
    from the wound roll scores for the Monk's faction."""

    class_id = "monk"
    skill_id = "quivering_palm"

    def execute(self, night: Night, actor: Player, action: Action) -> None:
        target = night.player(action.targets[0])
        result = attack(
            night, actor, target, why="quivering_palm", can_steal=False, deal_damage=False
        )
        if not result.hit:
            return
        if target.alive:
            ok = opposed(night, actor, target, "fortitude", "quivering_palm")
            night.emit(
                audit("QuiveringPalmRolled", seat=actor.seat, target=target.seat, success=ok)
            )
            if ok:
                apply_damage(
                    night.state, night.events, target, target.hp, actor.seat, "quivering_palm"
                )
            else:
                deal(night, target, damage_roll(night, actor, target), actor.seat, "quivering_palm")
        if carries(night, target):  # a palm that kills the carrier may take it from the body
            steal(night, actor, target)
