"""The game master's voice (issue 34): a wounded player is told what still counts, the
odds of the coming roll and how to pass, in their news and their reminders; the step
that ends the game advises no round to come; every person at the table gets their own
ending (won or lost, the scores, their points, their rating's move, the replay)."""

from __future__ import annotations

import engine
from bot.core.advance import advance_phase
from bot.core.deadlines import run_due
from bot.core.dispatch import Dispatcher, MemorySender
from bot.core.outbox import claim_due_messages
from bot.core.rules import state_of
from bot.db import repositories as repo
from bot.db.session import Database
from bot.features.lobby.games import get_game
from bot.features.play.commands import SendSubmission, handle
from bot.render.outgoing import render_outgoing
from tests.bot.test_outbound import text_of
from tests.service.helpers import apply_state, started, take_due, user

DAY = 600
LEAD = 120


async def set_hp(db: Database, game_id: int, seat: int, hp: int, wound_rolls: int = 0) -> None:
    async with db.transaction() as s:
        game = await repo.get_game(s, game_id)
        assert game is not None
        state = state_of(game)
        state.player(seat).hp = hp
        state.player(seat).wound_rolls = wound_rolls
        apply_state(game, state)


# -- wounded -------------------------------------------------------------------------------
async def test_a_player_wounded_by_the_vote_is_told_what_counts_the_odds_and_how_to_pass(db: Database) -> None:
    game_id = await started(db, 6)
    await advance_phase(db, game_id)  # Day: nobody sent a number
    await advance_phase(db, game_id)  # Dusk: a quiet night
    await set_hp(db, game_id, 2, 1)
    for seat in (1, 3, 4, 5, 6):
        await handle(db, SendSubmission(engine.Vote(2)), user(seat).id, game_id=game_id)
    await handle(db, SendSubmission(engine.Vote(1)), user(2).id, game_id=game_id)
    await take_due(db)
    await advance_phase(db, game_id)  # Morning: the vote takes seat 2 to HP 0
    mine = [m for m in await take_due(db) if m.recipient_kind == "user" and m.payload.get("seat") == 2]
    assert [m.payload["type"] for m in mine] == ["events", "prompt"]  # the news, then the Day's prompt
    news = mine[0]
    assert [e["kind"] for e in news.payload["events"]] == ["DamageTaken", "WoundedNow"]
    # The odds are the engine's, for the first roll of this wound, at the next night.
    assert news.payload["wounded"] == {"recover": engine.WOUND_RECOVERY[0], "dies": False, "tonight": False}
    info = await get_game(db, game_id)
    en = text_of(render_outgoing(news, info, locale="en-US"))
    print(en)
    assert "grail number, identifications and vote still count" in en
    assert "At your turn next night you roll: 50% you recover (HP 1), 50% you stay wounded." in en
    assert "`/orders clear: nothing tonight`" in en
    zh = text_of(render_outgoing(news, info, locale="zh-CN"))
    print(zh)
    assert "圣杯数字、指认和投票照常有效" in zh and "下一夜轮到你时掷伤势骰：50%恢复" in zh
    assert "`/我的指令 清除: 今夜不行动`" in zh


async def test_a_wounded_players_reminders_carry_the_odds_and_the_command(db: Database, clock) -> None:
    game_id = await started(db, 6, day_seconds=DAY, dusk_seconds=DAY, reminder_lead_seconds=LEAD, early_advance=False)
    await advance_phase(db, game_id)
    await set_hp(db, game_id, 2, 0, wound_rolls=1)  # its second roll comes tonight
    await Dispatcher(db, MemorySender()).drain()
    clock.advance(DAY - LEAD)
    assert (await run_due(db)).reminded == [game_id]
    private = {m.payload["seat"]: m for m in await claim_due_messages(db, limit=100) if m.recipient_kind == "user"}
    assert private[2].payload["wounded"] == {"recover": engine.WOUND_RECOVERY[1], "dies": True, "tonight": True}
    assert all("wounded" not in m.payload for seat, m in private.items() if seat != 2)
    info = await get_game(db, game_id)
    en = text_of(render_outgoing(private[2], info, locale="en-US"))
    print(en)
    assert "`/orders clear: nothing tonight`" in en
    assert "grail number, identifications and vote still count" in en
    assert "At your turn tonight you roll: 60% you recover (HP 1), 40% you die." in en
    zh = text_of(render_outgoing(private[2], info, locale="zh-CN"))
    print(zh)
    assert "今夜轮到你时掷伤势骰：60%恢复（生命值回到1），40%伤重死亡。" in zh and "`/我的指令 清除: 今夜不行动`" in zh


def test_wounded_then_a_failed_roll_in_one_night_reads_as_one_story() -> None:
    """Wounded before its turn, a player rolls the same night (R8): the report said both
    "你进入了受伤状态…" and "你仍处于受伤状态。" — the failed roll is told as the roll."""
    from bot.render.posts import private_embed
    from engine.events import private

    events = [
        private(2, "DamageTaken", amount=3, hp=0, max_hp=7, cause="night"),
        private(2, "WoundedNow"),
        private(2, "StillWounded"),
    ]
    for loc, still in (("en-US", "still wounded"), ("zh-CN", "仍处于受伤状态"), ("zh-TW", "仍處於受傷狀態")):
        text = private_embed(events, 3, loc, {}, "dusk", wounded={"recover": 60, "dies": True, "tonight": False}).description or ""
        print(text)
        assert still not in text
        assert ("60%" in text) and ("40%" in text)


# -- the end ---------------------------------------------------------------------------------
ADVICE = ("may still win", "Cleave is ready", "Next night", "next night", "仍可能获胜", "顺势斩已就绪", "下一夜", "今夜圣杯")


def test_the_final_steps_news_advises_no_round_to_come() -> None:
    from bot.render.posts import private_embed
    from engine.events import private

    events = [
        private(1, "GrailWon"),
        private(1, "CleaveReady", round=10),
        private(1, "GrappleHeld", target=3),
        private(1, "YouDiedBlow", amount=2),
    ]
    for loc in ("en-US", "zh-CN"):
        before = private_embed(events, 9, loc, {3: "carol"}, "dusk").description or ""
        after = private_embed(events, 9, loc, {3: "carol"}, "dusk", final=True).description or ""
        print(before, after, sep="\n--\n")
        assert any(a in before for a in ADVICE)
        assert not any(a in after for a in ADVICE), after
        assert "carol" in after  # the hold is still told, as the past
