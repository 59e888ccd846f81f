"""Ranger (游侠): hunts what it has identified, shoots past armour, snares.

Numbers come from ``engine/data/classes/ranger.toml``."""

from __future__ import annotations

from engine.events import audit
from engine.model import Player, State
from engine.night.combat import attack, inflict, plain
from engine.night.context import Night
from engine.skills.base import Skill, StatToggle
from engine.submissions import Action

MARK = "hunters_mark"


def _confirmed(owner: Player, target: Player) -> bool:
    """Has an identification confirmed the target's class or faction to the owner?
    (The core keeps confirmations in memory ``confirmed`` as guess dicts.)"""
    confirmed = owner.memory.get("confirmed", [])
    return any(
        isinstance(g, dict)
        and g.get("target") == target.seat
        and g.get("what") in ("class", "faction")
        for g in confirmed
    )


class FavoredEnemy(Skill):
    """Tonight's answers count: identifications are answered before anyone acts."""

    class_id = "ranger"
    skill_id = "favored_enemy"

    def attack_bonus(self, night: Night, attacker: Player, target: Player) -> int:
        return int(self.param("ab_mod")) if _confirmed(attacker, target) else 0

    def damage_bonus(self, night: Night, attacker: Player, target: Player) -> int:
        return int(self.param("damage_mod")) if _confirmed(attacker, target) else 0


class Sharpshooter(Skill):
    """The target's current armour (tonight's armour bonuses included) is taken off its
    AC; a shot the Druid's wolf takes is rolled against the wolf's flat AC, which has no
    armour in it. Ranged, so a hit cannot steal (the steal rule speaks of melee attacks):
    the price of bypassing armour."""

    class_id = "ranger"
    skill_id = "sharpshooter"

    def execute(self, night: Night, actor: Player, action: Action) -> None:
        target = night.player(action.targets[0])
        attack(night, actor, target, why="sharpshooter", ignore_armor=True, can_steal=False)


class Camouflage(StatToggle):
    class_id = "ranger"
    skill_id = "camouflage"

    BONUSES = (("ab", "ab_mod"),)

    def defense_bonus(self, night: Night, defender: Player, attacker: Player) -> int:
        return int(self.param("defense")) if night.toggled(defender, self.skill_id) else 0


class HuntersMark(Skill):
    """The mark lives in the Ranger's Turn notes, so it ends with the night."""

    class_id = "ranger"
    skill_id = "hunters_mark"

    def execute(self, night: Night, actor: Player, action: Action) -> None:
        night.turn(actor.seat).notes[MARK] = action.targets[0]
        night.emit(audit("HuntersMarked", seat=actor.seat, target=action.targets[0]))

    def _marked(self, night: Night, attacker: Player, target: Player) -> bool:
        return night.turn(attacker.seat).notes.get(MARK) == target.seat

    def attack_bonus(self, night: Night, attacker: Player, target: Player) -> int:
        return int(self.param("ab_mod")) if self._marked(night, attacker, target) else 0

    def damage_bonus(self, night: Night, attacker: Player, target: Player) -> int:
        return int(self.param("damage_mod")) if self._marked(night, attacker, target) else 0


class Snare(Skill):
    """A trap, not a spell: the target's own plain Reflex check. Its orders are lost only
    if its turn has not come yet; the Daze applies either way (unless it is immune)."""

    class_id = "ranger"
    skill_id = "snare"

    def execute(self, night: Night, actor: Player, action: Action) -> None:
        target = night.player(action.targets[0])
        if not target.alive:
            night.emit(
                audit("SkillFizzled", seat=actor.seat, skill=self.skill_id, reason="dead target")
            )
            return
        if plain(night, target, "reflex", "snare"):
            night.emit(audit("SnareAvoided", seat=actor.seat, target=target.seat))
            return
        t = night.turn(target.seat)
        voided = not t.acted
        if voided:
            t.void = True
        inflict(
            night, target, State.DAZED, night.round + int(self.param("daze_nights")), actor.seat
        )
        night.emit(audit("Snared", seat=actor.seat, target=target.seat, orders_lost=voided))
