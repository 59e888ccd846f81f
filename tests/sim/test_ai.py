"""The baseline AI: every submission it sends passes ``engine.validate``, it plays whole
games to the end, and it decides from what its player may know and nothing else."""

from __future__ import annotations

import copy
import gc
import random
from collections.abc import Iterator

import pytest

from bot.ai.knowledge import InformationLeakError, Knowledge
from bot.ai.player import BaselineAI
from bot.ai.runner import ai_rng, ask, game_seed, observe, play_game
from engine import (
    Audience,
    Event,
    GameState,
    Phase,
    Player,
    RuleViolation,
    Submission,
    advance,
    new_game,
    validate,
)
from engine.view import sheet, table


def _valid_game(i: int) -> tuple[int, bool]:
    result = play_game(game_seed("valid", i), players=6 + i % 10)
    return result.dropped, bool(result.winners)


def test_no_refused_submission_over_200_games() -> None:
    """Every submission of 200 whole games at every table size is accepted by the engine
    (``advance`` re-validates each one and counts a refusal as a dropped submission)."""
    results = [_valid_game(i) for i in range(200)]
    assert all(ended for _, ended in results), "every game ends with a winner"
    assert sum(dropped for dropped, _ in results) == 0


def ai_phases(seed: str) -> Iterator[tuple[GameState, dict[int, list[Submission]]]]:
    """A 15-player game between baseline AIs, each told what it may know: every phase's
    state and the living seats' submissions, before the phase closes on them."""
    state = new_game([f"P{s}" for s in range(1, 16)], seed)
    know = [Knowledge(sheet(state, s), table(state)) for s in state.seats()]
    ais = [BaselineAI(ai_rng(seed, s)) for s in state.seats()]
    events: list[Event] = []
    while not state.over:
        subs: dict[int, list[Submission]] = {}
        for k, ai in zip(know, ais, strict=True):
            observe(k, state, events, with_sheet=state.phase is Phase.DUSK)
            if k.alive[k.seat]:
                subs[k.seat] = ask(ai, k, state.phase)
        yield state, subs
        events = advance(state, subs, seed, inplace=True).events


def test_each_submission_passes_validate_directly() -> None:
    """The same, calling ``engine.validate`` on each submission before the phase closes."""
    for i in range(20):
        for state, subs in ai_phases(game_seed("direct", i)):
            for seat, sent in subs.items():
                for sub in sent:
                    try:
                        validate(state, seat, sub)
                    except RuleViolation as exc:  # pragma: no cover - the failure message
                        pytest.fail(f"seat {seat} ({state.player(seat).class_id}) sent {sub}: {exc}")


def test_the_ai_uses_its_skills() -> None:
    """Sensible play is more than plain attacks: over a few games every class orders
    its active skills and toggles."""
    from collections import Counter

    used: Counter[str] = Counter()
    for i in range(12):
        for _, subs in ai_phases(game_seed("skills", i)):
            for sub in (sub for sent in subs.values() for sub in sent):
                for a in getattr(sub, "actions", ()):
                    used[a.skill] += 1
                for t in getattr(sub, "toggles", ()):
                    used[t] += 1
    from engine.classes import catalogue

    orderable = {s.id for spec in catalogue().values() for s in spec.skills if s.mode in ("active", "toggle")}
    never = sorted(orderable - set(used))
    assert not never, f"the AI never used {never}"


def test_monk_holds_one_night_then_lets_go() -> None:
    """A Monk that holds someone keeps the hold one night (no orders), then releases it
    as its first action and attacks; both orders pass validation."""
    from tests.engine.helpers import table as hand_table

    state = hand_table(("monk", "lawful"), ("wizard", "chaotic"), ("rogue", "neutral"), ("bard", "chaotic"))
    state.player(1).memory["grappling"] = 2
    k = Knowledge(sheet(state, 1), table(state))
    ai = BaselineAI(random.Random(1), 4)
    k.set_phase(2, "dusk")
    assert not any(sub.kind == "orders" for sub in ai.dusk(k))
    k.set_phase(3, "dusk")
    state.round = 3
    orders = [sub for sub in ai.dusk(k) if sub.kind == "orders"]
    assert orders and orders[0].actions[0].skill == "release"
    for sub in orders:
        validate(state, 1, sub)


def _reachable(root: object) -> list[object]:
    seen: set[int] = set()
    out: list[object] = []
    todo = [root]
    while todo:
        obj = todo.pop()
        if id(obj) in seen or isinstance(obj, type):
            continue
        seen.add(id(obj))
        out.append(obj)
        todo.extend(gc.get_referents(obj))
    return out


def test_knowledge_holds_no_game_state() -> None:
    """Structurally: nothing reachable from a player's Knowledge or AI is engine state."""
    seed = "boundary"
    state = new_game([f"P{s}" for s in range(1, 16)], seed)
    k = Knowledge(sheet(state, 3), table(state))
    ai = BaselineAI(ai_rng(seed, 3))
    events: list[Event] = []
    for _ in range(4):
        observe(k, state, events, with_sheet=state.phase is Phase.DUSK)
        subs = {s: [] for s in state.seats()}
        subs[3] = ask(ai, k, state.phase)
        events = advance(state, subs, seed, inplace=True).events
    for obj in _reachable(k) + _reachable(ai):
        assert not isinstance(obj, GameState | Player), f"reached {type(obj).__name__}"


def test_knowledge_refuses_what_the_player_may_not_see() -> None:
    state = new_game([f"P{s}" for s in range(1, 16)], "refuse")
    k = Knowledge(sheet(state, 2), table(state))
    with pytest.raises(InformationLeakError):
        k.see(Event("DamageDealt", Audience.AUDIT, None, {"target": 5}))
    with pytest.raises(InformationLeakError):
        k.see(Event("GrailWon", Audience.PRIVATE, 7, {"round": 1}))
    with pytest.raises(InformationLeakError):
        k.update_sheet(sheet(state, 4))
    k.see(Event("GrailWon", Audience.PRIVATE, 2, {"round": 1}))
    assert k.holds_grail


def _alter_hidden(state: GameState, seat: int, rng: random.Random) -> GameState:
    """A different game that looks the same from ``seat``: every other player's class,
    faction, HP, states and memory changed; the grail moved if someone else holds it."""
    alt = state.clone()
    others = [p for p in alt.players if p.seat != seat]
    roles = [(p.class_id, p.faction) for p in others]
    rng.shuffle(roles)
    for p, (class_id, faction) in zip(others, roles, strict=True):
        p.class_id, p.faction = class_id, faction
        if p.alive:
            p.hp = rng.randint(0, 12)
            p.memory = {"spell_points": 5, "grappling": seat}
            p.conditions = {}
    if alt.grail_holder not in (None, seat):
        alt.grail_holder = next(p.seat for p in others if p.alive)
    alt.scores = {f: rng.randint(0, 14) for f in alt.scores}
    return alt


def _noise(state: GameState, seat: int) -> list[Event]:
    """Events the player must never see: audit ones and other seats' private ones."""
    others = [p.seat for p in state.players if p.seat != seat]
    return [
        Event("DamageDealt", Audience.AUDIT, None, {"target": others[0], "source": seat, "amount": 3}),
        Event("IdentificationAnswered", Audience.PRIVATE, others[1], {"confirmed": [], "asked": 1}),
        Event("BardicKnowledge", Audience.PRIVATE, others[2], {"target": others[3], "trait": "holy"}),
        Event("SpeakWithDead", Audience.PRIVATE, others[4], {"dead": [{"seat": others[5], "faction": "chaotic"}]}),
        Event("GrailWon", Audience.PRIVATE, others[6], {"round": state.round}),
    ]


@pytest.mark.parametrize("seat", [1, 6, 11])
def test_decisions_do_not_depend_on_what_the_player_cannot_see(seat: int) -> None:
    """Play a game; at every phase, feed a copy of the player a different hidden game
    (same sheet, same table, same visible events, plus events it may not see): its
    decisions must be identical."""
    seed = f"blind-{seat}"
    rng = random.Random(seat)
    state = new_game([f"P{s}" for s in range(1, 16)], seed)
    know = [Knowledge(sheet(state, s), table(state)) for s in state.seats()]
    ais = [BaselineAI(ai_rng(seed, s)) for s in state.seats()]
    twin_k = copy.deepcopy(know[seat - 1])
    twin_ai = copy.deepcopy(ais[seat - 1])
    events: list[Event] = []
    compared = 0
    while not state.over:
        alt = _alter_hidden(state, seat, rng)
        assert sheet(alt, seat) == sheet(state, seat) and table(alt) == table(state)
        subs: dict[int, list[Submission]] = {}
        for k, ai in zip(know, ais, strict=True):
            observe(k, state, events, with_sheet=state.phase is Phase.DUSK)
            if k.alive[k.seat]:
                subs[k.seat] = ask(ai, k, state.phase)
        observe(twin_k, alt, [*_noise(alt, seat), *events], with_sheet=state.phase is Phase.DUSK)
        if twin_k.alive[seat]:
            assert ask(twin_ai, twin_k, state.phase) == subs[seat]
            compared += 1
        events = [e for e in advance(state, subs, seed, inplace=True).events]
    assert compared >= 3  # at least one whole round seen through the twin
