"""Reliability: the phases a player sent of those they were asked to, from the records.

A game played through the service writes, for each human holder, the phases it asked of
them (a living, unwounded seat's grail, orders or vote), those they sent, and for a seat
taken for absence (a standby took it, or it was removed) the phases the game closed after;
a phase a moderator closed early asks only those who had sent; AI seats have no figures.
The figure is read over a player's last games in a server from seeded records: the
newest ``GAMES`` only, "new" below ``NEW_BELOW`` games, never an AI seat, a record
without figures, another server's records, nor a practice game (which writes none).
``wolfhowl db backfill`` writes the figures the end wrote for records kept without them."""

from __future__ import annotations

import asyncio
from argparse import Namespace
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import insert, select, update

import engine
from bot.cli import db as db_cli
from bot.core.advance import advance_phase
from bot.core.deadlines import run_due
from bot.core.types import UserRef
from bot.db.models import Game, GameRecord, SeatRecord, User
from bot.db.session import Database
from bot.features.ai_seats.play import play_due
from bot.features.lobby.games import get_game
from bot.features.moderation.moderation import end_game
from bot.features.play.commands import SendSubmission, handle
from bot.features.practice.practice import start_practice
from bot.features.records.backfill import backfill_all
from bot.features.records.reliability import GAMES, NEW_BELOW, Reliability, reliability_of
from bot.features.standbys.standbys import accept_offer, join_standby
from tests.records.helpers import snapshot
from tests.service.helpers import GUILD, choice, current_state, sees, started, take_due

STANDBY = UserRef(700, "Sub")


def _asked(p: engine.Player, phase: str) -> bool:
    """The rule, as the tests read it: a living seat that is not wounded (no grappler in
    these games' first round)."""
    return p.alive and p.hp > 0


async def _close(db: Database, game_id: int, quiet: set[int], *, at_deadline: bool, book: dict[int, list[int]]) -> None:
    """Every human seat but ``quiet`` sends; the phase closes at its deadline or by the
    moderator; ``book`` (user -> [asked, sent]) counts what the phase asked of whom."""
    state = await current_state(db, game_id)
    info = await get_game(db, game_id)
    phase = state.phase.value
    for seat in info.players:
        if not seat.user_id or seat.seat is None:
            continue  # an AI seat: it plays by itself, and counts for nobody
        p = state.player(seat.seat)
        if not _asked(p, phase):
            continue
        mine = book.setdefault(seat.user_id, [0, 0])
        if seat.seat in quiet:
            mine[0] += at_deadline  # a miss only at the deadline
            continue
        sub = choice(state, seat.seat)
        assert sub is not None
        await handle(db, SendSubmission(sub), seat.user_id, game_id=game_id)
        mine[0] += 1
        mine[1] += 1
    if at_deadline:
        deadline = (await get_game(db, game_id)).deadline
        assert deadline is not None
        db.clock.advance(max(0.0, (deadline - db.now()).total_seconds()))  # type: ignore[attr-defined]
        assert [r.game_id for r in (await run_due(db)).advanced] == [game_id]
    else:
        await advance_phase(db, game_id)


def _human(info: object, seat: int) -> int:
    user = next(p.user_id for p in info.players if p.seat == seat)  # type: ignore[attr-defined]
    assert user
    return user


async def test_a_game_records_what_each_holder_was_asked_and_sent(db: Database, capsys: pytest.CaptureFixture[str]) -> None:
    game_id = await started(db, 6, seed="reliability-live", absence_misses=1, ai_seats=1)
    await join_standby(db, game_id, STANDBY, await sees(db, game_id, STANDBY))
    info = await get_game(db, game_id)
    humans = sorted(p.seat for p in info.players if p.user_id and p.seat is not None)
    ai_seat = next(p.seat for p in info.players if not p.user_id)
    early, absent = humans[0], humans[1]
    replaced_user = _human(info, absent)
    book: dict[int, list[int]] = {}

    # Day: the moderator closes it before its deadline: the one who had not sent is not asked.
    await _close(db, game_id, {early}, at_deadline=False, book=book)
    # Dusk, at its deadline: one misses, and a standby takes the seat (absence).
    await _close(db, game_id, {absent}, at_deadline=True, book=book)
    offer = next(m for m in await take_due(db) if m.payload.get("type") == "seat_offer")
    await accept_offer(db, offer.payload["offer"], STANDBY, await sees(db, game_id, STANDBY))
    # Morning, at its deadline: another misses, and with nobody standing by is removed.
    state = await current_state(db, game_id)
    able = [s for s in humans if s not in (early, absent) and _asked(state.player(s), "morning")]
    gone = able[0]
    removed_user = _human(await get_game(db, game_id), gone)
    await _close(db, game_id, {gone}, at_deadline=True, book=book)
    assert not (await current_state(db, game_id)).player(gone).alive
    # One more Day for everyone left, then the moderator ends the game.
    await _close(db, game_id, set(), at_deadline=False, book=book)
    await end_game(db, game_id)

    async with db.read() as s:
        rows = {(r.seat, r.user_id): r for r in (await s.execute(select(SeatRecord).where(SeatRecord.game_id == game_id))).scalars()}
    got = {
        user: (r.phases_asked, r.phases_sent, r.phases_abandoned) for (_, user), r in rows.items() if user is not None
    }
    # The one replaced missed the Dusk; the Morning and the Day after are left behind.
    assert got[replaced_user] == (book[replaced_user][0], book[replaced_user][1], 2)
    assert book[replaced_user][0] == 2 and book[replaced_user][1] == 1  # (the early Day counted as sent)
    # The one removed: what they were asked, and the Day after their removal.
    assert got[removed_user] == (book[removed_user][0], book[removed_user][1], 1)
    assert book[removed_user][0] - book[removed_user][1] == 1
    # Everyone else: what they were asked and sent, nothing abandoned; the standby from the Morning.
    for user, (asked, sent) in book.items():
        if user not in (replaced_user, removed_user):
            assert got[user] == (asked, sent, 0), user
    assert got[_human(info, early)][0] == book[_human(info, early)][0] < 4  # the early Day asked them nothing
    assert STANDBY.id in got and got[STANDBY.id][0] <= 2
    # The AI seat has no figures; its record is an AI's.
    ai = [r for (seat, _), r in rows.items() if seat == ai_seat and r.ai]
    assert ai and all((r.phases_asked, r.phases_sent, r.phases_abandoned) == (None, None, None) for r in ai)

    # The figure: a single game is "new", whoever it is.
    async with db.read() as s:
        one = await reliability_of(s, replaced_user, GUILD)
    assert one == Reliability(games=1, asked=4, sent=1) and one.new and one.percent is None and one.meets(100)

    # The backfill writes what the end wrote for records kept without the figures.
    live = await snapshot(db)
    async with db.transaction() as s:
        await s.execute(update(SeatRecord).values(phases_asked=None, phases_sent=None, phases_abandoned=None))
    done = await backfill_all(db)
    assert (done.games, done.reliability) == (0, len([u for u in got if u is not None]))
    assert await snapshot(db) == live
    assert (await backfill_all(db)).reliability == 0
    # The same from the command line, which says how many records it gave figures.
    async with db.transaction() as s:
        await s.execute(update(SeatRecord).where(SeatRecord.user_id == replaced_user).values(phases_asked=None, phases_sent=None, phases_abandoned=None))
    url = db.engine.url.render_as_string(hide_password=False)
    assert await asyncio.to_thread(db_cli.run, Namespace(action="backfill", revision=None, url=url, rebuild=False)) == 0
    assert "reliability figures written for 1 seat record(s)" in capsys.readouterr().out
    assert await snapshot(db) == live
    # A game created before misses were counted (no absence setting stored): none written.
    async with db.transaction() as s:
        game = await s.get(Game, game_id)
        assert game is not None
        game.settings = {k: v for k, v in game.settings.items() if k != "absence_misses"}
        await s.execute(update(SeatRecord).values(phases_asked=None, phases_sent=None, phases_abandoned=None))
    assert (await backfill_all(db)).reliability == 0
    async with db.read() as s:
        assert (await reliability_of(s, replaced_user, GUILD)).games == 0


START = datetime(2026, 1, 1, tzinfo=UTC)
ME, OTHER = 7, 8


async def seed_records(db: Database, games: list[tuple[int, int, int | None, bool, tuple[int, int, int] | None]]) -> None:
    """Records of finished games: (game number, server, user, AI seat, (asked, sent,
    abandoned)); a game's id is 10,000 past its number, clear of the games a test then
    creates (PostgreSQL's sequence does not know of these)."""
    games = [(10_000 + g[0], *g[1:]) for g in games]
    now = datetime.now(UTC)
    async with db.transaction() as s:
        users = {1} | {g[2] for g in games if g[2] is not None}
        users -= set((await s.execute(select(User.id).where(User.id.in_(users)))).scalars())
        if users:
            await s.execute(insert(User), [{"id": u, "display_name": f"u{u}", "locale": None, "created_at": now, "updated_at": now} for u in sorted(users)])
        for g in sorted({g[0] for g in games}):
            guild = next(x[1] for x in games if x[0] == g)
            ended = START + timedelta(hours=g - 10_000)
            await s.execute(insert(Game), [{
                "id": g, "guild_id": guild, "channel_id": 10, "active_channel_id": None, "moderator_id": 1, "settings": {},
                "language": "en-US", "secret_seed": f"s-{g}", "seed_sha256": "0" * 64, "status": "over", "phase": "over",
                "round": 3, "state": None, "version": 1, "notice_seq": 0, "end_reason": "score", "created_at": ended,
                "started_at": ended, "ended_at": ended,
            }])  # fmt: skip
            await s.execute(insert(GameRecord), [{
                "game_id": g, "guild_id": guild, "channel_id": 10, "language": "en-US", "players": 6, "rounds": 3,
                "winners": ["lawful"], "scores": {}, "end_reason": "score", "seed": f"s-{g}", "started_at": ended, "ended_at": ended,
            }])  # fmt: skip
        rows = []
        for seat, (g, guild, user, ai, figures) in enumerate(games, start=1):
            asked, sent, left = figures or (None, None, None)
            rows.append({
                "game_id": g, "guild_id": guild, "user_id": user, "name": "x", "ai": ai, "seat": seat, "class_id": "monk",
                "faction": "lawful", "result": "win", "fate": "survived", "kills": 0, "teamkills": 0, "steals": 0, "grails": 0,
                "rounds": 3, "faction_score": 9, "ended_at": START + timedelta(hours=g - 10_000),
                "phases_asked": asked, "phases_sent": sent, "phases_abandoned": left,
            })  # fmt: skip
        await s.execute(insert(SeatRecord), rows)


async def test_the_figure_is_over_the_last_games_that_count(db: Database) -> None:
    rows: list[tuple[int, int, int | None, bool, tuple[int, int, int] | None]] = []
    # 25 games in server 1: the five oldest all missed (they age out), the newest 20
    # each 9 of 10 sent, one of them a seat handed on for absence (5 phases left behind).
    for g in range(1, 26):
        figures = (10, 0, 0) if g <= 5 else (10, 9, 0)
        rows.append((g, 1, ME, False, figures if g != 20 else (10, 9, 5)))
        rows.append((g, 1, None, True, None))  # an AI seat at the table: never counts
    rows.append((30, 1, ME, False, None))  # a game before misses were counted: not known, not counted
    rows.append((31, 1, ME, False, (0, 0, 0)))  # a game that asked nothing (the first night's dead)
    rows.append((40, 2, ME, False, (10, 10, 0)))  # another server
    rows.append((41, 2, ME, False, (10, 10, 0)))
    rows += [(50, 1, OTHER, False, (10, 10, 0)), (51, 1, OTHER, False, (10, 10, 0))]
    await seed_records(db, rows)
    async with db.read() as s:
        here = await reliability_of(s, ME, 1)
        there = await reliability_of(s, ME, 2)
        everywhere = await reliability_of(s, ME, None)
        other = await reliability_of(s, OTHER, 1)
        stranger = await reliability_of(s, 999, 1)
    assert here == Reliability(games=GAMES, asked=GAMES * 10 + 5, sent=GAMES * 9)
    assert here.percent == 87  # 180/205 = 87.8%: shown rounded down
    assert here.meets(87) and not here.meets(88) and here.meets(0)
    # Two games are "new": no figure, and any minimum lets them in.
    assert there == Reliability(games=2, asked=20, sent=20) and there.new and there.percent is None and there.meets(100)
    assert other.new and stranger == Reliability() and stranger.meets(100)
    # Every server: the newest 20 there, the two of server 2 among them.
    assert everywhere.games == GAMES and everywhere.sent == 2 * 10 + 18 * 9 and everywhere.asked == 20 + 18 * 10 + 5
    assert NEW_BELOW == 3


async def test_a_practice_game_leaves_no_record_and_no_figure(db: Database) -> None:
    """The person misses every phase of a practice game to its deadline: nothing of it
    counts (a practice game writes no records)."""
    pat = UserRef(900, "Pat")
    info = await start_practice(db, pat, 7001, players=6)
    for _ in range(200):
        info = await get_game(db, info.id)
        if info.status != "running":
            break
        await play_due(db)
        assert info.deadline is not None
        db.clock.advance(max(0.0, (info.deadline - db.now()).total_seconds()))  # type: ignore[attr-defined]
        await run_due(db)
    assert info.status == "over"
    async with db.read() as s:
        assert (await s.execute(select(SeatRecord))).first() is None
        assert await reliability_of(s, pat.id, None) == Reliability()
