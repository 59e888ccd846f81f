"""The one entry point the bot calls before storing a submission: check it against the
current state and return it normalised, or raise a typed RuleViolation."""

from __future__ import annotations

from functools import cache

import engine.skills.classes  # noqa: F401  (its modules define the skills skills_of finds)
from engine import rules
from engine.classes import ClassSpec, IdentifySlot, class_spec
from engine.errors import (
    ActionEconomyError,
    BadTargetError,
    DeadPlayerError,
    DeadTargetError,
    GameOverError,
    IdentificationError,
    MalformedSubmissionError,
    NotInGameError,
    OrderShapeError,
    OutOfRangeError,
    SelfTargetError,
    SkillUnavailableError,
    UnknownSkillError,
    WoundedError,
    WrongPhaseError,
)
from engine.model import GameState, Player
from engine.names import guess_values
from engine.phases import PHASE_OF
from engine.skills.base import hooks_for, skills_of
from engine.submissions import (
    RELEASE,
    Action,
    GrailNumber,
    Guess,
    Identification,
    Orders,
    Submission,
    Vote,
)

GRAIL_RANGE = (1, 100)


def validate(state: GameState, seat: int, submission: Submission, *, resolving: bool = False) -> Submission:
    """Check ``submission`` from ``seat`` now; return its normal form or raise.

    ``resolving``: the re-check of a stored submission as its phase closes. A player it
    names may have left since (a moderator's removal): R3 makes an order aimed at them
    fizzle at night, so the orders stand; a guess naming them is dropped and the others
    are answered; a vote for them is void (raises, as before). Checked under the game's
    rules version (engine.rules)."""
    with rules.playing(state.settings.rules_version):
        return _validate(state, seat, submission, resolving)


def _validate(state: GameState, seat: int, submission: Submission, resolving: bool) -> Submission:
    if state.over:
        raise GameOverError()
    if not 1 <= seat <= len(state.players):
        raise NotInGameError(seat=seat)
    p = state.player(seat)
    if not p.alive:
        raise DeadPlayerError()
    expected = PHASE_OF.get(type(submission))
    if expected is None:
        raise MalformedSubmissionError(reason="reason.unknown_kind")
    if state.phase is not expected:
        raise WrongPhaseError(expected=f"phase.{expected.value}", phase=f"phase.{state.phase.value}")
    if isinstance(submission, GrailNumber):
        lo, hi = GRAIL_RANGE
        number = submission.number
        # A whole number only: a float in range (50.5) would be stored as sent and only
        # cut down to an int when the Day is resolved.
        if not isinstance(number, int) or isinstance(number, bool) or not lo <= number <= hi:
            raise OutOfRangeError(what="what.grail_number", low=lo, high=hi, value=submission.number)
        return submission
    if isinstance(submission, Vote):
        # A vote for someone whose departure the table has not been told of stands (it
        # counts for nobody): refusing it would tell the voter.
        check_target(state, p, submission.target, allow_departed=submission.target in state.unannounced())
        return submission
    if isinstance(submission, Identification):
        kept = tuple(g for g in submission.guesses if not _departed(state, g.target)) if resolving else ()
        if kept:
            submission = Identification(kept)
        return validate_identification(state, p, submission)
    return validate_orders(state, p, submission, resolving=resolving)


def check_target(state: GameState, actor: Player, target: int, allow_self: bool = False, allow_departed: bool = False) -> None:
    """R3: nobody targets themselves (unless the skill allows) or the dead (unless
    ``allow_departed``: an order sent before its target left, which fizzles at night)."""
    if not 1 <= target <= len(state.players):
        raise BadTargetError(target=target)
    if target == actor.seat and not allow_self:
        raise SelfTargetError()
    if not state.player(target).alive and not allow_departed:
        raise DeadTargetError(target=target)


def _departed(state: GameState, target: int) -> bool:
    return 1 <= target <= len(state.players) and not state.player(target).alive


def validate_identification(state: GameState, p: Player, ident: Identification) -> Identification:
    spec = class_spec(p.class_id)
    guesses: list[Guess] = []
    for g in ident.guesses:
        check_target(state, p, g.target)
        if g.what not in ("trait", "class", "faction"):
            raise IdentificationError(reason="reason.guess_kind")
        if g.value not in _values_of(g.what):
            raise IdentificationError(reason="reason.guess_value")
        if g not in guesses:
            guesses.append(g)
    if not _fits_slots(spec, guesses):
        raise IdentificationError(reason="reason.identify_rule")
    if type(ident.guesses) is tuple and len(guesses) == len(ident.guesses):
        return ident  # already in normal form: no repeats, a tuple
    return Identification(tuple(guesses))


@cache
def _values_of(what: str) -> frozenset[str]:
    return frozenset(guess_values(what))


def _fits_slots(spec: ClassSpec, guesses: list[Guess]) -> bool:
    """Can every guess be placed in a slot that allows it, each slot taking at most
    ``count`` distinct names? Small backtracking: at most a handful of guesses."""
    return _place(spec.identify, guesses, 0, [[] for _ in spec.identify])


def _place(slots: tuple[IdentifySlot, ...], guesses: list[Guess], i: int, taken: list[list[int]]) -> bool:
    """Place guesses ``i:`` given the seats each slot has ``taken`` so far."""
    if i == len(guesses):
        return True
    g = guesses[i]
    for slot, seats in zip(slots, taken, strict=True):
        if slot.what != g.what or (slot.values and g.value not in slot.values):
            continue
        if len(seats) >= slot.count or g.target in seats:
            continue
        seats.append(g.target)
        if _place(slots, guesses, i + 1, taken):
            return True
        seats.pop()
    return False


def validate_orders(state: GameState, p: Player, orders: Orders, *, resolving: bool = False) -> Orders:
    if not orders.actions and not orders.toggles:
        return orders  # clearing one's orders is always allowed
    if p.wounded:
        raise WoundedError()
    spec = class_spec(p.class_id)
    skills = skills_of(p.class_id)
    for toggle in orders.toggles:
        ts = spec.skill(toggle)
        if ts is None:
            raise UnknownSkillError(skill=toggle)
        if ts.mode != "toggle":
            raise SkillUnavailableError(skill=toggle, reason="reason.not_toggle")
    standard = free = 0
    paid_groups: set[str] = set()
    seen: set[str] = set()
    for i, action in enumerate(orders.actions):
        if action.skill in seen:
            raise ActionEconomyError(reason="reason.repeated_action")
        seen.add(action.skill)
        if action.skill == RELEASE:
            if "grappling" not in p.memory or i != 0:
                raise SkillUnavailableError(skill=RELEASE, reason="reason.not_grappling")
            if action.targets or action.amount is not None:
                raise OrderShapeError(reason="reason.release_alone")
            free += 1
            continue
        if action.skill == "attack":
            if len(action.targets) != 1:
                raise OrderShapeError(reason="reason.one_target")
            if action.amount is not None:
                raise OrderShapeError(reason="reason.no_amount")
            check_target(state, p, action.targets[0], allow_departed=resolving)
            standard += 1
            continue
        s = spec.skill(action.skill)
        if s is None:
            raise UnknownSkillError(skill=action.skill)
        if s.mode != "active":
            raise SkillUnavailableError(skill=action.skill, reason="reason.not_active")
        if s.once and s.id in p.used_once:
            raise SkillUnavailableError(skill=action.skill, reason="reason.used_once")
        lo, hi = s.targets
        if not lo <= len(action.targets) <= hi:
            if lo != hi:
                raise OrderShapeError(reason="reason.target_count", low=lo, high=hi)
            raise OrderShapeError(reason="reason.single_target" if lo == 1 else "reason.target_exact", count=lo)
        if len(set(action.targets)) != len(action.targets):
            raise OrderShapeError(reason="reason.distinct_targets")
        for t in action.targets:
            check_target(state, p, t, allow_self=s.target_self, allow_departed=resolving)
        if s.amount is not None:
            alo, ahi = s.amount
            if action.amount is None:
                raise OrderShapeError(reason="reason.amount_needed", low=alo, high=ahi)
            if not alo <= action.amount <= ahi:
                raise OutOfRangeError(what="what.amount", low=alo, high=ahi, value=action.amount)
        elif action.amount is not None:
            raise OrderShapeError(reason="reason.no_amount")
        refusal = skills[s.id].check(state, p, action)
        if refusal is not None:
            raise SkillUnavailableError(skill=action.skill, reason=refusal)
        if s.group is not None:
            if s.group in paid_groups:
                continue
            paid_groups.add(s.group)
        if s.cost == "standard":
            standard += 1
        elif s.cost == "free":
            free += 1
    if standard > 1:
        raise ActionEconomyError(reason="reason.one_standard")
    if standard + free > 2:
        raise ActionEconomyError(reason="reason.two_actions")
    for sk in hooks_for(p.class_id, "check_orders"):
        refusal = sk.check_orders(state, p, orders)
        if refusal is not None:
            raise SkillUnavailableError(skill=sk.skill_id, reason=refusal)
    if type(orders.actions) is tuple and all(type(a.targets) is tuple for a in orders.actions):
        return orders  # already in normal form
    return Orders(tuple(_normal(a) for a in orders.actions), orders.toggles)


def _normal(a: Action) -> Action:
    return Action(a.skill, tuple(a.targets), a.amount)
