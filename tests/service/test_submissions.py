"""Submitting: validated by the engine, stored at once, replaced on resubmission with a
receipt that says so; a closed phase refuses clearly; the player's own view."""

from __future__ import annotations

import pytest
from sqlalchemy import select

import engine
from bot.core import errors as E
from bot.core.advance import advance_phase
from bot.core.views import player_view
from bot.db.models import Submission
from bot.db.session import Database
from bot.features.moderation.moderation import pause_game, resume_game
from bot.features.play.commands import SendGrail, SendSubmission, SendVote, handle
from bot.render.refusals import service_refusal
from tests.service.helpers import count, current_state, lobby, send_all, started, user


async def stored(db: Database) -> int:
    return await count(db, Submission)


async def test_submit_and_resubmit_replaces(db: Database) -> None:
    game_id = await started(db, 6)
    r1 = await handle(db, SendGrail(40), user(1).id)
    assert (r1.game_id, r1.round, r1.phase, r1.seat, r1.kind) == (game_id, 1, "day", 1, "grail")
    assert r1.submission == {"kind": "grail", "number": 40} and not r1.replaced and r1.revision == 1
    r2 = await handle(db, SendGrail(41), user(1).id)
    assert r2.replaced and r2.revision == 2
    assert await stored(db) == 1
    view = await player_view(db, user(1).id)
    assert view.sent == {"grail": {"kind": "grail", "number": 41}}
    assert view.seat == 1 and view.hp == view.sheet["max_hp"] and not view.holds_grail


async def test_rule_refusals_carry_the_engine_key(db: Database) -> None:
    await started(db, 6)
    with pytest.raises(E.RuleRefusedError) as err:
        await handle(db, SendGrail(101), user(1).id)
    assert err.value.key == "error.out_of_range" and err.value.params["value"] == 101
    assert "100" in service_refusal(err.value, "en-US") and service_refusal(err.value, "zh-CN") != service_refusal(err.value, "en-US")
    with pytest.raises(E.RuleRefusedError) as err:
        await handle(db, SendVote(2), user(1).id)  # a vote during the Day: not yet
    assert err.value.key == "error.wrong_phase"
    with pytest.raises(E.RuleRefusedError):
        await handle(db, SendSubmission({"kind": "nonsense"}), user(1).id)
    with pytest.raises(E.BadArgumentError):
        await handle(db, SendGrail("40"), user(1).id)  # type: ignore[arg-type]
    with pytest.raises(E.BadArgumentError):
        await handle(db, {"kind": "grail"}, user(1).id)  # type: ignore[call-overload]
    with pytest.raises(E.BadArgumentError):
        await handle(db, SendSubmission(("grail", 40)), user(1).id)
    assert await stored(db) == 0


async def test_not_in_a_game(db: Database) -> None:
    game_id = await started(db, 6)
    with pytest.raises(E.NoActiveGameError):
        await handle(db, SendGrail(50), user(99).id)
    with pytest.raises(E.NotInGameError):
        await handle(db, SendGrail(50), user(99).id, game_id=game_id)
    lobby_id = await lobby(db, 1, channel=3000, first=20)
    with pytest.raises(E.GameNotStartedError):
        await handle(db, SendGrail(50), user(20).id, game_id=lobby_id)


async def test_phase_closed_is_refused_not_carried_over(db: Database) -> None:
    game_id = await started(db, 6)
    await handle(db, SendGrail(30), user(1).id)
    await advance_phase(db, game_id)  # Day 1 -> Dusk 1
    with pytest.raises(E.PhaseClosedError) as err:
        await handle(db, SendGrail(30), user(2).id)
    assert err.value.params == {"round": 1, "phase": "phase.day"}
    with pytest.raises(E.PhaseClosedError):
        await handle(db, SendGrail(30), user(2).id, round_no=1)  # pinned to the Day that closed
    r = await handle(db, SendSubmission(engine.Orders()), user(2).id, round_no=1)
    assert r.phase == "dusk"
    async with db.read() as s:
        rows = (await s.execute(select(Submission.round, Submission.phase, Submission.seat))).all()
    assert sorted(rows) == [(1, "day", 1), (1, "dusk", 2)]


async def test_paused_game_refuses(db: Database) -> None:
    game_id = await started(db, 6)
    await pause_game(db, game_id)
    with pytest.raises(E.GamePausedError):
        await handle(db, SendGrail(50), user(1).id)
    await resume_game(db, game_id)
    assert (await handle(db, SendGrail(50), user(1).id)).revision == 1


async def test_everyone_sent_brings_the_deadline_forward(db: Database, clock) -> None:
    game_id = await started(db, 6)
    before = (await player_view(db, user(1).id)).game.deadline
    assert before is not None and before > clock.now
    state = await current_state(db, game_id)
    for seat in range(1, 6):
        r = await handle(db, SendGrail(10 * seat), user(seat).id)
        assert not r.all_sent and r.deadline == before
    assert state.phase is engine.Phase.DAY
    r = await handle(db, SendGrail(60), user(6).id)
    assert r.all_sent and r.deadline == clock.now


async def test_no_early_advance_when_turned_off(db: Database, clock) -> None:
    game_id = await started(db, 6, early_advance=False)
    await send_all(db, game_id)
    view = await player_view(db, user(1).id)
    assert view.game.deadline is not None and view.game.deadline > clock.now


async def test_view_shows_only_the_callers_sheet(db: Database) -> None:
    game_id = await started(db, 6)
    state = await current_state(db, game_id)
    view = await player_view(db, user(3).id)
    assert view.sheet["class_id"] == state.player(3).class_id
    others = {state.player(s).class_id for s in range(1, 7) if s != 3} - {state.player(3).class_id}
    assert not any(c in str(view.game) for c in others)
    with pytest.raises(E.NotInGameError):
        await player_view(db, user(50).id, game_id)


async def test_bad_expected_phase_and_ids(db: Database) -> None:
    from bot.core.advance import advance_phase
    from bot.features.me.inbox import read_inbox

    game_id = await started(db, 6)
    for kw in ({"expected_phase": "night"}, {"expected_round": 0}, {"expected_round": "1"}):
        with pytest.raises(E.BadArgumentError):
            await advance_phase(db, game_id, **kw)
    for round_no in (0, "1"):
        with pytest.raises(E.BadArgumentError):
            await handle(db, SendGrail(50), user(1).id, round_no=round_no)  # type: ignore[arg-type]
    with pytest.raises(E.BadArgumentError):
        await read_inbox(db, -1)
    with pytest.raises(E.BadArgumentError):
        await player_view(db, 0)
    assert await stored(db) == 0


async def test_the_receipt_carries_the_view_a_fresh_read_gives(db: Database) -> None:
    """The answer to a submission is drawn from the view read in its own unit of work:
    the same view as reading the game again afterwards (what was sent, in kind order,
    and the deadline an early close has just moved)."""
    game_id = await started(db, 6)
    for i in range(1, 7):
        receipt = await handle(db, SendGrail(10 + i), user(i).id, round_no=1)
        fresh = await player_view(db, user(i).id, game_id)
        assert receipt.view == fresh and list(receipt.view.sent) == list(fresh.sent)
        assert receipt.view.sent == {"grail": {"kind": "grail", "number": 10 + i}}
    assert receipt.all_sent and receipt.deadline_moved
    assert receipt.view.game.deadline == receipt.deadline
    await advance_phase(db, game_id)  # Day -> Dusk
    await handle(db, SendSubmission({"kind": "orders", "actions": [], "toggles": []}), user(1).id)
    receipt = await handle(db, SendSubmission({"kind": "identify", "guesses": []}), user(1).id)
    fresh = await player_view(db, user(1).id, game_id)
    assert receipt.view == fresh and list(receipt.view.sent) == list(fresh.sent) == ["identify", "orders"]
