"""Damage, healing, wounds and death, shared by the night and the vote."""

from __future__ import annotations

from engine import rules
from engine.events import Event, audit, private, public
from engine.model import GameState, KillingBlowRule, Player, State
from engine.scoring import score_kill

# R8: the chance (percent) that a wound roll recovers, by the roll of the wound: the first
# one stays wounded when it fails, every later one dies. Read by the night's roll and by
# whatever tells a wounded player the odds of the coming one.
WOUND_RECOVERY = (50, 60)


def wound_odds(rolls_done: int) -> tuple[int, bool]:
    """The coming wound roll of a player who has had ``rolls_done`` rolls of this wound:
    (the chance in percent to recover, whether a failure kills)."""
    return WOUND_RECOVERY[min(rolls_done, len(WOUND_RECOVERY) - 1)], rolls_done >= 1


def apply_damage(state: GameState, events: list[Event], victim: Player, amount: int, source: int | None, cause: str) -> None:
    """Take ``amount`` HP from a living player. HP 0 wounds (R8: the wound count restarts);
    below 0 kills, credited to ``source``. The victim learns the damage and its HP, never
    the source (R11)."""
    if not victim.alive or amount <= 0:
        return
    was_wounded = victim.hp == 0
    victim.hp -= amount
    events.append(audit("DamageDealt", target=victim.seat, source=source, amount=amount, cause=cause, hp=victim.hp))
    if victim.hp < 0:
        kill(state, events, victim, source, cause, amount)
        return
    events.append(private(victim.seat, "DamageTaken", amount=amount, hp=victim.hp, max_hp=victim.max_hp, cause="vote" if cause == "vote" else "night"))
    if victim.hp == 0 and not was_wounded:
        victim.wound_rolls = 0
        victim.wound_source = source
        events.append(private(victim.seat, "WoundedNow"))
        release_grapples(state, victim)


def heal(events: list[Event], target: Player, amount: int, cause: str) -> int:
    """Restore HP up to the maximum; a wounded player healed above 0 recovers. Returns HP gained."""
    if not target.alive or amount <= 0:
        return 0
    gained = min(amount, target.max_hp - target.hp)
    if gained <= 0:
        return 0
    target.hp += gained
    if target.hp > 0:
        target.wound_rolls = 0
        target.wound_source = None
    events.append(private(target.seat, "Healed", amount=gained, hp=target.hp, max_hp=target.max_hp))
    events.append(audit("HealApplied", target=target.seat, amount=gained, cause=cause))
    return gained


def kill(state: GameState, events: list[Event], victim: Player, source: int | None, cause: str, amount: int | None = None) -> None:
    """Death (RULES: HP below 0 in any way). Scores the kill, passes on a carried grail
    (house rule ``killing_blow``: "killer_takes", to a living killer; else, and by
    default, it is lost for the round unless the killing hit's steal attempt takes it),
    and announces the
    departure — with class and faction only where the server turned reveal-on-death on.
    The victim learns how: the blow's damage (``amount``), a wound that proved fatal, or
    a moderator's removal (``cause`` "removed"), never who (R11)."""
    victim.alive = False
    victim.hp = min(victim.hp, -1)
    killer = state.player(source) if source is not None else None
    score_kill(state, events, killer, victim)
    release_grapples(state, victim)
    victim.conditions.clear()
    events.append(audit("PlayerDied", seat=victim.seat, source=source, cause=cause))
    if rules.in_force() < rules.DEATH_NEWS:  # told of a death (a removal too), not how
        events.append(private(victim.seat, "YouDied"))
    elif cause == "removed":
        events.append(private(victim.seat, "YouWereRemoved"))
    elif amount is not None:
        events.append(private(victim.seat, "YouDied", amount=amount))
    else:
        events.append(private(victim.seat, "YouDied", how=cause))
    if state.grail_holder == victim.seat:
        if state.settings.killing_blow is KillingBlowRule.KILLER_TAKES and killer is not None and killer.alive:
            state.grail_holder = killer.seat
            events.append(private(killer.seat, "GrailTaken", from_body=True))
            events.append(audit("GrailPickedUp", seat=killer.seat, from_seat=victim.seat))
        else:
            # Lost for the round; with the house rule "steal", the blow's own steal
            # attempt may still take it from the body (engine.night.combat.steal).
            state.grail_holder = None
            if state.settings.killing_blow is KillingBlowRule.STEAL:
                state.grail_dropped_by = victim.seat
            events.append(audit("GrailLost", from_seat=victim.seat))
    reveal = (
        {"class_id": victim.class_id, "faction": victim.faction.value}
        if state.settings.reveal_on_death
        else {}
    )
    events.append(public("PlayerLeft", seat=victim.seat, name=victim.name, **reveal))
    if state.living_count(victim.faction) == 0:
        events.append(public("FactionWipedOut", faction=victim.faction.value))


def release_grapples(state: GameState, p: Player) -> None:
    """A dead or wounded player can neither hold nor be held."""
    held = p.memory.pop("grappling", None)
    if held is not None:
        other = state.player(held)
        if other.conditions.get(State.GRAPPLED) and other.conditions[State.GRAPPLED].source == p.seat:
            del other.conditions[State.GRAPPLED]
    cond = p.conditions.pop(State.GRAPPLED, None)
    if cond is not None and cond.source is not None:
        state.player(cond.source).memory.pop("grappling", None)
