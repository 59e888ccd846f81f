"""The baseline AI's Bard: its Prelude goes where its Will can take hold, it keeps its
free action for a steal once it has listeners enough, and it spends Suggestion on an
enemy it can sway against another enemy. Every order passes ``engine.validate``."""

from __future__ import annotations

import random

from bot.ai.knowledge import Knowledge
from bot.ai.player import BaselineAI
from bot.ai.tactics import LISTENERS, will_odds
from engine import GameState, Orders, validate
from engine.view import sheet, table
from tests.engine.helpers import table as hand_table


def _bard(round_no: int) -> tuple[GameState, Knowledge, BaselineAI]:
    """A chaotic Bard (seat 1) that knows seat 2 is the lawful Wizard and seat 3 the
    neutral Barbarian; seat 4 is its own faction's Ranger, unknown to it."""
    state = hand_table(("bard", "chaotic"), ("wizard", "lawful"), ("barbarian", "neutral"), ("ranger", "chaotic"))
    state.round = round_no
    k = Knowledge(sheet(state, 1), table(state))
    for seat, cls, faction in ((2, "wizard", "lawful"), (3, "barbarian", "neutral")):
        k.learn(seat, "class", cls, True)
        k.learn(seat, "faction", faction, True)
    k.set_phase(round_no, "dusk")
    return state, k, BaselineAI(random.Random(7), 4)


def _orders(ai: BaselineAI, k: Knowledge, state: GameState) -> Orders:
    subs = [sub for sub in ai.dusk(k) if isinstance(sub, Orders)]
    assert len(subs) == 1
    validate(state, 1, subs[0])
    return subs[0]


def test_will_odds_follow_the_class_data() -> None:
    _, k, _ = _bard(1)
    assert will_odds(k, 2) == 0.0  # the Wizard's Will (80) beats the Bard's (60)
    assert will_odds(k, 3) == 0.45  # the Barbarian's (15): d100 <= 60 - 15


def test_the_prelude_goes_to_the_enemy_it_can_sway() -> None:
    state, k, ai = _bard(1)
    orders = _orders(ai, k, state)
    skills = [(a.skill, a.targets) for a in orders.actions]
    assert ("hypnotic_prelude", (3,)) in skills
    assert not any(s == "hypnotic_prelude" and t == (2,) for s, t in skills)
    assert skills[-1][0] == "attack"


def test_with_listeners_enough_the_free_action_stays_for_a_steal() -> None:
    state, k, ai = _bard(1)
    ai.notes["sung"] = {2, 3}
    assert len(ai.notes["sung"]) >= LISTENERS
    orders = _orders(ai, k, state)
    assert [a.skill for a in orders.actions] == ["attack"]


def test_suggestion_turns_the_swayable_enemy_on_the_other() -> None:
    state, k, ai = _bard(2)
    orders = _orders(ai, k, state)
    assert [(a.skill, a.targets) for a in orders.actions] == [("suggestion", (3, 2))]


def test_the_finale_on_a_grail_night_with_listeners() -> None:
    state, k, ai = _bard(3)
    ai.notes["sung"] = {3}
    k.won_grail_round = 3
    orders = _orders(ai, k, state)
    assert [a.skill for a in orders.actions] == ["hypnotic_finale"]
