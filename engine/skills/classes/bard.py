"""Bard (吟游诗人): Hypnotic Prelude marks listeners; the grail Finale cashes them in."""

from __future__ import annotations

from engine.classes import class_spec
from engine.events import audit, private
from engine.model import Player, State
from engine.night.combat import damage_roll, deal, inflict, opposed, spell_target, steal
from engine.night.context import Night
from engine.skills.base import Skill
from engine.submissions import Action, Orders

COUNTERSONG = "bard.countersong"  # Turn.notes: the Will added by Countersong tonight


def _own_check_bonus(night: Night, actor: Player) -> int:
    """Countersong raises the Bard's Will so that checks *against* it get harder; the
    Bard's own opposed Will checks take the same amount off again, so they are unchanged."""
    added = night.turn(actor.seat).notes.get(COUNTERSONG, 0)
    return -added if isinstance(added, int) else 0



class HypnoticPrelude(Skill):
    """The state has no end round: only the Finale or death (which clears all states)
    ends it. R9: nobody is told whether it took hold."""

    class_id = "bard"
    skill_id = "hypnotic_prelude"

    def execute(self, night: Night, actor: Player, action: Action) -> None:
        target = spell_target(night, actor, action.targets[0], "hypnotic_prelude")
        if target is None:
            return
        ok = opposed(night, actor, target, "will", "hypnotic-prelude", bonus=_own_check_bonus(night, actor))
        night.emit(audit("SpellCast", caster=actor.seat, target=target.seat, why="hypnotic_prelude", success=ok))
        if ok:
            inflict(night, target, State.HYPNOTIC_PRELUDE, None, actor.seat)


class HypnoticFinale(Skill):
    """Everyone in the state, in seat order, whoever put them there. A listener the Finale
    kills drops its grail to the Bard (the ruling in ``kill``), so the steal only follows
    when a listener still carries the grail afterwards."""

    class_id = "bard"
    skill_id = "hypnotic_finale"

    def execute(self, night: Night, actor: Player, action: Action) -> None:
        listeners = [p for p in night.state.players if p.alive and p.seat != actor.seat and p.has(State.HYPNOTIC_PRELUDE)]
        night.emit(audit("SpellCast", caster=actor.seat, why="hypnotic_finale", targets=[p.seat for p in listeners]))
        for p in listeners:
            del p.conditions[State.HYPNOTIC_PRELUDE]
            damage = damage_roll(night, actor, p, override=int(self.param("damage")))
            deal(night, p, damage, actor.seat, "hypnotic_finale")
        holder = night.state.grail_holder
        if holder is not None and any(p.seat == holder for p in listeners):
            steal(night, actor, night.player(holder), why="finale-steal")


class Countersong(Skill):
    class_id = "bard"
    skill_id = "countersong"

    def night_started(self, night: Night, owner: Player) -> None:
        if night.toggled(owner, self.skill_id):
            turn = night.turn(owner.seat)
            bonus = int(self.param("will_defense"))
            turn.saves["will"] = turn.saves.get("will", 0) + bonus
            turn.notes[COUNTERSONG] = bonus
            turn.ab += int(self.param("ab_mod"))


class BardicKnowledge(Skill):
    """A random other living player (wounded ones too), then a random one of its traits;
    the fact also joins the Bard's confirmed list, like an identification answer."""

    class_id = "bard"
    skill_id = "bardic_knowledge"

    def night_ended(self, night: Night, owner: Player) -> None:
        others = [p.seat for p in night.state.players if p.alive and p.seat != owner.seat]
        if not others:
            return
        seat = night.dice.pick(others, "bardic-knowledge")
        traits = class_spec(night.player(seat).class_id).traits
        trait = traits[0] if len(traits) == 1 else traits[night.dice.roll(len(traits), owner.seat, "bardic-knowledge-trait") - 1]
        night.emit(private(owner.seat, "BardicKnowledge", target=seat, trait=trait.value))
        fact = {"target": seat, "what": "trait", "value": trait.value}
        confirmed = owner.memory.setdefault("confirmed", [])
        if fact not in confirmed:
            confirmed.append(fact)


class Suggestion(Skill):
    """Rewrites the subject's orders for tonight (``night.orders``). A subject that has
    already acted is beyond reach: the spell is spent without a roll."""

    class_id = "bard"
    skill_id = "suggestion"

    def execute(self, night: Night, actor: Player, action: Action) -> None:
        subject_seat, victim_seat = action.targets
        subject = spell_target(night, actor, subject_seat, "suggestion")
        victim = spell_target(night, actor, victim_seat, "suggestion")
        if subject is None or victim is None:
            return
        if night.turn(subject.seat).acted:
            night.emit(audit("SpellFizzled", caster=actor.seat, target=subject.seat, why="suggestion", reason="acted"))
            return
        ok = opposed(night, actor, subject, "will", "suggestion", bonus=_own_check_bonus(night, actor))
        night.emit(audit("SpellCast", caster=actor.seat, target=subject.seat, victim=victim.seat, why="suggestion", success=ok))
        if ok:
            old = night.orders.get(subject.seat, Orders())
            night.orders[subject.seat] = Orders((Action("attack", (victim.seat,)),), old.toggles)
