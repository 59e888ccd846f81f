"""A seat's recap holds exactly what that seat was told and what the table saw: for a
played game (with a seat handed over midway), every recap line of every seat is a line
the channel was shown or a line of a DM written to that seat's holders, and every
private line they were sent is in it. The newcomer's catch-up DMs are the same history.
Bad rounds and strangers are refused."""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import select

import engine.view
from bot.core.advance import advance_phase
from bot.core.errors import GameNotStartedError, NoActiveGameError, NotInGameError, ServiceError
from bot.core.types import GameInfo
from bot.db import repositories as repo
from bot.db.models import OutboxMessage
from bot.db.session import Database
from bot.features.lobby.games import get_game, start_game
from bot.features.moderation.moderation import replace_player
from bot.features.recap.look import MINE, entry_lines
from bot.features.recap.recap import (
    PART_EVENTS,
    PART_STEPS,
    RecapEntry,
    RecapRoundError,
    seat_history,
    seat_recap,
)
from bot.render import words
from bot.render.events import render_event
from engine.events import Audience, Event
from tests.service.helpers import current_state, lobby, play_to_end, sees, send_all, started, user

NEWCOMER = user(40)


async def _outbox(db: Database, game_id: int) -> list[OutboxMessage]:
    async with db.read() as s:
        return list((await s.execute(select(OutboxMessage).where(OutboxMessage.game_id == game_id).order_by(OutboxMessage.id))).scalars())


def _names(info: GameInfo) -> dict[int, str]:
    return {p.seat: words.player_name(p.name) for p in info.players if p.seat is not None}


def _lines(events: list[dict[str, Any]], names: dict[int, str], locale: str) -> list[str]:
    out = []
    for d in events:
        e = Event.from_dict(d)
        if e.kind != "GameEnded":
            out += render_event(e, locale, names).splitlines()
    return out


async def _played(db: Database) -> int:
    """Eight players, two rounds and a Dusk; seat 3 handed over after the first night;
    then the game goes on to round 3's Morning."""
    game_id = await started(db, 8, seed="recap-seed-0001")
    for n in range(8):
        if n == 4:  # round 2's Dusk is open: the first night and vote are behind us
            state = await current_state(db, game_id)
            seat = 3 if state.player(3).alive else next(p.seat for p in state.players if p.alive)
            await replace_player(db, game_id, seat, NEWCOMER, await sees(db, game_id, NEWCOMER))
        await send_all(db, game_id)
        result = await advance_phase(db, game_id)
        assert not result.over, "the seed should keep this game going"
    return game_id


@pytest.mark.parametrize("locale", ["en-US", "zh-CN"])
async def test_every_recap_line_is_something_the_seat_was_sent_or_the_table_saw(db: Database, locale: str):
    game_id = await _played(db)
    info = await get_game(db, game_id)
    names = _names(info)
    rows = await _outbox(db, game_id)
    public = {line for r in rows if r.recipient_kind == "channel" and r.payload["type"] == "events" for line in _lines(r.payload["events"], names, locale)}
    assert public, "the table saw something"
    state = await current_state(db, game_id)
    checked_private = 0
    for p in info.players:
        holders = {p.user_id} | ({user(p.seat).id} if p.user_id == NEWCOMER.id else set())
        sent = [r for r in rows if r.recipient_kind == "user" and r.recipient_id in holders and r.payload["type"] == "events" and r.payload.get("seat") == p.seat]
        private = [line for r in sent for line in _lines(r.payload["events"], names, locale)]
        rc = await seat_recap(db, p.user_id, since_round=1)
        assert rc.seat == p.seat and rc.since_round == 1
        got_private = []
        for entry in rc.entries:
            # Only public events and this seat's own private ones, never an audit event.
            assert all(e["audience"] == "public" for e in entry.public)
            assert all(e["audience"] == "private" and e["seat"] == p.seat for e in entry.private)
            for line in entry_lines(entry, locale, names):
                if line.startswith(MINE):
                    assert line.removeprefix(MINE) in private, (p.seat, line)
                    got_private.append(line.removeprefix(MINE))
                else:
                    assert line in public, (p.seat, line)
        # Everything the seat was told privately is there, in the order it was told.
        assert got_private == private, p.seat
        checked_private += len(private)
        # The seat's own view agrees: what it knows of its HP is its own.
        sheet = engine.view.sheet(state, p.seat)
        assert sheet["seat"] == p.seat
    assert checked_private > 0


async def test_a_whole_game_to_its_end_every_seats_history_is_what_it_was_told(db: Database):
    """The same check over a whole game, to its scoreboard (the seats' histories read
    from the finished game's log, as a recap renders them)."""
    game_id = await _played(db)
    await play_to_end(db, game_id)
    info = await get_game(db, game_id)
    assert info.status == "over"
    names = _names(info)
    rows = await _outbox(db, game_id)
    async with db.read() as s:
        steps = await repo.steps(s, game_id)
    for locale in ("en-US", "zh-CN"):
        public = {line for r in rows if r.recipient_kind == "channel" and r.payload["type"] == "events" for line in _lines(r.payload["events"], names, locale)}
        for p in info.players:
            holders = {p.user_id} | ({user(p.seat).id} if p.user_id == NEWCOMER.id else set())
            private = [
                line
                for r in rows
                if r.recipient_kind == "user" and r.recipient_id in holders and r.payload["type"] == "events" and r.payload.get("seat") == p.seat
                for line in _lines(r.payload["events"], names, locale)
            ]
            got_private = []
            for entry in seat_history(steps, p.seat):
                for line in entry_lines(entry, locale, names):
                    if line.startswith(MINE):
                        got_private.append(line.removeprefix(MINE))
                    else:
                        assert line in public, (p.seat, line)
            assert got_private == private, p.seat


async def test_the_newcomer_is_sent_the_seats_history_oldest_first_in_parts(db: Database):
    game_id = await _played(db)
    rows = await _outbox(db, game_id)
    info = await get_game(db, game_id)
    seat = next(p.seat for p in info.players if p.user_id == NEWCOMER.id)
    catch_up = [r for r in rows if r.recipient_id == NEWCOMER.id and r.payload["type"] == "recap"]
    assert catch_up, "the newcomer was caught up"
    # After the sheet, in order, numbered, each part within its bounds.
    kinds = [r.payload["type"] for r in rows if r.recipient_id == NEWCOMER.id]
    assert kinds.index("sheet") < kinds.index("recap")
    assert [r.payload["part"] for r in catch_up] == list(range(1, len(catch_up) + 1))
    assert {r.payload["parts"] for r in catch_up} == {len(catch_up)}
    entries = [RecapEntry.from_dict(e) for r in catch_up for e in r.payload["entries"]]
    for r in catch_up:
        part = r.payload["entries"]
        assert len(part) <= PART_STEPS
        assert sum(len(e["public"]) + len(e["private"]) for e in part) <= PART_EVENTS or len(part) == 1
    # The seat's history as it stood when they took it: its private news from before.
    async with db.read() as s:
        steps = await repo.steps(s, game_id)
    taken = next(st.seq for st in steps if st.kind == "replace")
    before = seat_history([st for st in steps if st.seq < taken], seat)
    assert entries == before
    assert any(e.private for e in entries), "the seat had been told something privately"
    # Nothing addressed to another seat.
    assert all(d["seat"] == seat for e in entries for d in e.private)


async def test_recap_defaults_to_the_round_of_the_last_thing_sent(db: Database):
    game_id = await started(db, 6, seed="recap-seed-0002")
    for _ in range(3):  # round 1: Day, Dusk, Morning (everyone sends)
        await send_all(db, game_id)
        await advance_phase(db, game_id)
    await advance_phase(db, game_id)  # round 2's Day: nobody sends
    info = await get_game(db, game_id)
    assert (info.round, info.phase) == (2, "dusk")
    living = next(p for p in info.players if p.alive)
    rc = await seat_recap(db, living.user_id)
    assert rc.default_since and rc.since_round == 1
    assert {e.round for e in rc.entries} <= {1, 2}
    later = await seat_recap(db, living.user_id, since_round=2)
    assert not later.default_since and all(e.round >= 2 for e in later.entries)
    assert len(later.entries) < len(rc.entries)


async def test_bad_requests_are_refused(db: Database):
    game_id = await lobby(db, 6, seed="recap-seed-0003")
    with pytest.raises(GameNotStartedError):
        await seat_recap(db, user(1).id)
    await start_game(db, game_id)
    for since in (0, 2, 99):
        with pytest.raises(RecapRoundError) as got:
            await seat_recap(db, user(1).id, since_round=since)
        assert got.value.params == {"round": since, "last": 1}
    with pytest.raises(ServiceError):
        await seat_recap(db, user(1).id, since_round=True)  # type: ignore[arg-type]
    with pytest.raises(NoActiveGameError):
        await seat_recap(db, user(30).id)  # never played
    await replace_player(db, game_id, 2, NEWCOMER, await sees(db, game_id, NEWCOMER))
    with pytest.raises(NoActiveGameError):
        await seat_recap(db, user(2).id)  # gave the seat away
    from tests.service.helpers import CHANNEL

    with pytest.raises(NotInGameError):
        await seat_recap(db, user(2).id, channel_id=CHANNEL)  # asked in the game's channel
    assert (await seat_recap(db, NEWCOMER.id, channel_id=CHANNEL)).seat == 2


def test_audit_events_and_other_seats_news_never_enter_a_history():
    class Step:
        def __init__(self, round_no: int, events: list[Event]) -> None:
            self.round, self.phase, self.kind = round_no, "dusk", "advance"
            self.events = [e.to_dict() for e in events]
            self.inputs: dict[str, Any] = {"submissions": {}}  # nobody gave orders: no turn to tell
            self.state: dict[str, Any] = {"players": []}

    steps = [
        Step(1, [Event("PlayerLeft", Audience.PUBLIC, None, {"name": "x", "seat": 4}), Event("Roll", Audience.AUDIT), Event("GrailWon", Audience.PRIVATE, 2)]),
        Step(2, [Event("GrailWon", Audience.PRIVATE, 3), Event("Roll", Audience.AUDIT)]),
    ]
    history = seat_history(steps, 3)  # type: ignore[arg-type]
    assert [(e.round, len(e.public), len(e.private)) for e in history] == [(1, 1, 0), (2, 0, 1)]
    assert seat_history(steps, 3, since_round=2)[0].private[0]["seat"] == 3  # type: ignore[arg-type]
    assert seat_history(steps, 5, since_round=2) == []  # type: ignore[arg-type]
