"""Night orders and identifications a piece at a time: each piece is added under the
game's lock and the whole is validated by the engine, so pieces sent at the same moment
(asyncio.gather on real connections, both databases) are all kept, and a piece the rules
refuse leaves what was stored untouched. And withdrawing a submission."""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Awaitable, Callable
from datetime import timedelta
from typing import Any

import pytest
from sqlalchemy import select

import engine
from bot.core import errors as E
from bot.core.advance import advance_phase
from bot.core.types import GameSettings, Receipt
from bot.core.views import player_view
from bot.db.models import GameStep, Submission
from bot.db.session import Database
from bot.features.lobby.games import get_game
from bot.features.moderation.status import phase_status
from bot.features.play.commands import (
    AddAction,
    AddGuess,
    SendGrail,
    SendSubmission,
    ToggleSkill,
    Withdraw,
    handle,
)
from tests.service.helpers import current_state, started, user

Piece = Callable[[], Awaitable[Receipt]]


async def at_dusk(db: Database, n: int = 8, seed: str = "pieces-seed-01") -> int:
    game_id = await started(db, n, seed=seed)
    await advance_phase(db, game_id)  # a Day without numbers: nobody is hurt
    assert (await get_game(db, game_id)).phase == "dusk"
    return game_id


def _valid(state: engine.GameState, seat: int, sub: engine.Submission) -> bool:
    try:
        engine.validate(state, seat, sub)
    except engine.RuleViolation:
        return False
    return True


def action_pieces(state: engine.GameState, seat: int) -> list[engine.Action]:
    """Every single action ``seat`` may order tonight on its own (first targets only)."""
    others = [p.seat for p in state.players if p.alive and p.seat != seat]
    spec = engine.class_spec(state.player(seat).class_id)
    out = [engine.Action("attack", (others[0],))]
    for s in spec.skills:
        if s.mode != "active":
            continue
        pool = [seat, *others] if s.target_self else others
        targets = tuple(pool[: s.targets[0]])
        amount = None if s.amount is None else s.amount[0]
        out.append(engine.Action(s.id, targets, amount))
    return [a for a in out if _valid(state, seat, engine.Orders((a,)))]


def orders_pair(state: engine.GameState, seat: int) -> tuple[Any, Any] | None:
    """Two different pieces of tonight's orders that the rules accept together and each
    alone: (action, action) when the class has a free action, else (action, toggle)."""
    actions = action_pieces(state, seat)
    for a, b in itertools.combinations(actions, 2):
        if _valid(state, seat, engine.Orders((a, b))):
            return a, b
    spec = engine.class_spec(state.player(seat).class_id)
    for a in actions:
        for s in spec.skills:
            toggle = frozenset({s.id})
            if s.mode == "toggle" and all(_valid(state, seat, engine.Orders(x, toggle)) for x in ((a,), ())):
                return a, s.id
    return None


def guess_pair(state: engine.GameState, seat: int) -> tuple[engine.Guess, engine.Guess] | None:
    others = [p.seat for p in state.players if p.alive and p.seat != seat]
    spec = engine.class_spec(state.player(seat).class_id)
    values = {"trait": [t.value for t in engine.Trait], "faction": [f.value for f in engine.Faction], "class": list(engine.catalogue())}
    singles = [
        engine.Guess(target, slot.what, value)
        for slot in spec.identify
        for value in (slot.values or values[slot.what])
        for target in others[:2]
    ]
    for g, h in itertools.combinations(singles, 2):
        if (g.target, g.what) != (h.target, h.what) and _valid(state, seat, engine.Identification((g, h))):
            return g, h
    return None


def send(db: Database, uid: int, game_id: int, piece: Any, pin: int | None = 1) -> Piece:
    if isinstance(piece, engine.Action):
        return lambda: handle(db, AddAction(piece.skill, piece.targets, piece.amount), uid, game_id=game_id, round_no=pin)
    if isinstance(piece, engine.Guess):
        return lambda: handle(db, AddGuess(piece.target, (piece.what, piece.value)), uid, game_id=game_id, round_no=pin)
    return lambda: handle(db, ToggleSkill(piece, on=True), uid, game_id=game_id, round_no=pin)


async def test_pieces_sent_at_the_same_moment_are_all_kept(db: Database) -> None:
    game_id = await at_dusk(db)
    state = await current_state(db, game_id)
    info = await get_game(db, game_id)
    plan: dict[int, list[Any]] = {}
    for p in info.players:
        pieces = [*(orders_pair(state, p.seat) or ()), *(guess_pair(state, p.seat) or ())]
        if pieces:
            plan[p.user_id] = pieces
    assert sum(len(v) for v in plan.values()) >= 12, plan  # enough to race
    assert sum(1 for v in plan.values() if len(v) == 4) >= 2, plan
    calls = [send(db, uid, game_id, piece) for uid, pieces in plan.items() for piece in pieces]
    for round_trip in range(2):  # the second time, every piece replaces itself
        results = await asyncio.gather(*(c() for c in calls), return_exceptions=True)
        assert all(isinstance(r, Receipt) for r in results), results
        for uid, pieces in plan.items():
            sent = (await player_view(db, uid, game_id)).sent
            orders, ident = sent.get("orders", {}), sent.get("identify", {})
            have = {a["skill"] for a in orders.get("actions", [])} | set(orders.get("toggles", []))
            have |= {(g["target"], g["what"], g["value"]) for g in ident.get("guesses", [])}
            want = {x.skill if isinstance(x, engine.Action) else (x.target, x.what, x.value) if isinstance(x, engine.Guess) else x for x in pieces}
            assert want <= have, (round_trip, uid, pieces, sent)
            assert len(orders.get("actions", [])) == sum(isinstance(x, engine.Action) for x in pieces)


async def test_a_piece_the_rules_refuse_leaves_the_orders_as_they_were(db: Database) -> None:
    game_id = await at_dusk(db)
    state = await current_state(db, game_id)
    seat = next(
        p.seat
        for p in state.players
        if any(a.skill != "attack" and engine.class_spec(p.class_id).skill(a.skill).cost == "standard" for a in action_pieces(state, p.seat))
        and any(s.mode == "toggle" for s in engine.class_spec(p.class_id).skills)
    )
    standard = next(a for a in action_pieces(state, seat) if a.skill != "attack" and engine.class_spec(state.player(seat).class_id).skill(a.skill).cost == "standard")
    uid = user(seat).id
    first = await handle(db, AddAction("attack", (seat % 8 + 1,)), uid, game_id=game_id, round_no=1)
    assert first.kind == "orders" and not first.replaced and first.revision == 1
    with pytest.raises(E.RuleRefusedError) as err:
        await handle(db, AddAction(standard.skill, standard.targets, standard.amount), uid, game_id=game_id, round_no=1)  # a second standard action
    assert err.value.key == "error.actions"
    assert (await player_view(db, uid, game_id)).sent["orders"] == first.submission
    # Ordering the same skill again replaces it in its place.
    again = await handle(db, AddAction("attack", ((seat + 1) % 8 + 1,)), uid, game_id=game_id)
    assert again.replaced and again.revision == 2
    assert [a["targets"] for a in again.submission["actions"]] == [[(seat + 1) % 8 + 1]]
    # Toggles: flipped on, kept when an action is added, switched off.
    toggle = next(s.id for s in engine.class_spec(state.player(seat).class_id).skills if s.mode == "toggle")
    on = await handle(db, ToggleSkill(toggle), uid, game_id=game_id)
    if toggle in on.submission["toggles"]:
        assert (await handle(db, ToggleSkill(toggle), uid, game_id=game_id)).submission["toggles"] == []
    with pytest.raises(E.BadArgumentError):
        await handle(db, {"skill": "attack"}, uid, game_id=game_id)  # type: ignore[call-overload]
    with pytest.raises(E.BadArgumentError):
        await handle(db, AddAction("attack", (2.5,)), uid, game_id=game_id)  # type: ignore[arg-type]
    with pytest.raises(E.BadArgumentError):
        await handle(db, ("2", "trait", "combat"), uid, game_id=game_id)  # type: ignore[call-overload]
    with pytest.raises(E.RuleRefusedError) as err:
        await handle(db, AddGuess(seat, ("trait", "combat")), uid, game_id=game_id)  # oneself
    assert err.value.key == "error.self_target"


async def test_a_piece_after_its_dusk_closed_is_refused_never_carried_over(db: Database) -> None:
    game_id = await started(db, 6)
    with pytest.raises(E.RuleRefusedError) as err:  # during the Day: not yet
        await handle(db, AddAction("attack", (2,)), user(1).id, game_id=game_id)
    assert err.value.key == "error.wrong_phase"
    await advance_phase(db, game_id)
    await handle(db, AddAction("attack", (2,)), user(1).id, game_id=game_id, round_no=1)
    await advance_phase(db, game_id)  # Dusk 1 closes
    for call in (
        handle(db, AddAction("attack", (3,)), user(1).id, game_id=game_id, round_no=1),
        handle(db, AddAction("attack", (3,)), user(1).id),  # no pin: just closed
        handle(db, AddGuess(3, ("trait", "combat")), user(1).id, round_no=1),
        handle(db, ToggleSkill("rage"), user(1).id, round_no=1),
    ):
        with pytest.raises(E.PhaseClosedError) as closed:
            await call
        assert closed.value.params == {"round": 1, "phase": "phase.dusk"}
    async with db.read() as s:
        rows = (await s.execute(select(Submission))).scalars().all()
    assert [(r.round, r.phase, r.seat, r.kind) for r in rows] == [(1, "dusk", 1, "orders")]
    with pytest.raises(E.NoActiveGameError):
        await handle(db, AddAction("attack", (2,)), 4242)


async def test_a_withdrawn_submission_is_not_resolved_and_not_counted_as_sent(db: Database, clock) -> None:
    game_id = await started(db, 6, day_seconds=3600)
    deadline = (await get_game(db, game_id)).deadline
    for i in range(2, 7):
        await handle(db, SendGrail(10 * i), user(i).id, game_id=game_id)
    assert await handle(db, Withdraw("grail"), user(2).id, game_id=game_id, round_no=1)
    assert not await handle(db, Withdraw("grail"), user(2).id, game_id=game_id)  # nothing left
    assert 2 not in (await phase_status(db, game_id)).sent
    last = await handle(db, SendGrail(5), user(1).id, game_id=game_id)
    assert not last.all_sent and last.deadline == deadline  # seat 2 no longer counts
    # Refusals write nothing.
    with pytest.raises(E.BadArgumentError):
        await handle(db, Withdraw("everything"), user(3).id, game_id=game_id)
    with pytest.raises(E.RuleRefusedError) as err:
        await handle(db, Withdraw("orders"), user(3).id, game_id=game_id)
    assert err.value.key == "error.wrong_phase"
    with pytest.raises(E.PhaseClosedError):
        await handle(db, Withdraw("orders"), user(3).id, game_id=game_id, round_no=1)  # pinned to a Dusk not yet open
    with pytest.raises(E.NotInGameError):
        await handle(db, Withdraw("grail"), 4242, game_id=game_id)
    assert sorted((await phase_status(db, game_id)).sent) == [1, 3, 4, 5, 6]
    result = await advance_phase(db, game_id)
    async with db.read() as s:
        step = (await s.execute(select(GameStep).where(GameStep.seq == result.seq))).scalar_one()
    assert sorted(step.inputs["submissions"]) == ["1", "3", "4", "5", "6"]
    # Right after the Day closed, withdrawing its number says so.
    with pytest.raises(E.PhaseClosedError):
        await handle(db, Withdraw("grail"), user(3).id, game_id=game_id)


async def test_withdraw_then_send_again_moves_the_deadline_for_early_advance(db: Database, clock) -> None:
    game_id = await at_dusk(db, 6, seed="pieces-seed-02")
    for i in range(1, 7):
        await handle(db, SendSubmission(engine.Orders()), user(i).id, game_id=game_id)
    # everyone sent: early advance, after the Dusk's grace for the last player's pieces
    grace = timedelta(seconds=GameSettings().dusk_grace_seconds)
    assert grace.total_seconds() > 0
    assert (await get_game(db, game_id)).deadline == clock.now + grace
    clock.advance(1)
    assert await handle(db, Withdraw("orders"), user(4).id, round_no=1)
    state = await current_state(db, game_id)
    first = action_pieces(state, 4)[0]
    receipt = await handle(db, AddAction(first.skill, first.targets, first.amount), user(4).id, round_no=1)
    assert receipt.all_sent and receipt.revision == 1 and not receipt.replaced
