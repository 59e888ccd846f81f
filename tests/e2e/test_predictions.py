"""Predictions over the local Discord: each round's menu in the gallery (never where the
living read), a pick stored and changed, refused once the round's Dusk has closed (in
each language), kept through a crash and restart, and the scores posted in the gallery at
the end."""

from __future__ import annotations

from typing import Any

from bot.features.gallery.predictions import game_scores, predictions_of
from bot.i18n import t
from bot.sandbox import play_reader as reader
from bot.sandbox.play_game import TableGame
from bot.sandbox.play_table import GameClock, TableSpec, Tavern
from discord_emulator import Message
from tests.e2e.conftest import run
from tests.e2e.test_crash_effects import dead_channel
from tests.e2e.test_gallery import options, spectator


def menus(tavern: Tavern, channel: Any, game_id: int) -> dict[int, tuple[Message, str]]:
    """The menus of predictions in ``channel``: round → (message, custom id)."""
    out: dict[int, tuple[Message, str]] = {}
    for m in tavern.public(channel):
        for cid in m.custom_ids():
            if cid.startswith(f"wh:predict:{game_id}:"):
                out[int(cid.rsplit(":", 1)[1])] = (m, cid)
    return out


def test_a_round_menu_stores_picks_until_dusk_closes_survives_a_restart_and_scores_at_the_end():
    async def scenario() -> None:
        async with Tavern(clock=GameClock(1.0), seed="predict") as tavern:
            seating = tavern.seat_table(TableSpec(players=6))
            channel = seating.channel
            game = TableGame(tavern, seating, options("chat"), seed="predict")
            sam = spectator(tavern, channel, "sam")
            mei = spectator(tavern, channel, "mei", "zh-CN")
            await game.open()
            game_id = game.game_id
            assert game_id is not None
            assert await game.next_phase(1, "day")
            for person in (sam, mei):
                assert not (await person.command("game watch")).error
            await tavern.drained()
            dead = dead_channel(tavern, channel)
            found = menus(tavern, dead, game_id)
            assert list(found) == [1]
            assert menus(tavern, channel, game_id) == {}  # never where the living read
            menu, cid = found[1]
            assert str(menu.embeds[0].get("title")) == t("predictions.open_title", "en-US", round=1)

            first = await sam.select(menu, cid, ["lawful"])
            assert not first.error and t("predictions.stored", "en-US", round=1, game=game_id, faction=t("faction.lawful", "en-US")) in first.text
            changed = await sam.select(menu, cid, ["chaotic"])
            before = t("faction.lawful", "en-US")
            assert t("predictions.changed", "en-US", round=1, game=game_id, faction=t("faction.chaotic", "en-US"), before=before) in changed.text
            zh = await mei.select(menu, cid, ["neutral"])
            assert not zh.error and t("predictions.stored", "zh-CN", round=1, game=game_id, faction=t("faction.neutral", "zh-CN")) in zh.text

            # Dusk: still open. A crash and restart in the middle keeps what was stored,
            # and the old menu still answers.
            await game.play_phase(1, "day")
            assert await game.next_phase(1, "dusk")
            await tavern.stop_bot(crash=True)
            await tavern.start_bot()
            assert await predictions_of(tavern.db, game_id) == {1: {sam.user.id: "chaotic", mei.user.id: "neutral"}}
            again = await sam.select(menu, cid, ["neutral"])
            assert not again.error, again.text

            # The Dusk closes: round 1's menu refuses, in each language.
            await game.play_phase(1, "dusk")
            assert await game.next_phase(1, "morning")
            late = await sam.select(menu, cid, ["lawful"])
            assert late.error and t("svc.predictions_closed", "en-US", game_id=game_id, round=1) in late.text
            late_zh = await mei.select(menu, cid, ["lawful"])
            assert late_zh.error and t("svc.predictions_closed", "zh-CN", game_id=game_id, round=1) in late_zh.text
            assert await predictions_of(tavern.db, game_id) == {1: {sam.user.id: "neutral", mei.user.id: "neutral"}}

            # To the end: each Day opened a menu, and the scores are posted in the gallery.
            report = await game.play(1, "morning")
            assert report.over
            await tavern.drained()
            rounds = sorted(menus(tavern, dead, game_id))
            assert rounds == list(range(1, len(rounds) + 1)) and len(rounds) >= 2
            title = t("predictions.scores_title", "en-US")
            ends = [m for m in tavern.public(dead) if str((m.embeds or [{}])[0].get("title")) == title]
            assert len(ends) == 1
            text = reader.message_text(ends[0])
            assert f"<@{sam.user.id}>" in text and f"<@{mei.user.id}>" in text
            scores = await game_scores(tavern.db, game_id)
            assert {x.user_id for x in scores} == {sam.user.id, mei.user.id}
            assert all(x.rounds == 1 and f"{x.brier:.3f}" in text for x in scores)
            assert not any(str((m.embeds or [{}])[0].get("title")) == title for m in tavern.public(channel))

            # /leaderboard sort: predictions ranks the server's forecasters, from min_games games.
            board = await sam.command("leaderboard", {"sort": "predictions", "min_games": 1})
            assert not board.error, board.text
            assert t("leaderboard.min_games_predictions", "en-US", min=1) in board.text
            best = min(scores, key=lambda x: (x.brier, x.user_id))
            assert board.text.index(f"{best.brier:.3f}") < board.text.index(f"{max(x.brier for x in scores):.3f}") or len({x.brier for x in scores}) == 1
            none = await mei.command("leaderboard", {"sort": "predictions", "min_games": 2})
            assert not none.error and t("leaderboard.empty", "zh-CN") in none.text

    run(scenario())
