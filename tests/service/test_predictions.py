"""The gallery's predictions: who may predict and until when, the latest pick counting,
nothing of the game changed by them, and the Brier scores at the end on seeded games."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from bot.core.advance import advance_phase
from bot.core.errors import GameFinishedError
from bot.core.outbox import OutgoingMessage
from bot.core.types import UserRef
from bot.db.models import Game, OutboxMessage, Prediction
from bot.db.session import Database
from bot.features.gallery import errors as G
from bot.features.gallery.dead_channels import record_dead_channel
from bot.features.gallery.gallery import watch_game
from bot.features.gallery.predictions import brier, game_scores, predict, predictions_of, scores_of
from bot.features.lobby.games import get_game
from bot.features.moderation.moderation import remove_player
from bot.features.practice.practice import start_practice
from bot.features.stats.privacy import forget
from bot.i18n import LOCALES, t
from bot.render.outgoing import render_outgoing
from tests.service.helpers import CHANNEL, GUILD, play_to_end, sees, send_all, started, user

SAM = UserRef(700, "Sam")
ANN = UserRef(701, "Ann")


def test_brier_of_a_pick_against_a_sole_and_a_shared_win() -> None:
    assert brier("lawful", ["lawful"]) == 0.0
    assert brier("chaotic", ["lawful"]) == 2.0  # (0-1)² + (1-0)²
    # A shared win: 1/2 each for the two winners.
    assert brier("lawful", ["lawful", "neutral"]) == pytest.approx(0.25 + 0.25)
    assert brier("chaotic", ["lawful", "neutral"]) == pytest.approx(0.25 + 0.25 + 1)
    assert brier("neutral", ["lawful", "neutral", "chaotic"]) == pytest.approx(4 / 9 + 1 / 9 + 1 / 9)


def test_a_game_score_is_the_mean_over_the_rounds_predicted_best_first() -> None:
    picks = [(1, 5, "lawful"), (2, 5, "chaotic"), (1, 6, "chaotic"), (3, 7, "chaotic")]
    scores = scores_of(picks, ["chaotic"])
    assert [(x.user_id, x.rounds, x.brier) for x in scores] == [(6, 1, 0.0), (7, 1, 0.0), (5, 2, 1.0)]
    assert scores_of(picks, []) == []


async def _round_phase(db: Database, game_id: int) -> tuple[int, str]:
    async with db.read() as s:
        game = await s.get(Game, game_id)
        assert game is not None
        return game.round, str(game.phase)


async def test_who_may_predict_and_the_latest_pick_counts_until_dusk_closes(db: Database) -> None:
    game_id = await started(db)
    info = await get_game(db, game_id)
    await watch_game(db, game_id, SAM, await sees(db, game_id, SAM))
    assert await _round_phase(db, game_id) == (1, "day")
    with pytest.raises(G.PredictLivingError):
        await predict(db, game_id, user(1).id, "lawful")
    with pytest.raises(G.PredictNotInGalleryError):
        await predict(db, game_id, ANN.id, "lawful")
    with pytest.raises(G.PredictFactionError):
        await predict(db, game_id, SAM.id, "wolves")
    first = await predict(db, game_id, SAM.id, "lawful", round_no=1)
    assert first.replaced is None
    await send_all(db, game_id)
    await advance_phase(db, game_id)  # Day → Dusk: still open
    again = await predict(db, game_id, SAM.id, "chaotic")
    assert (again.round, again.replaced) == (1, "lawful")
    # A departed player predicts too.
    seat2 = next(p.seat for p in info.players if p.user_id == user(2).id)
    assert seat2 is not None
    await remove_player(db, game_id, seat2)
    await predict(db, game_id, user(2).id, "neutral")
    state_before = (await get_game(db, game_id)).version
    await send_all(db, game_id)
    await advance_phase(db, game_id)  # Dusk closes: round 1's predictions close
    assert await _round_phase(db, game_id) == (1, "morning")
    with pytest.raises(G.PredictionsClosedError):
        await predict(db, game_id, SAM.id, "neutral")
    with pytest.raises(G.PredictionsClosedError):
        await predict(db, game_id, SAM.id, "neutral", round_no=1)
    assert await predictions_of(db, game_id) == {1: {SAM.id: "chaotic", user(2).id: "neutral"}}
    assert (await get_game(db, game_id)).version > state_before
    await send_all(db, game_id)
    await advance_phase(db, game_id)  # Morning → round 2's Day
    with pytest.raises(G.PredictionsClosedError):  # an old menu's round
        await predict(db, game_id, SAM.id, "neutral", round_no=1)
    assert (await predict(db, game_id, SAM.id, "neutral", round_no=2)).round == 2


async def test_predictions_change_nothing_of_the_game(db: Database) -> None:
    """The same seed played with and without predictions ends with the same state."""
    plain = await started(db, seed="same-seed-01")
    await play_to_end(db, plain)
    forecast = await started(db, channel=9_001, first=20, seed="same-seed-01")
    await watch_game(db, forecast, SAM, await sees(db, forecast, SAM))
    await predict(db, forecast, SAM.id, "neutral")
    await play_to_end(db, forecast)
    async with db.read() as s:
        a, b = await s.get(Game, plain), await s.get(Game, forecast)
        assert a is not None and b is not None
        strip = lambda st: {k: v for k, v in st.items() if k != "players"}  # noqa: E731 (names differ)
        assert strip(a.state) == strip(b.state)
        assert [(p["class_id"], p["faction"], p["alive"]) for p in a.state["players"]] == [
            (p["class_id"], p["faction"], p["alive"]) for p in b.state["players"]
        ]


async def _score_rows(db: Database, game_id: int) -> list[OutboxMessage]:
    async with db.read() as s:
        stmt = select(OutboxMessage).where(OutboxMessage.game_id == game_id, OutboxMessage.payload["type"].as_string() == "prediction_scores")
        return list((await s.execute(stmt)).scalars())


@pytest.mark.parametrize("seed", ["pred-seed-1", "pred-seed-2", "pred-seed-3"])
async def test_scores_at_the_end_on_seeded_games(db: Database, seed: str) -> None:
    game_id = await started(db, seed=seed)
    for who in (SAM, ANN):
        await watch_game(db, game_id, who, await sees(db, game_id, who))
    await predict(db, game_id, SAM.id, "lawful")
    await predict(db, game_id, ANN.id, "chaotic")
    await send_all(db, game_id)
    await advance_phase(db, game_id)
    await predict(db, game_id, SAM.id, "neutral")  # replaces round 1's lawful
    await play_to_end(db, game_id)
    with pytest.raises(GameFinishedError):
        await predict(db, game_id, SAM.id, "lawful")
    async with db.read() as s:
        game = await s.get(Game, game_id)
        assert game is not None
        winners = list(game.state["winners"])
    assert winners
    scores = {x.user_id: x for x in await game_scores(db, game_id)}
    assert scores[SAM.id].rounds == 1 and scores[SAM.id].brier == pytest.approx(brier("neutral", winners))
    assert scores[ANN.id].brier == pytest.approx(brier("chaotic", winners))
    rows = await _score_rows(db, game_id)
    assert len(rows) == 1 and rows[0].recipient_kind == "gallery"
    assert {r["user"] for r in rows[0].payload["scores"]} == {SAM.id, ANN.id} and rows[0].payload["winners"] == winners
    info = await get_game(db, game_id)
    for loc in LOCALES:
        embed = render_outgoing(OutgoingMessage.of(rows[0]), info, locale=loc).embeds[0]
        assert f"<@{SAM.id}>" in (embed.description or "") and embed.title


async def _menu_rows(db: Database, game_id: int) -> list[OutboxMessage]:
    async with db.read() as s:
        stmt = select(OutboxMessage).where(OutboxMessage.game_id == game_id, OutboxMessage.payload["type"].as_string() == "predictions_open")
        return list((await s.execute(stmt)).scalars())


async def test_each_day_opens_a_menu_in_the_gallery_only(db: Database) -> None:
    """Where the game channel has a dead's room recorded (quiet dead switched on there);
    without one no menu is written (it could never be delivered)."""
    without = await started(db, channel=9_200, first=40)
    await play_to_end(db, without)
    assert await _menu_rows(db, without) == []
    await record_dead_channel(db, GUILD, CHANNEL, 9_201)
    game_id = await started(db)
    await play_to_end(db, game_id)
    rows = await _menu_rows(db, game_id)
    async with db.read() as s:
        game = await s.get(Game, game_id)
        assert game is not None
    assert sorted(r.payload["round"] for r in rows) == list(range(1, len(rows) + 1)) and rows
    assert all(r.recipient_kind == "gallery" for r in rows)
    assert len(rows) == game.round  # one Day a round, the last round's included


async def test_a_practice_game_has_no_predictions_and_forgetting_takes_them(db: Database) -> None:
    practice = (await start_practice(db, SAM, 7001)).id
    with pytest.raises(G.GalleryPracticeError):
        await predict(db, practice, ANN.id, "lawful")
    game_id = await started(db)
    await watch_game(db, game_id, ANN, await sees(db, game_id, ANN))
    await predict(db, game_id, ANN.id, "lawful")
    await play_to_end(db, game_id)
    await forget(db, ANN.id)
    async with db.read() as s:
        assert (await s.execute(select(Prediction).where(Prediction.user_id == ANN.id))).first() is None


async def test_the_predictions_board_ranks_by_mean_brier_from_min_games(db: Database) -> None:
    from bot.features.stats.leaderboard import leaderboard
    from bot.features.stats.privacy import set_hidden

    zoe = UserRef(702, "Zoe")
    means: dict[int, list[float]] = {}
    for n, seed in enumerate(("board-seed-1", "board-seed-2")):
        game_id = await started(db, channel=8_000 + n, first=1 + 10 * n, seed=seed)
        for who, pick in ((SAM, "lawful"), (ANN, "chaotic"), (zoe, "neutral")):
            if who is zoe and n == 1:
                continue  # one game only: under min_games
            await watch_game(db, game_id, who, await sees(db, game_id, who))
            await predict(db, game_id, who.id, pick)
        await play_to_end(db, game_id)
        for x in await game_scores(db, game_id):
            means.setdefault(x.user_id, []).append(x.brier)
    board = await leaderboard(db, GUILD, "predictions", min_games=2, viewer_id=zoe.id)
    want = sorted(((sum(v) / len(v), u) for u, v in means.items() if len(v) >= 2))
    assert [(r.user_id, r.games) for r in board.rows] == [(u, 2) for _, u in want]
    assert [r.brier for r in board.rows] == pytest.approx([m for m, _ in want])
    assert [r.rank for r in board.rows] == [1, 2] and board.own is None and board.total == 2
    assert [r.user_id for r in (await leaderboard(db, GUILD, "predictions", min_games=1)).rows] != []
    await set_hidden(db, SAM.id, True)
    assert SAM.id not in {r.user_id for r in (await leaderboard(db, GUILD, "predictions", min_games=1)).rows}


async def test_the_replay_shows_each_rounds_predictions_and_the_scores_after_the_end(db: Database) -> None:
    from bot.features.replay.export import export_finished, export_game
    from bot.features.replay.look import replay_html
    from bot.features.replay.verify import verify_log

    game_id = await started(db, seed="replay-pred")
    for who in (SAM, ANN):
        await watch_game(db, game_id, who, await sees(db, game_id, who))
    await predict(db, game_id, SAM.id, "lawful")
    await predict(db, game_id, ANN.id, "chaotic")
    assert "predictions" not in await export_game(db, game_id)  # nothing of them while live
    await play_to_end(db, game_id)
    log = await export_finished(db, game_id)
    assert [(p["round"], p["user_id"], p["faction"]) for p in log["predictions"]] == [(1, SAM.id, "lawful"), (1, ANN.id, "chaotic")]
    assert verify_log(log).ok  # the log still replays
    scores = await game_scores(db, game_id)
    for loc in LOCALES:
        page = replay_html(log, loc)
        assert t("replay.predictions", loc) in page and t("replay.predictions_round", loc, round=1) in page
        for x in scores:
            assert f"{x.brier:.3f}" in page
        assert "Sam" in page and "Ann" in page and t("stats.former_player", loc) not in page  # spectators by name
    plain = await started(db, channel=9_100, first=30, seed="replay-plain")
    await play_to_end(db, plain)
    plain_log = await export_finished(db, plain)
    assert "predictions" not in plain_log and "Predictions from the gallery" not in replay_html(plain_log, "en-US")
