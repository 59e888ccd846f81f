"""Melee attacks and grail steals (RULES: Combat, Actions)."""

from __future__ import annotations

from engine import rules
from engine.classes import class_spec
from engine.events import audit, private
from engine.health import apply_damage
from engine.model import Condition, Player, State
from engine.night.attacks import AttackResult, Swing
from engine.night.context import Night
from engine.scoring import STEAL_POINTS, award
from engine.skills.base import hooks_for
from engine.stats import armor, armor_class, attack_bonus, save

STEAL_CHANCE = 50


FIZZLED = AttackResult(hit=False, fizzled=True)


def attack(
    night: Night,
    attacker: Player,
    target: Player,
    why: str = "attack",
    ab_mod: int = 0,
    damage_override: int | None = None,
    damage_bonus: int = 0,
    can_steal: bool = True,
    counterable: bool = True,
    deal_damage: bool = True,
    die: int | None = None,
    ignore_armor: bool = False,
) -> AttackResult:
    """One melee attack: d100 <= AB − AC hits (always, on a wounded target); damage is the
    class die (or ``die``) plus bonuses (Fatigued −1, at least 1); a hit on the grail
    carrier allows a steal that costs a free action. R3: an attack on a dead target
    fizzles. Every attack that did not fizzle is reported to the attacker's
    ``attack_made`` hooks (the Druid's wolf joins in). ``ignore_armor``: the target's
    armour (tonight's bonuses included) does not count toward its AC."""
    if not target.alive or not attacker.able:
        night.emit(audit("AttackFizzled", attacker=attacker.seat, target=target.seat, why=why))
        return FIZZLED
    intercepts = hooks_for(target.class_id, "intercept")
    if intercepts:  # the Swing is only built for a target that can take the attack over
        swing = Swing(why, ab_mod, damage_override, damage_bonus, die, deal_damage, ignore_armor)
        for s in intercepts:
            if s.intercept(night, target, attacker, swing):
                return _made(night, attacker, target, AttackResult(hit=False, intercepted=True))
    ab = attack_bonus(attacker, night) + ab_mod
    for s in hooks_for(attacker.class_id, "attack_bonus"):
        ab += s.attack_bonus(night, attacker, target)
    ac = armor_class(target, night) - (armor(target, night) if ignore_armor else 0)
    for s in hooks_for(target.class_id, "defense_bonus"):
        ac += s.defense_bonus(night, target, attacker)
    need = ab - ac
    roll = night.dice.roll(100, attacker.seat, f"{why}:{target.seat}", need=100 if target.wounded else need)
    hit = target.wounded or roll <= need
    night.emit(audit("AttackRolled", attacker=attacker.seat, target=target.seat, why=why, roll=roll, need=need, hit=hit))
    if not hit:
        if counterable:
            for s in hooks_for(target.class_id, "attacked_and_missed"):
                s.attacked_and_missed(night, target, attacker)
        return _made(night, attacker, target, AttackResult(hit=False))
    damage = 0
    if deal_damage:
        damage = damage_roll(night, attacker, target, damage_override, damage_bonus, die)
        deal(night, target, damage, attacker.seat, why)
    for s in hooks_for(attacker.class_id, "attack_hit"):
        s.attack_hit(night, attacker, target, damage)
    if can_steal and carries(night, target) and target.seat != attacker.seat:
        steal(night, attacker, target)
    return _made(night, attacker, target, AttackResult(hit=True, damage=damage))


def _made(night: Night, attacker: Player, target: Player, result: AttackResult) -> AttackResult:
    for s in hooks_for(attacker.class_id, "attack_made"):
        s.attack_made(night, attacker, target, result)
    return result


def damage_roll(night: Night, attacker: Player, target: Player, override: int | None = None, bonus: int = 0, die: int | None = None) -> int:
    """A hit's damage: the class die (or ``die``, or a fixed ``override``) plus bonuses;
    Fatigued −1; at least 1."""
    if override is not None:
        damage = override
    else:
        sides = die if die is not None else class_spec(attacker.class_id).damage
        damage = night.dice.roll(sides, attacker.seat, f"damage:{target.seat}")
    damage += bonus + night.turn(attacker.seat).damage
    for s in hooks_for(attacker.class_id, "damage_bonus"):
        damage += s.damage_bonus(night, attacker, target)
    if attacker.has(State.FATIGUED):
        damage -= 1
    return max(1, damage)


def deal(night: Night, victim: Player, amount: int, source: int | None, cause: str) -> None:
    """Damage through the victim's own reductions (damage_taken hooks), then apply it.
    What those hooks tell (a save: Indomitable) follows the blow in the event stream, so
    the victim's report tells the blow before the save it set off."""
    mark = len(night.events)
    for s in hooks_for(victim.class_id, "damage_taken"):
        amount = s.damage_taken(night, victim, amount, source)
    if night.turn(victim.seat).death_ward:
        amount = min(amount, victim.hp)
    if rules.in_force() < rules.NIGHT_STORY:  # the save was told before the blow
        apply_damage(night.state, night.events, victim, amount, source, cause)
        return
    said = night.events[mark:]
    del night.events[mark:]
    apply_damage(night.state, night.events, victim, amount, source, cause)
    night.events.extend(said)


def steal(night: Night, thief: Player, victim: Player, chance: int = STEAL_CHANCE, why: str = "steal") -> bool:
    """A steal attempt: needs a free action (the standard one converts); 50% by default.
    On success the grail moves and the thief's faction scores +2; the victim learns only
    that its grail was stolen. A grail its carrier lost by dying to this very blow is
    taken from the body the same way (house rule ``killing_blow``: steal)."""
    if not carries(night, victim) or not thief.alive:
        return False
    if not night.spend(thief.seat, "free"):
        night.emit(audit("StealImpossible", thief=thief.seat, victim=victim.seat))
        return False
    for s in hooks_for(thief.class_id, "steal_chance"):
        chance = s.steal_chance(night, thief, victim, chance)
    for s in hooks_for(victim.class_id, "steal_chance"):
        chance = s.steal_chance(night, thief, victim, chance)
    ok = night.dice.check(chance, thief.seat, f"{why}:{victim.seat}")
    night.emit(audit("StealRolled", thief=thief.seat, victim=victim.seat, chance=chance, success=ok))
    if ok:
        night.give_grail(thief.seat)
        night.state.grail_dropped_by = None
        award(night.state, night.events, thief.faction, STEAL_POINTS, "steal", thief.seat)
        if victim.alive:
            night.emit(private(victim.seat, "GrailStolen"))
        night.emit(private(thief.seat, "GrailTaken", from_body=False))
    return ok


def carries(night: Night, p: Player) -> bool:
    """Whether a steal from ``p`` could take the grail: ``p`` holds it, or has just died
    with it and nobody has it since (the body, until the night ends)."""
    state = night.state
    return state.grail_holder == p.seat or (state.grail_holder is None and state.grail_dropped_by == p.seat)


def opposed(night: Night, initiator: Player, defender: Player, which: str, why: str, bonus: int = 0) -> bool:
    """Opposed check: d100 <= initiator's value − defender's value (+ bonus)."""
    need = save(initiator, which, night) - save(defender, which, night) + bonus
    return night.dice.check(need, initiator.seat, f"{why}:{defender.seat}")


def plain(night: Night, p: Player, which: str, why: str, bonus: int = 0) -> bool:
    """Plain check: d100 <= the value."""
    return night.dice.check(save(p, which, night) + bonus, p.seat, why)


def inflict(night: Night, target: Player, state: str, until_round: int | None, source: int | None) -> bool:
    """Put a state on a living target unless a skill makes it immune. Not told (R9)."""
    if not target.alive:
        return False
    for s in hooks_for(target.class_id, "resists"):
        if s.resists(night, target, state):
            night.emit(audit("StateResisted", target=target.seat, state=state))
            return False
    current = target.conditions.get(state)
    if current is not None and (current.until_round is None or (until_round is not None and current.until_round >= until_round)):
        return True
    target.conditions[state] = Condition(until_round, source)
    night.emit(audit("StateInflicted", target=target.seat, state=state, until_round=until_round, source=source))
    return True


def spell_target(night: Night, caster: Player, seat: int, why: str) -> Player | None:
    """R3 for spells and songs: one aimed at a player who has died before it resolves
    fizzles (the action is spent, nothing else is)."""
    target = night.player(seat)
    if not target.alive:
        night.emit(audit("SpellFizzled", caster=caster.seat, target=seat, why=why))
        return None
    return target
