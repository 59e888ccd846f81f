"""Records are written once, at the end, in the transaction that ends the game: a whole
game played shows the record tables and every figure of /stats and the leaderboard
standing still until the phase that ends it commits. A moderator's end writes them; a
lobby cancelled before the start writes none. Each record says what the game log says."""

from __future__ import annotations

from sqlalchemy import select

import engine
from bot.core.advance import advance_phase
from bot.db.models import GameRecord, GameStep, PlayerStanding, SeatRecord
from bot.db.session import Database
from bot.features.lobby.games import get_game
from bot.features.moderation.moderation import cancel_game, end_game, remove_player, replace_player
from bot.features.stats.errors import NoRecordsError
from bot.features.stats.leaderboard import leaderboard
from bot.features.stats.stats import player_stats
from tests.conftest import FakeClock
from tests.records.helpers import snapshot
from tests.service.helpers import (
    GUILD,
    count,
    current_state,
    lobby,
    play_to_end,
    sees,
    send_all,
    started,
    user,
)

PLAYERS = [user(i) for i in range(1, 7)]


async def _everything_shown(db: Database) -> list[object]:
    """All that /stats (each player, here and everywhere) and every leaderboard show."""
    shown: list[object] = []
    for p in PLAYERS:
        for guild in (GUILD, None):
            try:
                shown.append(await player_stats(db, p.id, p.id, guild))
            except NoRecordsError as exc:  # no records yet: the refusal is what is shown
                shown.append(type(exc).__name__)
    for sort in ("rating", "wins", "win_rate", "games"):
        shown.append(await leaderboard(db, GUILD, sort, min_games=1, viewer_id=PLAYERS[0].id))
    return shown


async def test_records_appear_when_the_end_commits_and_nothing_shown_moves_before(db: Database, clock: FakeClock) -> None:
    first = await started(db, 6, seed="records-first")
    await play_to_end(db, first)
    assert await count(db, GameRecord) == 1 and await count(db, SeatRecord) == 6
    clock.advance(3600)

    game_id = await started(db, 6, seed="records-second")
    before_tables = await snapshot(db)
    before_shown = await _everything_shown(db)
    for _ in range(300):
        await send_all(db, game_id)
        # The live game changes with every phase; nothing read from the records does.
        assert await snapshot(db) == before_tables
        assert await _everything_shown(db) == before_shown
        clock.advance(60)
        result = await advance_phase(db, game_id)
        if result.over:
            break
    else:
        raise AssertionError("the game did not end")
    assert await count(db, GameRecord) == 2 and await count(db, SeatRecord) == 12
    after = await _everything_shown(db)
    assert after != before_shown
    mine = await player_stats(db, PLAYERS[0].id, PLAYERS[0].id, GUILD)
    assert mine.games == 2


async def test_records_say_what_the_game_log_says(db: Database) -> None:
    game_id = await started(db, 8, seed="records-content")
    await play_to_end(db, game_id)
    state = await current_state(db, game_id)
    info = await get_game(db, game_id)
    async with db.read() as s:
        game = (await s.execute(select(GameRecord))).scalar_one()
        seats = {r.seat: r for r in (await s.execute(select(SeatRecord))).scalars()}
        steps = (await s.execute(select(GameStep).where(GameStep.game_id == game_id).order_by(GameStep.seq))).scalars().all()
    assert (game.game_id, game.guild_id, game.players, game.rounds) == (game_id, GUILD, 8, state.round)
    assert game.winners == state.winners and game.scores == state.scores and game.seed == "records-content"
    assert game.end_reason == state.end_reason and game.ended_at is not None and game.started_at <= game.ended_at
    died = [e["data"] for st in steps for e in st.events if e["kind"] == "PlayerDied"]
    assert died, "a game of attacks and votes has departures"
    for p in state.players:
        r = seats[p.seat]
        assert r.user_id == next(x.user_id for x in info.players if x.seat == p.seat)
        assert (r.class_id, r.faction, r.grails) == (p.class_id, p.faction.value, p.grails_banked)
        assert r.result == ("loss" if p.faction.value not in state.winners else "shared" if len(state.winners) > 1 else "win")
        assert r.faction_score == state.scores[p.faction.value]
        kills = [d for d in died if d["source"] == p.seat]
        assert r.kills + r.teamkills == len(kills)
        assert r.teamkills == sum(state.player(d["seat"]).faction is p.faction for d in kills)
        death = next((d for d in died if d["seat"] == p.seat), None)
        if p.alive:
            assert death is None and r.fate == "survived" and r.rounds == state.round
        else:
            assert r.fate == {"vote": "voted_out"}.get(death["cause"], "killed")
            assert 1 <= r.rounds <= state.round
    assert sum(r.kills for r in seats.values()) > 0


async def test_a_cancelled_lobby_writes_none_and_a_moderators_end_writes_all(db: Database) -> None:
    game_id = await lobby(db, 6)
    await cancel_game(db, game_id)
    assert await count(db, GameRecord) == 0 and await count(db, SeatRecord) == 0 and await count(db, PlayerStanding) == 0

    game_id = await started(db, 6, seed="records-ended", channel=2001)
    await send_all(db, game_id)
    await advance_phase(db, game_id)
    await end_game(db, game_id)
    async with db.read() as s:
        game = (await s.execute(select(GameRecord))).scalar_one()
        seats = (await s.execute(select(SeatRecord))).scalars().all()
    assert game.game_id == game_id and game.end_reason == "stopped"
    assert len(seats) == 6 and {r.fate for r in seats} == {"survived"}
    assert await count(db, PlayerStanding) == 6


async def test_removed_and_replaced_seats(db: Database) -> None:
    game_id = await started(db, 7, seed="records-seats")
    await send_all(db, game_id)
    await advance_phase(db, game_id)
    await remove_player(db, game_id, 2)
    newcomer = user(50)
    await replace_player(db, game_id, 3, newcomer, await sees(db, game_id, newcomer))
    await end_game(db, game_id)
    async with db.read() as s:
        seats = (await s.execute(select(SeatRecord).order_by(SeatRecord.seat, SeatRecord.id))).scalars().all()
        standings = {r.user_id for r in (await s.execute(select(PlayerStanding))).scalars()}
    by_user = {r.user_id: r for r in seats}
    assert len(seats) == 8
    assert by_user[user(2).id].fate == "removed"
    old, new = by_user[user(3).id], by_user[newcomer.id]
    assert (old.seat, old.fate, new.seat, new.fate) == (3, "replaced", 3, "survived")
    assert old.class_id == new.class_id
    # The one replaced played the game's first round only, and is neither counted nor rated.
    assert old.rounds == 1 and user(3).id not in standings and newcomer.id in standings
    state = await current_state(db, game_id)
    assert state.phase is engine.Phase.OVER
