"""Replacing, removing, cancelling."""

from __future__ import annotations

import pytest

import engine
from bot.core import errors as E
from bot.core.advance import advance_phase
from bot.core.table import Place
from bot.core.types import UserRef
from bot.core.views import game_info, player_view
from bot.db.session import Database
from bot.features.lobby.games import get_game, join_game
from bot.features.moderation.moderation import cancel_game, remove_player, replace_player
from bot.features.play.commands import SendGrail, SendSubmission, handle
from bot.features.replay.export import export_game
from bot.features.replay.verify import verify_log
from bot.render.refusals import service_refusal
from tests.service.helpers import (
    current_state,
    lobby,
    play_to_end,
    sees,
    send_all,
    started,
    take_due,
    user,
)

NEWCOMER = UserRef(555, "Newcomer", "zh-CN")


async def test_replace_hands_the_seat_and_sheet_to_the_newcomer(db: Database) -> None:
    game_id = await started(db, 6, seed="replace-seed")
    await handle(db, SendGrail(77), user(2).id)
    before = await player_view(db, user(2).id)
    await take_due(db, limit=100)
    result = await replace_player(db, game_id, 2, NEWCOMER, await sees(db, game_id, NEWCOMER))
    assert result.kind == "replace" and result.seq == 2
    view = await player_view(db, NEWCOMER.id)
    assert view.seat == 2 and view.sheet["class_id"] == before.sheet["class_id"]
    assert view.sent == {"grail": {"kind": "grail", "number": 77}}
    assert (await current_state(db, game_id)).player(2).name == "Newcomer"
    with pytest.raises(E.NoActiveGameError):
        await game_info(db, Place.of(user(2).id))
    with pytest.raises(E.NotInGameError):
        await player_view(db, user(2).id, game_id)
    msgs = await take_due(db, limit=100)
    assert [m.payload["type"] for m in msgs] == ["player_replaced", "sheet", "seat_handed_over"]
    assert msgs[1].recipient_id == NEWCOMER.id and msgs[1].locale == "zh-CN"
    assert msgs[2].recipient_id == user(2).id and msgs[2].payload["new_name"] == "Newcomer"
    # The one who left may join another game; the newcomer may not.
    other = await lobby(db, 0, channel=4000)
    await join_game(db, other, user(2), await sees(db, other, user(2)))
    with pytest.raises(E.AlreadyInGameError):
        await join_game(db, other, NEWCOMER, await sees(db, other, NEWCOMER))
    with pytest.raises(E.NewcomerBusyError) as busy:
        await replace_player(db, game_id, 3, user(2), await sees(db, game_id, user(2)))
    # Said to the moderator, so it names the newcomer rather than "you".
    assert busy.value.params == {"name": user(2).name, "game_id": other, "channel": "<#4000>"}
    with pytest.raises(E.SeatNotFoundError):
        await replace_player(db, game_id, 9, UserRef(556, "X"), await sees(db, game_id, UserRef(556, "X")))


async def test_remove_then_play_on_and_verify(db: Database) -> None:
    game_id = await started(db, 7, seed="remove-seed")
    result = await remove_player(db, game_id, 4)
    assert result.kind == "remove"
    state = await current_state(db, game_id)
    assert not state.player(4).alive
    with pytest.raises(E.SeatGoneError):
        await remove_player(db, game_id, 4)
    with pytest.raises(E.NotInGameError):
        await handle(db, SendGrail(5), user(4).id, game_id=game_id)
    await replace_player(db, game_id, 5, NEWCOMER, await sees(db, game_id, NEWCOMER))
    await play_to_end(db, game_id)
    report = verify_log(await export_game(db, game_id))
    assert report.ok, report.mismatch


async def test_a_former_seat_holder_may_come_back_to_their_seat_but_not_take_another(db: Database) -> None:
    """Someone removed from (or replaced in) a game knows their seat's class and faction,
    and the dead's channel: handing them a second seat would play two hands at once."""
    game_id = await started(db, 7, seed="come-back")
    await remove_player(db, game_id, 4)
    before = await current_state(db, game_id)
    with pytest.raises(E.NewcomerWasSeatedError) as refused:
        await replace_player(db, game_id, 5, user(4), await sees(db, game_id, user(4)))
    assert refused.value.params == {"name": user(4).name, "seat": 4}
    assert service_refusal(refused.value, "zh-CN") and "{" not in service_refusal(refused.value, "en-US")
    assert await current_state(db, game_id) == before  # nothing changed
    assert (await player_view(db, user(5).id)).seat == 5
    # Replaced, then back in the very same seat: allowed.
    await replace_player(db, game_id, 6, NEWCOMER, await sees(db, game_id, NEWCOMER))
    await replace_player(db, game_id, 6, user(6), await sees(db, game_id, user(6)))
    assert (await player_view(db, user(6).id)).seat == 6
    with pytest.raises(E.NewcomerWasSeatedError):
        await replace_player(db, game_id, 7, NEWCOMER, await sees(db, game_id, NEWCOMER))


async def test_cancel(db: Database) -> None:
    lobby_id = await lobby(db, 3)
    info = await cancel_game(db, lobby_id)
    assert info.status == "cancelled"
    with pytest.raises(E.GameFinishedError):
        await cancel_game(db, lobby_id)
    game_id = await started(db, 6, channel=5000, first=10, seed="cancel-seed")
    await cancel_game(db, game_id, "moderator")
    assert (await get_game(db, game_id)).status == "cancelled"
    msgs = [m for m in await take_due(db, limit=100) if m.payload["type"] != "prompt"]  # (after the Day's post)
    assert [m.payload["type"] for m in msgs][-2:] == ["game_cancelled", "seed_revealed"]
    log = await export_game(db, game_id)
    assert log["game"]["seed"] == "cancel-seed" and verify_log(log).ok
    with pytest.raises(E.BadArgumentError):
        await cancel_game(db, game_id, "")


async def test_a_removal_voids_votes_for_the_removed_and_tells_who_named_them(db: Database) -> None:
    """E18: a vote for a removed player counts for nothing. It is taken back, so the
    voter must vote again (the early close waits for them), and they are told; at Dusk
    an order naming them stands (it fizzles at night) and its sender is told."""
    game_id = await started(db, 6, seed="named-removed")
    await send_all(db, game_id)
    await advance_phase(db, game_id)  # Dusk 1
    state = await current_state(db, game_id)
    able = [p.seat for p in state.players if p.alive and not p.wounded and p.seat != 2]
    for seat in able:
        target = 2 if seat in able[:2] else next(s for s in able if s != seat)
        await handle(db, SendSubmission(engine.Orders(actions=(engine.Action("attack", (target,)),))), user(seat).id, game_id=game_id)
    await take_due(db)
    await remove_player(db, game_id, 2)
    told = [m for m in await take_due(db) if m.payload.get("type") == "target_removed"]
    assert sorted(m.recipient_id for m in told) == sorted(user(s).id for s in able[:2])
    assert {m.payload["what"] for m in told} == {"orders"}
    for seat in able[:2]:  # the orders themselves are kept
        assert "orders" in (await player_view(db, user(seat).id)).sent

    await send_all(db, game_id)
    await advance_phase(db, game_id)  # Morning 1
    state = await current_state(db, game_id)
    alive = [p.seat for p in state.players if p.alive]
    doomed, voters, others = alive[-1], alive[:2], alive[2:-1]
    for seat in voters:
        await handle(db, SendSubmission(engine.Vote(doomed)), user(seat).id, game_id=game_id)
    for seat in others:
        await handle(db, SendSubmission(engine.Vote(voters[0])), user(seat).id, game_id=game_id)
    deadline = (await get_game(db, game_id)).deadline
    await take_due(db)
    await remove_player(db, game_id, doomed)  # the last who had not voted leaves
    told = [m for m in await take_due(db) if m.payload.get("type") == "target_removed"]
    assert sorted(m.recipient_id for m in told) == sorted(user(s).id for s in voters)
    assert {m.payload["what"] for m in told} == {"vote"}
    assert all(m.locale == "en-US" for m in told)
    for seat in voters:
        assert "vote" not in (await player_view(db, user(seat).id)).sent
    for seat in others:
        assert "vote" in (await player_view(db, user(seat).id)).sent
    # Not everyone has voted now: the phase is not closed early.
    assert (await get_game(db, game_id)).deadline == deadline
