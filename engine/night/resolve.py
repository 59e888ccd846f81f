"""The night (RULES: Night, States, Wounded): identification answers, initiative, each
living player's turn in order, then the end of the night (states expire, the grail is
banked)."""

from __future__ import annotations

from collections.abc import Sequence

import engine.skills.classes  # noqa: F401  (its modules define the skills skills_of finds)
from engine import rules
from engine.classes import class_spec
from engine.dice import Dice
from engine.events import Event, audit, private
from engine.health import kill, release_grapples, wound_odds
from engine.model import GameState, Player, State
from engine.night.combat import attack, opposed
from engine.night.context import Night
from engine.night.identify import answer
from engine.night.initiative import roll_initiative
from engine.skills.base import hooks_for, skills_of
from engine.submissions import RELEASE, Action, Identification, Orders

EXTRA_ATTACK = "cleave"


def resolve_night(state: GameState, dice: Dice, events: list[Event], identifications: dict[int, Identification], orders: dict[int, Orders]) -> None:
    answer(state, events, identifications)
    night = Night(state, dice, events, orders)
    # Every living player: a wounded one has no toggles (Night sets none) but keeps what
    # holds at all times (Still Mind's Will).
    for p in state.players:
        if p.alive:
            for s in hooks_for(p.class_id, "night_started"):
                s.night_started(night, p)
    night.order, mods = roll_initiative(state, dice, night)
    events.append(audit("InitiativeRolled", order=list(night.order), modifiers=[mods[s] for s in night.order]))
    for seat in list(night.order):
        p = state.player(seat)
        if not p.alive:
            not_done(night, p, night.orders.get(seat, Orders()).actions, "dead")
            continue
        take_turn(night, p)
    end_night(night)


def take_turn(night: Night, p: Player) -> None:
    if p.wounded:
        not_done(night, p, night.orders.get(p.seat, Orders()).actions, "wounded")
        wound_roll(night, p)
        return
    if night.turn(p.seat).void:
        night.emit(audit("OrdersVoid", seat=p.seat, reason="void"))
        return
    orders = night.orders.get(p.seat, Orders())
    actions = list(orders.actions)
    if p.has(State.GRAPPLED) and not break_free(night, p):
        night.emit(audit("OrdersVoid", seat=p.seat, reason="grappled"))
        return
    if "grappling" in p.memory:
        if not actions or actions[0].skill != RELEASE:
            night.emit(audit("OrdersVoid", seat=p.seat, reason="grappling"))
            return
        night.spend(p.seat, "free")
        release_grapples(night.state, p)
        night.emit(audit("GrappleReleased", seat=p.seat))
        actions = actions[1:]
    night.turn(p.seat).acted = True
    paid_groups: set[str] = set()
    for i, action in enumerate(actions):
        if not p.able:
            not_done(night, p, actions[i:], "wounded" if p.alive else "dead")
            break
        perform(night, p, action, paid_groups)


def not_done(night: Night, p: Player, actions: Sequence[Action], reason: str) -> None:
    """Tell a player which of their orders did not happen, and why, at the point of the
    night where they were lost: ``dead`` or ``wounded`` before their turn (or in it),
    ``no_action`` (nothing left to pay with), ``no_grail`` (a grail skill, R10). Orders
    made void by a state the player is not told of (R9: held, snared, grappled) are not
    told either."""
    if actions and rules.in_force() >= rules.NIGHT_STORY:
        night.emit(private(p.seat, "OrdersNotDone", class_id=p.class_id, skills=[a.skill for a in actions], reason=reason))


def perform(night: Night, p: Player, action: Action, paid_groups: set[str]) -> None:
    """Pay for one action and carry it out; an action that cannot be paid for is lost."""
    if action.skill == "attack":
        cost, group = "standard", None
    else:
        spec = class_spec(p.class_id).skill(action.skill)
        if spec is None:
            return
        cost, group = spec.cost, spec.group
    if group is not None and group in paid_groups:
        cost = "none"
    if not night.spend(p.seat, cost):
        night.emit(audit("ActionLost", seat=p.seat, skill=action.skill, reason="no action left"))
        not_done(night, p, (action,), "no_action")
        return
    if group is not None:
        paid_groups.add(group)
    night.emit(audit("ActionTaken", seat=p.seat, skill=action.skill, targets=list(action.targets), amount=action.amount))
    if action.skill == "attack":
        if night.turn(p.seat).cannot_attack:
            return
        attack(night, p, night.player(action.targets[0]))
        return
    skill = skills_of(p.class_id)[action.skill]
    if skill.spec.once and skill.skill_id not in p.used_once:
        p.used_once.append(skill.skill_id)
    if skill.spec.grail and not night.held_grail(p):
        night.emit(audit("SkillFizzled", seat=p.seat, skill=action.skill, reason="no grail"))
        not_done(night, p, (action,), "no_grail")
        return
    skill.execute(night, p, action)


def break_free(night: Night, p: Player) -> bool:
    """RULES: Grappled — at its turn the grappled one first tries to break free (opposed
    Fortitude, as initiator), spending its free action (or the standard one in its stead);
    with neither left, no attempt is made. It is never told it was held; its grappler,
    told of the hold, is told it broke free."""
    cond = p.conditions[State.GRAPPLED]
    grappler = night.player(cond.source) if cond.source is not None else None
    paid = night.spend(p.seat, "free")
    if grappler is None or not grappler.able:
        release_grapples(night.state, p)
        return True
    if not paid:
        return False
    if opposed(night, p, grappler, "fortitude", "break-free"):
        release_grapples(night.state, p)
        night.emit(audit("GrappleBroken", seat=p.seat, grappler=grappler.seat))
        night.emit(private(grappler.seat, "GrappleEscaped", target=p.seat))  # told of the hold; told of its end
        return True
    return False


def wound_roll(night: Night, p: Player) -> None:
    """R8: first roll 50% recover / 50% stay; second 60% recover / 40% die. Recovering
    sets HP to 1; a death is credited to whoever caused the wound. A player who cannot
    die tonight (``death_ward``) stays wounded instead of dying."""
    chance, deadly = wound_odds(p.wound_rolls)
    p.wound_rolls += 1
    if night.dice.check(chance, p.seat, f"wound-roll-{p.wound_rolls}"):
        p.hp = 1
        p.wound_rolls = 0
        p.wound_source = None
        night.emit(private(p.seat, "Recovered", hp=1, max_hp=p.max_hp))
        return
    if deadly and not night.turn(p.seat).death_ward:
        p.hp = -1
        kill(night.state, night.events, p, p.wound_source, "wound")
        return
    night.emit(private(p.seat, "StillWounded"))


def end_night(night: Night) -> None:
    state = night.state
    for p in state.players:
        if p.alive:
            for s in hooks_for(p.class_id, "night_ended"):
                s.night_ended(night, p)
    for p in state.players:
        expired = [k for k, c in p.conditions.items() if c.until_round is not None and c.until_round <= state.round]
        for k in expired:
            del p.conditions[k]
    holder = state.grail_holder
    if holder is not None:
        state.player(holder).grails_banked += 1
        night.emit(audit("GrailBanked", seat=holder))
    state.grail_holder = None
    state.grail_dropped_by = None
