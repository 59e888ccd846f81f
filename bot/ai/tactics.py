"""Each class's night: which skills the baseline AI orders, and when.

One function per class turns the AI's ranking of suspects and its own sheet into an
:class:`Orders`. Every order is built to pass ``engine.validate`` by construction: living
targets other than itself (unless the skill allows itself), one standard action and at
most one free one, once-per-game skills only while unused, amounts within range and
within the Sorcerer's budget. The tests hold the AI to zero refused submissions.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import TYPE_CHECKING

from bot.ai.knowledge import ROLES, Knowledge
from engine.classes import catalogue, class_spec
from engine.submissions import Action, Orders

if TYPE_CHECKING:
    from bot.ai.player import BaselineAI

SURE = 0.9  # suspicion at which a seat counts as a known enemy for big decisions
LIKELY = 0.6  # suspicion worth a risk (a spell, an attack on two at once)


class Plan:
    """What a tactic works with: the Knowledge, the AI's ranking and a few shorthands."""

    __slots__ = ("ai", "k", "ranked", "top")

    def __init__(self, ai: BaselineAI, k: Knowledge, prefer: str | None = None) -> None:
        self.ai = ai
        self.k = k
        self.ranked = ai.ranked(k, prefer)
        self.top = self.ranked[0] if self.ranked else 0

    def second(self) -> int:
        return self.ranked[1] if len(self.ranked) > 1 else 0

    @property
    def hurt(self) -> bool:
        """At half HP or less."""
        return self.k.hp * 2 <= self.k.max_hp

    def can(self, skill_id: str) -> bool:
        """The class has it and, if once per game, has not used it."""
        for s in self.k.sheet.get("skills", ()):
            if s["id"] == skill_id:
                return not s["used"]
        return False

    def sure(self, seat: int) -> bool:
        return bool(seat) and self.k.p_enemy(seat) >= SURE

    def likely(self, seat: int) -> bool:
        return bool(seat) and self.k.p_enemy(seat) >= LIKELY

    def chance(self, p: float) -> bool:
        return self.ai.rng.random() < p

    def hurt_friend(self) -> int:
        """A known friend that the vote hurt and this player has not healed since (the
        only damage to others a player ever learns of); 0 if none. Counts the heal."""
        k = self.k
        healed: dict[int, int] = self.ai.notes.setdefault("healed", {})
        for s in k.others_alive():
            if k.vote_damage[s] > healed.get(s, 0) and k.is_friend(s):
                healed[s] = k.vote_damage[s]
                return s
        return 0

    def attack(self, skill: str = "attack", target: int = 0) -> Action:
        t = target or self.top
        self.ai.last_target = t
        return Action(skill, (t,))


Tactic = Callable[[Plan], Orders | None]


def plan_orders(ai: BaselineAI, k: Knowledge) -> Orders | None:
    """The night's orders for an able player (``k.hp > 0``)."""
    plan = Plan(ai, k, "chaotic" if k.class_id == "paladin" else None)
    tactic = TACTICS.get(k.class_id, _plain)
    return tactic(plan)


def _plain(p: Plan) -> Orders | None:
    return Orders((p.attack(),)) if p.top else None


def _toggles(*pairs: tuple[str, bool]) -> frozenset[str]:
    return frozenset(name for name, on in pairs if on)


def warrior(p: Plan) -> Orders | None:
    if not p.top:
        return None
    k = p.k
    actions: list[Action] = []
    if p.hurt and p.can("combat_expertise"):
        actions.append(Action("combat_expertise"))
    # Whirlwind risks a Daze on two misses: for two likely enemies, now and then. (A
    # Warrior, who learns only who has Combat, is never sure of two seats at once.)
    elif p.likely(p.top) and p.likely(p.second()) and p.chance(0.3):
        actions.append(Action("whirlwind", (p.top, p.second())))
        p.ai.last_target = p.top
    else:
        actions.append(p.attack())
    if k.memory("cleave_round") == k.round:
        actions.append(Action("cleave", (p.second() or p.top,)))
    return Orders(tuple(actions))


def wizard(p: Plan) -> Orders | None:
    if not p.top:
        return None
    # Mage armour costs Will, which only the Wizard's own Hold Person would miss.
    armour = frozenset({"mage_armor"})
    likely = [s for s in p.ranked[:3] if p.likely(s)]
    if p.can("fireball") and p.k.round >= 2 and (len(likely) >= 2 or p.hurt):
        return Orders((Action("fireball", tuple(likely or [p.top])),), armour)
    if p.sure(p.top) and p.chance(0.15):
        return Orders((p.attack("hold_person"),))
    return Orders((p.attack("magic_missile"),), armour)


@cache
def _pool_rules() -> tuple[int, int]:
    params = class_spec("sorcerer").skill("chaos_bolt").params  # type: ignore[union-attr]
    return int(params["gain"]), int(params["cap"])


def sorcerer(p: Plan) -> Orders | None:
    if not p.top:
        return None
    gain, cap = _pool_rules()
    pool = int(p.k.memory("spell_points", 0))
    budget = min(pool + gain, cap)
    ward = p.hurt and budget >= 3
    toggles = _toggles(("arcane_ward", ward))
    if p.can("wild_surge") and p.k.round >= 2 and (p.sure(p.top) or p.k.round >= 4):
        actions = [Action("wild_surge"), Action("chaos_bolt", (p.top,), 4)]
        if p.second():
            actions.append(Action("frighten", (p.second(),), 2))
        p.ai.last_target = p.top
        return Orders(tuple(actions), toggles)
    spend = budget - (1 if ward else 0)
    if spend <= 0:
        return Orders((p.attack(),), toggles)
    bolt = min(4, spend)
    actions = [Action("chaos_bolt", (p.top,), bolt)]
    if spend - bolt >= 2 and p.second():
        actions.append(Action("frighten", (p.second(),), 2))
    p.ai.last_target = p.top
    return Orders(tuple(actions), toggles)


@cache
def _will() -> dict[str, int]:
    """Each class's Will, from the class data: what an opposed Will check meets."""
    return {cid: spec.will for cid, spec in catalogue().items()}


def will_odds(k: Knowledge, seat: int) -> float:
    """The chance that an opposed Will check of this player's takes hold on ``seat``,
    averaged over the roles ``seat`` may still hold (d100 <= own Will - its Will)."""
    mine = _will()[k.class_id]
    c = k.cand[seat]
    odds = [max(0, mine - _will()[cid]) / 100 for i, (_, cid) in enumerate(ROLES) if c >> i & 1]
    return sum(odds) / len(odds) if odds else 0.0


# The Bard keeps at most this many listeners under its Prelude: the Prelude costs the
# free action a hit on the grail's carrier needs for its steal attempt.
LISTENERS = 2


def bard(p: Plan) -> Orders | None:
    if not p.top:
        return None
    k = p.k
    sung: set[int] = p.ai.notes.setdefault("sung", set())
    sung &= set(k.others_alive())
    toggles = _toggles(("countersong", p.hurt and p.chance(0.5)))
    if k.holds_grail and sung:
        sung.clear()
        return Orders((Action("hypnotic_finale"),), toggles)
    likely = [s for s in p.ranked if p.likely(s)]
    if p.can("suggestion") and k.round >= 2 and len(likely) >= 2:
        # Turn the likely enemy its Will can best sway against another likely enemy.
        subject = max(likely[:4], key=lambda s: will_odds(k, s))
        if will_odds(k, subject) >= 0.25:
            victim = next(s for s in likely if s != subject)
            p.ai.last_target = victim
            return Orders((Action("suggestion", (subject, victim)),), toggles)
    actions = []
    if len(sung) < LISTENERS:
        # A Prelude on a seat whose Will it cannot beat is a free action thrown away.
        fresh = [(p.k.p_enemy(s) * will_odds(k, s), s) for s in p.ranked[:5] if s not in sung]
        fresh = [f for f in fresh if f[0] >= 0.1]
        if fresh:
            target = max(fresh)[1]
            sung.add(target)
            actions.append(Action("hypnotic_prelude", (target,)))
    actions.append(p.attack())
    return Orders(tuple(actions), toggles)


def druid(p: Plan) -> Orders | None:
    if not p.top:
        return None
    toggles = _toggles(("barkskin", p.hurt))
    if p.can("wild_shape") and p.k.round >= 2 and (p.sure(p.top) or p.k.round >= 4):
        return Orders((p.attack("wild_shape"),), toggles)
    if p.chance(0.15):
        # No attack roll: the bark costs nothing tonight.
        return Orders((p.attack("entangle"),), frozenset({"barkskin"}))
    return Orders((p.attack(),), toggles)


def cleric(p: Plan) -> Orders | None:
    k = p.k
    actions: list[Action] = []
    if k.hp <= 2 and p.can("divine_intervention"):
        actions.append(Action("divine_intervention", (k.seat,)))
    # The shield costs AB: worth it when hurt, free on a night without an attack.
    attacking = False
    if k.max_hp - k.hp >= 3:
        actions.append(Action("cure_wounds", (k.seat,)))
    else:
        friend = p.hurt_friend()
        if friend:
            actions.append(Action("cure_wounds", (friend,)))
        elif p.top:
            actions.append(p.attack())
            attacking = True
    toggles = _toggles(("shield_of_faith", p.hurt or not attacking))
    return Orders(tuple(actions), toggles)


def barbarian(p: Plan) -> Orders | None:
    if not p.top:
        return None
    fatigued = "fatigued" in p.k.sheet.get("known_states", ())
    toggles = _toggles(("rage", not fatigued))
    skill = "attack" if p.hurt else "reckless_charge"
    return Orders((p.attack(skill),), toggles)


def rogue(p: Plan) -> Orders | None:
    if not p.top:
        return None
    if p.hurt:
        return Orders((p.attack("pickpocket"),), frozenset({"hide_in_shadows"}))
    return Orders((p.attack(),))


def monk(p: Plan) -> Orders | None:
    k = p.k
    notes = p.ai.notes
    toggles = _toggles(("ki_guard", p.hurt))
    held = k.memory("grappling")
    if held is not None:
        since = notes.setdefault("held_since", {}).setdefault(held, k.round)
        if k.round - since < 1 and not k.is_friend(held):
            return None  # keep holding: the held one's orders stay void
        notes["held_since"] = {}
        if not p.top:
            return Orders((Action("release"),), toggles)
        return Orders((Action("release"), p.attack()), toggles)
    if not p.top:
        return None
    if p.can("quivering_palm") and k.round >= 2 and (p.sure(p.top) or k.round >= 4):
        return Orders((p.attack("quivering_palm"),), toggles)
    if p.chance(0.4):
        return Orders((p.attack("grapple"),), toggles)
    return Orders((p.attack(),), toggles)


def ranger(p: Plan) -> Orders | None:
    if not p.top:
        return None
    toggles = _toggles(("camouflage", p.hurt))
    actions: list[Action] = []
    if p.k.holds_grail:
        actions.append(Action("hunters_mark", (p.top,)))
    if p.can("snare") and p.k.round >= 2 and p.chance(0.3):
        actions.append(p.attack("snare"))
    else:
        actions.append(p.attack("sharpshooter"))
    return Orders(tuple(actions), toggles)


def paladin(p: Plan) -> Orders | None:
    k = p.k
    actions: list[Action] = []
    if k.max_hp - k.hp >= 2:
        actions.append(Action("lay_on_hands", (k.seat,)))
    elif friend := p.hurt_friend():
        actions.append(Action("lay_on_hands", (friend,)))
    # Divine Guard forbids every attack, Smite Evil included: guard when hurt or when
    # there is nobody to smite, smite otherwise.
    guard = p.hurt or not p.top
    if not guard:
        actions.append(p.attack("smite_evil"))
    return Orders(tuple(actions), _toggles(("divine_guard", guard)))


TACTICS: dict[str, Tactic] = {
    "warrior": warrior,
    "wizard": wizard,
    "sorcerer": sorcerer,
    "bard": bard,
    "druid": druid,
    "cleric": cleric,
    "barbarian": barbarian,
    "rogue": rogue,
    "monk": monk,
    "ranger": ranger,
    "paladin": paladin,
}
