"""Seasons in the service: a game counts in the season open when it ends (one that
started before a season ended and finishes after counts in the next, or in none); season
ratings start from the all-time ones with the uncertainty widened, and a replay of the
records lands on the stored numbers; the end's summary and awards; the refusals; the
season board; forgetting a player takes them out of the kept summaries."""

from __future__ import annotations

import math
from dataclasses import replace

import pytest
from sqlalchemy import delete, select

import engine
from bot.core.access_errors import NotModeratorError
from bot.core.advance import advance_phase
from bot.core.errors import BadArgumentError
from bot.core.messages import SeasonEnded, decode
from bot.core.policy import Standing
from bot.core.types import UserRef
from bot.db.models import (
    GameRecord,
    OutboxMessage,
    PlayerStanding,
    Season,
    SeasonGame,
    SeasonStanding,
    SeatRecord,
)
from bot.db.session import Database
from bot.features.lobby.games import get_game
from bot.features.moderation.commands import EndSeason, StartSeason, moderate
from bot.features.play.commands import SendSubmission, handle
from bot.features.records.backfill import backfill_all
from bot.features.records.ratings import Standing as Book
from bot.features.records.ratings import (
    model,
    play,
    rated_seats,
    rebuild,
    season_start,
    stored_matches_replay,
)
from bot.features.seasons.seasons import (
    NoSeasonOpenError,
    SeasonOpenError,
    UnknownSeasonError,
    end_season,
    start_season,
)
from bot.features.stats.leaderboard import leaderboard
from bot.features.stats.privacy import forget
from bot.features.stats.stats import player_stats
from bot.render.refusals import service_refusal
from engine.validate import validate_identification
from tests.conftest import FakeClock
from tests.service.helpers import GUILD, as_moderator, current_state, play_to_end, send_all, started

MOD = UserRef(77, "mod")
HERE = Standing.member_of(MOD.id, GUILD, moderator=True)


async def _play(db: Database, clock: FakeClock, seed: str, channel: int, first: int = 1) -> int:
    game_id = await started(db, 6, seed=seed, channel=channel, first=first)
    await play_to_end(db, game_id)
    clock.advance(600)
    return game_id


async def _season_of(db: Database, game_id: int) -> int | None:
    async with db.read() as s:
        return (await s.execute(select(SeasonGame.season_id).where(SeasonGame.game_id == game_id))).scalar_one_or_none()


async def test_a_game_counts_in_the_season_open_when_it_ends(db: Database, clock: FakeClock) -> None:
    before = await _play(db, clock, "season-before", 5001)  # no season yet: all-time only
    first = await moderate(db, as_moderator(HERE), StartSeason(GUILD, MOD, "Spring", "en-US"))
    clock.advance(60)
    straddling = await started(db, 6, seed="season-straddles", channel=5002, first=7)  # starts in season 1...
    inside = await _play(db, clock, "season-inside", 5003)
    summary = await moderate(db, as_moderator(HERE), EndSeason(GUILD, MOD, channel_id=42))
    clock.advance(60)
    await play_to_end(db, straddling)  # ...and ends with no season open: in none
    second = await start_season(db, GUILD, MOD)
    late = await started(db, 6, seed="season-late", channel=5004, first=13)
    clock.advance(60)
    again = await started(db, 6, seed="season-again", channel=5005)
    await play_to_end(db, again)
    await play_to_end(db, late)
    assert [await _season_of(db, g) for g in (before, inside, straddling, again, late)] == [None, first.id, None, second.id, second.id]
    assert (first.number, first.name, second.number, second.name) == (1, "Spring", 2, None)
    assert summary.games == 1 and summary.players == 6 and summary.season.ended_at is not None
    async with db.read() as s:
        post = (await s.execute(select(OutboxMessage).where(OutboxMessage.game_id.is_(None)))).scalar_one()
        season_rows = {r.number: r for r in (await s.execute(select(Season))).scalars()}
    assert (post.recipient_kind, post.recipient_id, post.locale) == ("channel", 42, "en-US")
    message = decode(post.payload)
    assert isinstance(message, SeasonEnded) and (message.number, message.name, message.games) == (1, "Spring", 1)
    assert season_rows[1].open_guild_id is None and season_rows[2].open_guild_id == GUILD
    assert season_rows[1].summary == summary.to_json()
    assert await stored_matches_replay(db) == []


async def test_a_game_that_started_before_the_season_counts_in_it_when_it_ends_inside(db: Database, clock: FakeClock) -> None:
    early = await started(db, 6, seed="season-early", channel=5010)
    clock.advance(60)
    season = await start_season(db, GUILD, MOD)
    await play_to_end(db, early)
    assert await _season_of(db, early) == season.id


async def test_season_ratings_start_from_all_time_with_more_uncertainty(db: Database, clock: FakeClock) -> None:
    await _play(db, clock, "season-warm-up", 5020)  # players 1-6 have an all-time rating
    async with db.read() as s:
        all_time = {r.user_id: Book(r.games, r.wins, r.mu, r.sigma, r.last_game_id) for r in (await s.execute(select(PlayerStanding))).scalars()}
    season = await start_season(db, GUILD, MOD)
    game_id = await _play(db, clock, "season-in-season", 5021, first=4)  # players 4-9: three veterans, three new
    async with db.read() as s:
        record = await s.get(GameRecord, game_id)
        seats = rated_seats((await s.execute(select(SeatRecord).where(SeatRecord.game_id == game_id))).scalars().all())
        stored = {r.user_id: r for r in (await s.execute(select(SeasonStanding).where(SeasonStanding.season_id == season.id))).scalars()}
    assert record is not None
    sigma0, tau = model().sigma, model().sigma / 2
    expected = {s.user_id: season_start(replace(all_time[s.user_id]) if s.user_id in all_time else None) for s in seats}
    veteran = next(u for u in expected if u in all_time)
    assert expected[veteran].mu == all_time[veteran].mu
    assert expected[veteran].sigma == pytest.approx(min(sigma0, math.hypot(all_time[veteran].sigma, tau)))
    assert all_time[veteran].sigma < expected[veteran].sigma <= sigma0
    play(record, seats, expected)
    for uid, st in expected.items():
        assert assert_standing(stored[uid], st)
    # The season's board and the all-time one differ; the rebuild lands on the same numbers.
    async with db.transaction() as s:
        await s.execute(delete(SeasonStanding))
    assert await stored_matches_replay(db) != []
    await rebuild(db)
    assert await stored_matches_replay(db) == []
    async with db.read() as s:
        rebuilt = {r.user_id: r for r in (await s.execute(select(SeasonStanding))).scalars()}
    assert {u: (r.mu, r.sigma, r.games) for u, r in rebuilt.items()} == {u: (r.mu, r.sigma, r.games) for u, r in stored.items()}


def assert_standing(row: SeasonStanding, st: Book) -> bool:
    assert (row.games, row.wins, row.mu, row.sigma) == (st.games, st.wins, st.mu, st.sigma)
    return True


async def test_season_board_beside_the_all_time_one(db: Database, clock: FakeClock) -> None:
    await _play(db, clock, "season-old", 5030, first=20)  # players 20-25: all-time only
    await start_season(db, GUILD, MOD, "Summer")
    await _play(db, clock, "season-new", 5031)
    all_time = await leaderboard(db, GUILD, min_games=1)
    this_season = await leaderboard(db, GUILD, season=0)
    by_number = await leaderboard(db, GUILD, "games", season=1)
    assert all_time.total == 12 and all_time.season is None
    assert this_season.total == 6 and this_season.season is not None and this_season.season.name == "Summer"
    assert {r.user_id for r in this_season.rows} == {101, 102, 103, 104, 105, 106} == {r.user_id for r in by_number.rows}
    for row in this_season.rows:  # /stats view ranks the player as the season's board does
        (mine,) = (await player_stats(db, row.user_id, row.user_id, GUILD)).seasons
        assert (mine.rank, mine.games, mine.season.name, mine.season.open) == (row.rank, 1, "Summer", True)
    assert (await player_stats(db, 120, 120, GUILD)).seasons == []  # played before the season only
    with pytest.raises(UnknownSeasonError):
        await leaderboard(db, GUILD, season=2)
    with pytest.raises(BadArgumentError):
        await leaderboard(db, GUILD, season=-1)
    with pytest.raises(BadArgumentError):
        await leaderboard(db, GUILD, "predictions", season=1)


async def test_refusals_change_nothing(db: Database) -> None:
    with pytest.raises(NoSeasonOpenError):
        await end_season(db, GUILD, MOD, 42)
    await start_season(db, GUILD, MOD, "  Autumn   2027 ")
    with pytest.raises(SeasonOpenError) as caught:
        await start_season(db, GUILD, MOD)
    assert "Season 1 is still open" in service_refusal(caught.value, "en-US")
    with pytest.raises(BadArgumentError):
        await start_season(db, GUILD + 1, MOD, "x" * 61)
    player = Standing.member_of(101, GUILD)
    other_server = Standing.member_of(MOD.id, GUILD + 1, moderator=True)
    for who in (player, other_server):
        with pytest.raises(NotModeratorError):
            await moderate(db, as_moderator(who), EndSeason(GUILD, UserRef(who.user_id, "x"), channel_id=42))
    async with db.read() as s:
        seasons = (await s.execute(select(Season))).scalars().all()
    assert [(x.number, x.name, x.ended_at) for x in seasons] == [(1, "Autumn 2027", None)]


async def _identify(db: Database, game_id: int) -> tuple[int, int, int]:
    """At the first Dusk, the first seat whose class allows a guess about a faction or a
    class sends every such guess about the next seat; that seat, the guesses sent and
    those true."""
    state = await current_state(db, game_id)
    for me in state.players:
        target = state.player(me.seat % len(state.players) + 1)
        kinds = [("faction", f.value) for f in engine.Faction] + [("class", target.class_id)]
        guesses: list[engine.Guess] = []
        for what, value in kinds:
            tried = engine.Guess(target.seat, what, value)  # type: ignore[arg-type]
            try:
                validate_identification(state, me, engine.Identification((*guesses, tried)))
            except engine.RuleViolation:
                continue
            guesses.append(tried)
        if guesses:
            break
    assert guesses, "no class at the table allows a guess about a faction or a class"
    holder = next(p.user_id for p in (await get_game(db, game_id)).players if p.seat == me.seat)
    await handle(db, SendSubmission(engine.Identification(tuple(guesses))), holder, game_id=game_id)
    right = sum(1 for g in guesses if (g.value == target.faction.value if g.what == "faction" else g.value == target.class_id))
    return me.seat, len(guesses), right


async def test_identifications_are_kept_in_the_records_and_backfilled(db: Database, clock: FakeClock) -> None:
    game_id = await started(db, 6, seed="season-guesses", channel=5040)
    await send_all(db, game_id)
    await advance_phase(db, game_id)  # Day -> Dusk
    guesser, sent, right = await _identify(db, game_id)
    await play_to_end(db, game_id)
    async with db.read() as s:
        seat = (await s.execute(select(SeatRecord).where(SeatRecord.game_id == game_id, SeatRecord.seat == guesser))).scalar_one()
        others = (await s.execute(select(SeatRecord.guesses).where(SeatRecord.game_id == game_id, SeatRecord.seat != guesser))).scalars().all()
    assert (seat.guesses, seat.guesses_right) == (sent, right) and set(others) == {0}
    async with db.transaction() as s:
        seat = (await s.execute(select(SeatRecord).where(SeatRecord.game_id == game_id, SeatRecord.seat == guesser))).scalar_one()
        seat.guesses = seat.guesses_right = None
    done = await backfill_all(db)
    assert done.guesses == 1
    async with db.read() as s:
        seat = (await s.execute(select(SeatRecord).where(SeatRecord.game_id == game_id, SeatRecord.seat == guesser))).scalar_one()
    assert (seat.guesses, seat.guesses_right) == (sent, right)
    assert (await backfill_all(db)).guesses == 0


async def test_forgetting_a_player_takes_them_out_of_the_kept_summaries(db: Database, clock: FakeClock) -> None:
    await start_season(db, GUILD, MOD)
    await _play(db, clock, "season-forgotten", 5050)
    summary = await end_season(db, GUILD, MOD, 42)
    named = {u for a in summary.awards for u in a.users} | {int(r["user"]) for r in summary.top}
    assert named and summary.top
    gone = sorted(named)[0]
    await forget(db, gone)
    async with db.read() as s:
        kept = (await s.execute(select(Season))).scalar_one().summary
        standings = (await s.execute(select(SeasonStanding.user_id))).scalars().all()
    assert kept is not None and gone not in standings
    assert all(gone not in a["users"] for a in kept["awards"]) and all(r["user"] != gone for r in kept["top"])
