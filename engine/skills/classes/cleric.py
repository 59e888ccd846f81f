"""Cleric (牧师): healing, a once-per-game ward against death, and news of the dead."""

from __future__ import annotations

from engine.events import Audience, audit, private
from engine.health import heal
from engine.model import Player
from engine.night.combat import spell_target
from engine.night.context import Night
from engine.skills.base import Skill, StatToggle, skills_of
from engine.submissions import Action


class CureWounds(Skill):
    class_id = "cleric"
    skill_id = "cure_wounds"

    def execute(self, night: Night, actor: Player, action: Action) -> None:
        target = spell_target(night, actor, action.targets[0], "cure_wounds")
        if target is None:
            return
        amount = night.dice.roll(int(self.param("die")), actor.seat, f"cure-wounds:{target.seat}") + int(self.param("heal_mod"))
        if night.held_grail(actor):
            amount += int(skills_of(actor.class_id)["consecrated_grail"].param("cure_bonus"))
        gained = heal(night.events, target, amount, "cure_wounds")
        night.emit(audit("SpellCast", caster=actor.seat, target=target.seat, why="cure_wounds", amount=amount, gained=gained))


class ShieldOfFaith(StatToggle):
    class_id = "cleric"
    skill_id = "shield_of_faith"

    BONUSES = (("armor", "armor_mod"), ("ab", "ab_mod"))


class SpeakWithDead(Skill):
    """Reads the night's own record of deaths (the audit ``PlayerDied`` events), so every
    way of dying counts: attacks, spells, wound rolls. Nothing is sent on a night without
    deaths. The dead are listed by seat, like the public departures: in the order they
    fell they would betray the initiative order."""

    class_id = "cleric"
    skill_id = "speak_with_dead"

    def night_ended(self, night: Night, owner: Player) -> None:
        dead = sorted(
            e.data["seat"]
            for e in night.events
            if e.kind == "PlayerDied" and e.audience is Audience.AUDIT
        )
        if dead:
            night.emit(
                private(
                    owner.seat,
                    "SpeakWithDead",
                    dead=[{"seat": s, "faction": night.player(s).faction.value} for s in dead],
                )
            )


class DivineIntervention(Skill):
    """``death_ward`` caps damage at the HP left (``deal``) and turns a deadly second wound
    roll into staying wounded (``wound_roll``); it lasts until the night ends."""

    class_id = "cleric"
    skill_id = "divine_intervention"

    def execute(self, night: Night, actor: Player, action: Action) -> None:
        target = spell_target(night, actor, action.targets[0], "divine_intervention")
        if target is None:
            return
        night.turn(target.seat).death_ward = True
        night.emit(audit("SpellCast", caster=actor.seat, target=target.seat, why="divine_intervention"))


class ConsecratedGrail(Skill):
    """The end-of-night heal; Cure Wounds reads ``cure_bonus`` itself."""

    class_id = "cleric"
    skill_id = "consecrated_grail"

    def night_ended(self, night: Night, owner: Player) -> None:
        if night.held_grail(owner):
            heal(night.events, owner, int(self.param("heal")), "consecrated_grail")
