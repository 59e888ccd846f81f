"""Absent players: misses counted at each close from what was stored, the warnings, the
absence policy, the standby list and its offers; the game log still replays."""

from __future__ import annotations

from typing import Any

import pytest

import engine
from bot.core import errors as E
from bot.core.advance import advance_phase
from bot.core.deadlines import run_due
from bot.core.outbox import claim_due_messages
from bot.core.types import UserRef
from bot.core.views import player_view
from bot.db.session import Database
from bot.features.lobby.games import get_game
from bot.features.moderation.status import phase_status
from bot.features.play.commands import SendSubmission, handle
from bot.features.replay.export import export_game
from bot.features.replay.verify import verify_log
from bot.features.standbys import errors as SE
from bot.features.standbys.standbys import accept_offer, join_standby, leave_standby, offer_seat
from tests.service.helpers import choice, current_state, sees, started, take_due, user

STANDBY = UserRef(700, "Sub")
STANDBY2 = UserRef(701, "Sub2")


async def send_all_but(db: Database, game_id: int, quiet: set[int]) -> None:
    """Every living seat sends its simple choice, except the seats in ``quiet``."""
    state = await current_state(db, game_id)
    info = await get_game(db, game_id)
    for p in info.players:
        if p.seat in quiet or p.seat is None:
            continue
        sub = choice(state, p.seat)
        if sub is not None:
            await handle(db, SendSubmission(sub), p.user_id, game_id=game_id)


async def close(db: Database, game_id: int, quiet: set[int]) -> list[Any]:
    """Everyone but ``quiet`` sends; the phase closes at its deadline; what went out."""
    await send_all_but(db, game_id, quiet)
    deadline = (await get_game(db, game_id)).deadline
    assert deadline is not None
    db.clock.advance(max(0.0, (deadline - db.now()).total_seconds()))  # type: ignore[attr-defined]
    report = await run_due(db)
    assert [r.game_id for r in report.advanced] == [game_id]
    return await take_due(db)


async def finished_log(db: Database, game_id: int) -> dict[str, Any]:
    """The complete log, the game ended by its moderator if still running."""
    from bot.features.moderation.moderation import end_game

    if (await get_game(db, game_id)).status != "over":
        await end_game(db, game_id)
    return await export_game(db, game_id)


def of_type(messages: list[Any], kind: str) -> list[Any]:
    return [m for m in messages if m.payload.get("type") == kind]


async def test_misses_are_counted_warned_and_reset(db: Database) -> None:
    game_id = await started(db, 6, absence_action="notify", absence_misses=2)
    await take_due(db)
    msgs = await close(db, game_id, {1})
    warned = of_type(msgs, "absence_warning")
    assert [(m.recipient_id, m.payload["phase"], m.payload["in_row"], m.payload["left"]) for m in warned] == [
        (user(1).id, "day", 1, 1)
    ]
    assert warned[0].locale == "en-US" and not of_type(msgs, "absence_moderator")
    assert (await player_view(db, user(1).id)).misses == (1, 1)
    assert (await player_view(db, user(2).id)).misses == (0, 0)
    # The second in a row reaches the limit: the moderator is told (the policy is "notify").
    msgs = await close(db, game_id, {1})
    assert [m.payload["left"] for m in of_type(msgs, "absence_warning")] == [0]
    told = of_type(msgs, "absence_moderator")
    assert [(m.recipient_id, m.payload["seat"], m.payload["action"]) for m in told] == [(9, 1, "notify")]
    status = await phase_status(db, game_id)
    assert status.misses[1] == (2, 2) and status.misses[2] == (0, 0)
    # Answering the next phase starts a fresh run; the total stays.
    await close(db, game_id, set())
    assert (await player_view(db, user(1).id)).misses == (0, 2)


async def test_a_moderators_advance_counts_no_miss(db: Database) -> None:
    game_id = await started(db, 6, absence_action="remove", absence_misses=1)
    await send_all_but(db, game_id, {1})
    await advance_phase(db, game_id)
    assert not of_type(await take_due(db), "absence_warning")
    assert (await player_view(db, user(1).id)).misses == (0, 0)


async def test_the_wounded_and_a_grappler_keeping_its_hold_are_not_counted(db: Database) -> None:
    game_id = await started(db, 6, absence_action="notify")
    await close(db, game_id, set())  # Day -> Dusk
    from bot.db import repositories as repo

    async with db.transaction() as s:
        game = await repo.lock_game(s, game_id)
        assert game is not None and game.state is not None
        state = engine.GameState.from_dict(game.state)
        state.player(1).hp = 0  # wounded
        state.player(2).memory["grappling"] = 3
        game.state = state.to_dict()
    await close(db, game_id, {1, 2, 3})
    assert (await player_view(db, user(1).id)).misses == (0, 0)
    assert (await player_view(db, user(2).id)).misses == (0, 0)
    assert (await player_view(db, user(3).id)).misses == (1, 1)


async def test_policy_remove_takes_the_seat_out_and_the_log_replays(db: Database) -> None:
    game_id = await started(db, 6, absence_action="remove", absence_misses=2)
    await close(db, game_id, {1})
    await close(db, game_id, {1})
    info = await get_game(db, game_id)
    assert not next(p for p in info.players if p.seat == 1).alive
    log = await finished_log(db, game_id)
    removed = [st for st in log["steps"] if st["kind"] == "remove"]
    assert [st["inputs"] for st in removed] == [{"seat": 1, "reason": "absence"}]
    assert verify_log(log).ok


async def test_policy_replace_offers_the_seat_and_a_standby_takes_it(db: Database, clock) -> None:
    game_id = await started(db, 6, absence_misses=1, offer_seconds=600)
    await join_standby(db, game_id, STANDBY, await sees(db, game_id, STANDBY))
    await join_standby(db, game_id, STANDBY2, await sees(db, game_id, STANDBY2))
    assert (await phase_status(db, game_id)).standbys == ("Sub", "Sub2")
    msgs = await close(db, game_id, {1})
    offers = of_type(msgs, "seat_offer")
    assert [(m.recipient_id, m.payload["seat"]) for m in offers] == [(STANDBY.id, 1)]
    # The first lets it expire: the next is asked; the first's button is refused.
    clock.advance(600)
    assert (await run_due(db)).done.get("offers_closed", 0) == 1
    second = of_type(await take_due(db), "seat_offer")
    assert [m.recipient_id for m in second] == [STANDBY2.id]
    with pytest.raises(SE.OfferClosedError):
        await accept_offer(db, offers[0].payload["offer"], STANDBY, await sees(db, game_id, STANDBY))
    with pytest.raises(SE.OfferNotYoursError):
        await accept_offer(db, second[0].payload["offer"], STANDBY, await sees(db, game_id, STANDBY))
    result = await accept_offer(db, second[0].payload["offer"], STANDBY2, await sees(db, game_id, STANDBY2))
    assert result.kind == "replace"
    msgs = await take_due(db)
    public = [m.payload["type"] for m in msgs if m.recipient_kind == "channel"]
    assert public == ["player_replaced"]
    assert (await player_view(db, STANDBY2.id)).seat == 1
    # Taken: a second press changes nothing.
    with pytest.raises(SE.OfferClosedError):
        await accept_offer(db, second[0].payload["offer"], STANDBY2, await sees(db, game_id, STANDBY2))
    log = await finished_log(db, game_id)
    assert [st["inputs"] for st in log["steps"] if st["kind"] == "replace"] == [{"seat": 1, "name": "Sub2", "reason": "absence"}]
    assert verify_log(log).ok


async def test_replace_falls_back_to_removal_when_nobody_takes_the_seat(db: Database, clock) -> None:
    game_id = await started(db, 6, absence_misses=1, offer_seconds=60)
    await join_standby(db, game_id, STANDBY, await sees(db, game_id, STANDBY))
    await close(db, game_id, {2})
    clock.advance(60)
    await run_due(db)
    msgs = await take_due(db)
    assert [m.payload["removed"] for m in of_type(msgs, "offers_exhausted")] == [True]
    assert not next(p for p in (await get_game(db, game_id)).players if p.seat == 2).alive
    assert verify_log(await finished_log(db, game_id)).ok


async def test_policy_ai_hands_the_seat_to_the_ai_which_then_plays_it(db: Database) -> None:
    """The absent player's seat goes on with the AI (a name that says so, no user), the
    player is told and freed, the AI seat is never counted absent, and the log replays."""
    game_id = await started(db, 6, absence_action="ai", absence_misses=2)
    await close(db, game_id, {2})
    msgs = await close(db, game_id, {2})
    assert [m.payload["action"] for m in of_type(msgs, "absence_moderator")] == ["ai"]
    info = await get_game(db, game_id)
    seat = next(p for p in info.players if p.seat == 2)
    assert seat.alive and seat.name.startswith("🤖") and not seat.user_id
    assert len(of_type(msgs, "seat_handed_over")) == 1  # the absent player is told and free
    await close(db, game_id, {2})  # the AI seat sends nothing here either: still no miss for it
    status = await phase_status(db, game_id)
    assert 2 not in status.misses
    log = await finished_log(db, game_id)
    replaced = [st["inputs"] for st in log["steps"] if st["kind"] == "replace"]
    assert replaced == [{"seat": 2, "name": seat.name, "reason": "absence"}]
    assert verify_log(log).ok


async def test_replace_without_standbys_removes_at_once(db: Database) -> None:
    game_id = await started(db, 6, absence_misses=1)
    msgs = await close(db, game_id, {3})
    assert [m.payload["action"] for m in of_type(msgs, "absence_moderator")] == ["remove"]
    assert not next(p for p in (await get_game(db, game_id)).players if p.seat == 3).alive


async def test_standby_refusals_change_nothing(db: Database) -> None:
    game_id = await started(db, 6, absence_misses=0)
    with pytest.raises(SE.StandbyInGameError):
        await join_standby(db, game_id, user(1), await sees(db, game_id, user(1)))
    await join_standby(db, game_id, STANDBY, await sees(db, game_id, STANDBY))
    with pytest.raises(SE.AlreadyStandbyError):
        await join_standby(db, game_id, STANDBY, await sees(db, game_id, STANDBY))
    other = await started(db, 6, channel=2001, first=20)
    with pytest.raises(E.NewcomerBusyError):
        await join_standby(db, game_id, user(20), await sees(db, game_id, user(20)))
    await leave_standby(db, game_id, STANDBY.id)
    with pytest.raises(SE.NotStandbyError):
        await leave_standby(db, game_id, STANDBY.id)
    with pytest.raises(SE.NoStandbyError):
        await offer_seat(db, game_id, 1)
    # A moderator's replace with nobody named goes to the list; the one replaced may not
    # stand by for the game afterwards.
    await join_standby(db, game_id, STANDBY, await sees(db, game_id, STANDBY))
    assert await offer_seat(db, game_id, 4) == "Sub"
    with pytest.raises(SE.NoStandbyError):
        await offer_seat(db, game_id, 4)  # already offered
    offer = of_type(await take_due(db), "seat_offer")[0]
    await accept_offer(db, offer.payload["offer"], STANDBY, await sees(db, game_id, STANDBY))
    with pytest.raises(SE.StandbyFormerSeatError):
        await join_standby(db, game_id, user(4), await sees(db, game_id, user(4)))
    assert (await phase_status(db, game_id)).standbys == ()
    del other


async def test_standby_for_a_game_that_is_over_is_refused(db: Database) -> None:
    from bot.features.moderation.moderation import end_game

    game_id = await started(db, 6)
    await end_game(db, game_id)
    before = await claim_due_messages(db, limit=1000)
    with pytest.raises(E.GameFinishedError):
        await join_standby(db, game_id, STANDBY, await sees(db, game_id, STANDBY))
    assert (await phase_status(db, game_id)).standbys == ()
    assert len(before) > 0


def test_new_games_get_the_configured_policy_and_old_ones_none(tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    from bot.config import load_config
    from bot.core.types import GameSettings

    monkeypatch.chdir(tmp_path)  # no config.toml: the defaults
    made = GameSettings.from_config(load_config())
    assert (made.absence_misses, made.absence_action, made.offer_seconds) == (2, "replace", 600)
    stored_before = {"max_players": 15, "day_seconds": 86400}  # a game stored before the policy
    assert GameSettings.model_validate(stored_before).absence_misses == 0


async def test_the_records_give_the_seat_to_the_standby_and_say_the_absent_left(db: Database, clock) -> None:
    from sqlalchemy import select

    from bot.db.models import SeatRecord

    game_id = await started(db, 6, absence_misses=1)
    await join_standby(db, game_id, STANDBY, await sees(db, game_id, STANDBY))
    offer = of_type(await close(db, game_id, {2}), "seat_offer")[0]
    await accept_offer(db, offer.payload["offer"], STANDBY, await sees(db, game_id, STANDBY))
    await finished_log(db, game_id)
    async with db.read() as s:
        rows = (await s.execute(select(SeatRecord).where(SeatRecord.game_id == game_id, SeatRecord.seat == 2))).scalars().all()
    fates = {r.user_id: r.fate for r in rows}
    assert fates[user(2).id] == "replaced" and fates[STANDBY.id] != "replaced"


async def test_the_reminder_names_the_phase_still_missing_and_the_run(db: Database) -> None:
    """Before each deadline, a player who has not sent is reminded of what that phase
    still asks of them, named with its round, and of the phases missed so far in a row;
    one who has sent is not reminded."""
    from bot.render.outgoing import render_outgoing
    from tests.bot.test_outbound import text_of

    game_id = await started(db, 6, absence_action="notify", absence_misses=3, reminder_lead_seconds=3600)
    await take_due(db)
    expected = {
        "day": ("you have not sent your grail number for Day 1", None),
        "dusk": ("you have not sent your night orders for Dusk 1", "You missed the last phase."),
        "morning": ("you have not voted in Morning 1", "You have missed 2 phases in a row."),
    }
    for phase, (missing, run) in expected.items():
        info = await get_game(db, game_id)
        assert info.phase == phase and info.deadline is not None
        await send_all_but(db, game_id, {1})
        db.clock.advance((info.deadline - db.now()).total_seconds() - 3600)  # type: ignore[attr-defined]
        assert (await run_due(db)).reminded == [game_id]
        reminders = [m for m in await take_due(db) if m.payload.get("type") == "reminder" and m.recipient_kind == "user"]
        assert user(1).id in [m.recipient_id for m in reminders] and user(2).id not in [m.recipient_id for m in reminders]
        text = text_of(render_outgoing(next(m for m in reminders if m.recipient_id == user(1).id), info))
        assert missing in text, text
        assert (run in text) if run else "in a row" not in text and "last phase" not in text, text
        db.clock.advance(3600)  # type: ignore[attr-defined]
        assert [r.game_id for r in (await run_due(db)).advanced] == [game_id]
        await take_due(db)
