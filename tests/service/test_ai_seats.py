"""AI seats at the service: the lobby's AI rows, the deal, an AI that reads only what its
seat is told and plays through the same checks as a player, at a moment of the phase
drawn from the seed and kept in the database, waiting while paused; hand-over both
ways; verify covers it."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import select

import engine
from bot.core.deadlines import run_due
from bot.core.errors import LobbyFullError
from bot.core.types import GameSettings
from bot.core.views import player_view
from bot.db.models import AiTurn, GameStep, OutboxMessage, Submission
from bot.features.ai_seats.ai_seats import AiSeatsTooManyError, NeedsAHumanError, seat_to_ai
from bot.features.ai_seats.play import seat_reading
from bot.features.ai_seats.turns import due_fraction
from bot.features.lobby.games import create_game, get_game, start_game
from bot.features.moderation.moderation import (
    pause_game,
    replace_player,
    resume_game,
    update_settings,
)
from bot.features.play.commands import SendSubmission, handle
from bot.features.replay.export import export_game
from bot.features.replay.verify import verify_log
from tests.service.helpers import (
    CHANNEL,
    GUILD,
    MODERATOR,
    choice,
    current_state,
    lobby,
    post_the_lobby,
    sees,
    user,
)


async def _ai_lobby(db, humans: int, ai: int, **kw) -> int:
    return await lobby(db, humans, ai_seats=ai, **kw)


async def _humans_send(db, game_id: int) -> None:
    state = await current_state(db, game_id)
    info = await get_game(db, game_id)
    for p in info.players:
        if p.seat is not None and p.user_id:
            sub = choice(state, p.seat)
            if sub is not None:
                await handle(db, SendSubmission(sub), p.user_id, game_id=game_id)


async def _play_to_end(db, clock, game_id: int, max_ticks: int = 600) -> None:
    """Humans send at once; the clock moves on to the next thing due and the scheduler's
    tick (run_due) plays the AI's turns and closes the phases."""
    from bot.features.ai_seats.play import next_due

    last = None
    for _ in range(max_ticks):
        info = await get_game(db, game_id)
        if info.status != "running":
            return
        if (info.round, info.phase) != last:
            await _humans_send(db, game_id)
            last = (info.round, info.phase)
        await run_due(db)
        info = await get_game(db, game_id)
        wake = min(t for t in (info.deadline, await next_due(db)) if t is not None) if info.deadline else None
        if wake is not None and wake > clock():
            clock.advance((wake - clock()).total_seconds())
    raise AssertionError("the game did not end")


async def test_lobby_holds_ai_seats_with_names_that_say_so(db):
    game_id = await _ai_lobby(db, 5, 10)
    info = await get_game(db, game_id)
    ai = [p for p in info.players if p.name.startswith("🤖 ")]
    assert len(ai) == 10 and len(info.players) == 15 and all(p.user_id == 0 for p in ai)
    assert len({p.name for p in ai}) == 10
    with pytest.raises(LobbyFullError):
        from bot.features.lobby.games import join_game

        await join_game(db, game_id, user(99), await sees(db, game_id, user(99)))
    # Fewer AI seats, in Chinese: the AI rows follow the settings.
    info = await update_settings(db, game_id, ai_seats=3, language="zh-CN")
    ai = [p for p in info.players if p.user_id == 0]
    assert len(ai) == 3 and all(p.name.startswith("🤖 ") and not p.name[2:].isascii() for p in ai)
    # No room left for the humans who joined: refused, nothing changed.
    with pytest.raises(AiSeatsTooManyError):
        await update_settings(db, game_id, ai_seats=11)
    assert len((await get_game(db, game_id)).players) == 8


async def test_the_ai_fills_the_table_to_a_target_as_humans_come_and_go(db):
    from bot.features.lobby.games import join_game, kick_from_lobby, leave_game

    info = await create_game(db, guild_id=GUILD, channel_id=CHANNEL, moderator=MODERATOR, settings=GameSettings.build(fill_to=8))
    await post_the_lobby(db, info.id)

    def ai_of(info):
        return [p.name for p in info.players if p.user_id == 0]

    # Nobody yet: seven AI seats, a place kept for the first human.
    first = ai_of(await get_game(db, info.id))
    assert len(first) == 7 and len((await get_game(db, info.id)).players) == 7
    await join_game(db, info.id, user(1), await sees(db, info.id, user(1)))
    assert ai_of(await get_game(db, info.id)) == first  # the first human takes the kept place
    await join_game(db, info.id, user(2), await sees(db, info.id, user(2)))
    after = await join_game(db, info.id, user(3), await sees(db, info.id, user(3)))
    # Each further human takes the last AI seat's place; the others keep their names.
    assert ai_of(after) == first[:5] and len(after.players) == 8
    after = await leave_game(db, info.id, user(3).id)
    assert ai_of(after) == first[:6] and len(after.players) == 8
    after = await kick_from_lobby(db, info.id, user(2).id)
    assert ai_of(after) == first and len(after.players) == 8
    # More humans than the target: no AI seat, and the player limit holds as before.
    for i in range(4, 11):
        after = await join_game(db, info.id, user(i), await sees(db, info.id, user(i)))
    assert ai_of(after) == [] and len(after.players) == 8
    # A fixed count switches the filling off, and the filling the fixed count.
    after = await update_settings(db, info.id, ai_seats=2)
    assert after.settings.fill_to == 0 and len(ai_of(after)) == 2
    after = await update_settings(db, info.id, fill_to=12)
    assert after.settings.ai_seats == 0 and len(ai_of(after)) == 4 and len(after.players) == 12


async def test_a_bad_filling_target_is_refused_and_changes_nothing(db):
    from bot.features.ai_seats.ai_seats import AiBothError, FillToRangeError

    game_id = await _ai_lobby(db, 2, 4)
    for bad in ({"fill_to": 5}, {"fill_to": 12, "max_players": 10}, {"fill_to": 9, "ai_seats": 2}):
        with pytest.raises((FillToRangeError, AiBothError)) as caught:
            await update_settings(db, game_id, **bad)
        assert caught.value.key in ("error.ai_fill_range", "error.ai_fill_both")
        info = await get_game(db, game_id)
        assert info.settings.ai_seats == 4 and info.settings.fill_to == 0 and len(info.players) == 6
    with pytest.raises(AiBothError):
        await create_game(db, guild_id=GUILD, channel_id=CHANNEL + 1, moderator=MODERATOR, settings=GameSettings.build(fill_to=9, ai_seats=2))
    with pytest.raises(FillToRangeError):
        await create_game(db, guild_id=GUILD, channel_id=CHANNEL + 1, moderator=MODERATOR, settings=GameSettings.build(fill_to=3))
    # Once dealt, the filling is fixed like the player limit.
    await start_game(db, game_id)
    from bot.core.errors import SettingFixedError

    with pytest.raises(SettingFixedError):
        await update_settings(db, game_id, fill_to=10)


async def test_a_filled_table_deals_and_plays_to_its_end(db, clock):
    game_id = await lobby(db, 2, fill_to=7)
    info = await start_game(db, game_id)
    assert len(info.players) == 7 and sum(1 for p in info.players if p.user_id == 0) == 5
    await _play_to_end(db, clock, game_id)
    assert verify_log(await export_game(db, game_id)).ok


async def test_a_game_needs_a_human(db):
    with pytest.raises(AiSeatsTooManyError):
        await create_game(db, guild_id=GUILD, channel_id=CHANNEL, moderator=MODERATOR, settings=GameSettings.build(ai_seats=14, max_players=14))
    info = await create_game(db, guild_id=GUILD, channel_id=CHANNEL, moderator=MODERATOR, settings=GameSettings.build(ai_seats=6))
    await post_the_lobby(db, info.id)
    with pytest.raises(NeedsAHumanError):
        await start_game(db, info.id)
    assert (await get_game(db, info.id)).status == "lobby"


async def test_ai_seats_play_a_whole_game_that_verifies(db, clock):
    game_id = await _ai_lobby(db, 1, 6)
    info = await start_game(db, game_id)
    assert len(info.players) == 7
    await _play_to_end(db, clock, game_id)
    assert (await get_game(db, game_id)).status == "over"
    async with db.read() as s:
        turns = (await s.scalars(select(AiTurn).where(AiTurn.game_id == game_id))).all()
        subs = (await s.scalars(select(Submission).where(Submission.game_id == game_id, Submission.user_id == 0))).all()
        steps = (await s.scalars(select(GameStep).where(GameStep.game_id == game_id))).all()
    assert turns and subs
    # Every AI turn was played, and none was refused.
    assert all(t.played_at is not None for t in turns)
    assert not [t.outcome for t in turns if (t.outcome or "").startswith("refused")]
    # Each AI submission is stored with the phase it was played in, and was resolved.
    sent = {(t.round, t.phase, t.seat) for t in turns if t.outcome == "sent"}
    assert {(r.round, r.phase, r.seat) for r in subs} == sent
    advanced = {(st.round, st.phase) for st in steps if st.kind == "advance"}
    assert {(r.round, r.phase) for r in subs} <= advanced
    report = verify_log(await export_game(db, game_id))
    assert report.ok, report
    # Records stay honest: the game notes its AI seats; they get no standing or rating.
    from bot.db.models import GameRecord, PlayerStanding, SeatRecord

    async with db.read() as s:
        record = await s.get(GameRecord, game_id)
        seats = (await s.scalars(select(SeatRecord).where(SeatRecord.game_id == game_id))).all()
        standings = (await s.scalars(select(PlayerStanding.user_id))).all()
    assert record is not None and record.ai_seats == 6
    assert sorted(r.seat for r in seats if r.ai) == sorted({t.seat for t in turns})
    assert all(r.user_id is None for r in seats if r.ai)
    assert standings == [user(1).id]


async def test_the_ai_reads_what_a_human_in_its_seat_would(db, clock):
    """For every seat, human or AI: the events it was told are exactly the log's public
    events and its own private ones, in order (and its own turns, told to it alone), and
    its sheet is /me's."""
    game_id = await _ai_lobby(db, 3, 4)
    await start_game(db, game_id)
    await _play_to_end(db, clock, game_id)
    async with db.read() as s:
        from bot.db import repositories as repo

        game = await repo.get_game(s, game_id)
        steps = (await s.scalars(select(GameStep).where(GameStep.game_id == game_id).order_by(GameStep.seq))).all()
        readings = {seat: await seat_reading(s, game, seat) for seat in range(1, 8)}
        ai_rows = (await s.scalars(select(OutboxMessage).where(OutboxMessage.recipient_kind == "seat"))).all()
    assert ai_rows and all(r.status == "ai" for r in ai_rows)  # never handed to Discord
    info = await get_game(db, game_id)
    for seat, reading in readings.items():
        told_all = [e for m in reading.messages if m.get("type") == "events" for e in m["events"]]
        # Besides the log's events, a night report tells the seat its own turn, as it ordered it
        # (YourTurn, bot/service/night_turns.py): private to the seat, never in the log.
        turns = [e for e in told_all if e["kind"] == "YourTurn"]
        assert all(e["audience"] == "private" and e["seat"] == seat for e in turns), seat
        told = [e for e in told_all if e["kind"] != "YourTurn"]
        public = [e for st in steps for e in st.events if e["audience"] == "public"]
        private = [e for st in steps for e in st.events if e["audience"] == "private" and e["seat"] == seat]
        assert sorted(map(repr, told)) == sorted(map(repr, public + private)), seat
        assert [e for e in told if e["audience"] == "private"] == private
        assert not [e for e in told if e["audience"] == "audit"]
        holder = info.players[seat - 1]
        if holder.user_id:  # a human's /me shows the same sheet
            view = await player_view(db, holder.user_id, game_id)
            assert view.sheet == reading.sheet


async def test_the_moment_is_drawn_from_the_seed_stored_and_waits_while_paused(db, clock):
    game_id = await _ai_lobby(db, 1, 5, seed="moment-seed-01", day_seconds=3600)
    await start_game(db, game_id)
    start = clock()
    assert (await run_due(db)).done.get("ai_played", []) == []  # the Day's turns, planned at the start: none due yet
    async with db.read() as s:
        turns = (await s.scalars(select(AiTurn).where(AiTurn.game_id == game_id))).all()
    assert len(turns) == 5 and all(t.played_at is None for t in turns)
    for t in turns:
        assert t.due_at == start + timedelta(seconds=3600) * due_fraction("moment-seed-01", 1, "day", t.seat)
        assert start < t.due_at < start + timedelta(seconds=3600)
    first = min(t.due_at for t in turns)
    await pause_game(db, game_id)
    clock.advance(7200)
    assert (await run_due(db)).done.get("ai_played", []) == []  # paused: it waits
    await resume_game(db, game_id)
    played = (await run_due(db)).done.get("ai_played", [])
    assert sorted(seat for _, seat, _ in played) == sorted(t.seat for t in turns)
    assert {outcome for *_, outcome in played} == {"sent"}
    assert clock() > first


async def test_hand_over_both_ways(db, clock):
    game_id = await _ai_lobby(db, 6, 1)
    await start_game(db, game_id)
    info = await get_game(db, game_id)
    human = next(p for p in info.players if p.user_id)
    ai_seat = next(p.seat for p in info.players if not p.user_id)
    # A human's seat goes to the AI: the seat plays on, the human is free.
    await seat_to_ai(db, game_id, human.seat)
    info = await get_game(db, game_id)
    assert info.players[human.seat - 1].user_id == 0 and info.players[human.seat - 1].name.startswith("🤖")
    with pytest.raises(Exception) as refused:
        await seat_to_ai(db, game_id, human.seat)
    assert getattr(refused.value, "params", {}).get("field") == "seat"
    clock.advance(86400 * 0.9)
    played = {seat for _, seat, _ in (await run_due(db)).done.get("ai_played", [])}
    assert {human.seat, ai_seat} <= played
    async with db.read() as s:
        from bot.db import repositories as repo

        game = await repo.get_game(s, game_id)
        reading = await seat_reading(s, game, human.seat)
    # The AI read the human's sheet message (the seat's catch-up) before its own.
    assert [m["type"] for m in reading.messages if m.get("type") == "sheet"] == ["sheet", "sheet"]
    # An AI seat goes to a newcomer by /game replace.
    await replace_player(db, game_id, ai_seat, user(50), await sees(db, game_id, user(50)))
    view = await player_view(db, user(50).id, game_id)
    assert view.seat == ai_seat and view.sheet is not None
    state = await current_state(db, game_id)
    assert state.player(ai_seat).name == user(50).name
    assert isinstance(state, engine.GameState)


async def test_a_game_with_ai_seats_cancelled_when_its_channel_is_gone_tells_the_people_only(db):
    from bot.features.moderation.moderation import cancel_game

    game_id = await _ai_lobby(db, 1, 5)
    await start_game(db, game_id)
    await cancel_game(db, game_id, channel_gone=True)
    async with db.read() as s:
        told = (
            await s.scalars(
                select(OutboxMessage.recipient_id).where(
                    OutboxMessage.game_id == game_id, OutboxMessage.recipient_kind == "user",
                    OutboxMessage.payload["type"].as_string() == "game_cancelled",
                )
            )
        ).all()
    assert sorted(told) == sorted([user(1).id, MODERATOR.id])
    assert (await get_game(db, game_id)).status == "cancelled"


async def test_a_moderator_removes_an_ai_seat_like_any(db):
    from bot.features.lobby.games import removed_players
    from bot.features.moderation.moderation import remove_player

    game_id = await _ai_lobby(db, 6, 2)
    await start_game(db, game_id)
    info = await get_game(db, game_id)
    ai_seat = next(p.seat for p in info.players if not p.user_id)
    await remove_player(db, game_id, ai_seat)
    info = await get_game(db, game_id)
    assert not info.players[ai_seat - 1].alive
    assert await removed_players(db, game_id) == []  # nobody to mute: no Discord user
