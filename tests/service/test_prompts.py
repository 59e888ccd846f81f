"""Phase prompts: written with the step that opens a phase, one per living human seat that
wants them (the user's own choice over the game's setting), never to an AI seat, after
the phase's public post, which the outbox delivers first whatever its concurrency."""

from __future__ import annotations

import asyncio

from sqlalchemy import select

from bot.core.advance import advance_phase
from bot.core.deadlines import run_due
from bot.core.dispatch import Dispatcher, MemorySender
from bot.core.outbox import (
    OutgoingMessage,
    claim_due_messages,
    mark_delivered,
    mark_failed,
    retry_held_now,
)
from bot.core.rules import state_of
from bot.db import repositories as repo
from bot.db.models import OutboxMessage
from bot.db.session import Database
from bot.features.lobby.games import get_game, join_game, start_game
from bot.features.play.commands import SendGrail, handle
from bot.features.prompts.prompts import prompts_of, set_prompts
from bot.render.outgoing import render_outgoing
from tests.bot.test_outbound import text_of
from tests.service.helpers import apply_state, lobby, play_to_end, sees, started, user


async def rows(db: Database, game_id: int, kind: str) -> list[OutboxMessage]:
    async with db.read() as s:
        found = await s.execute(
            select(OutboxMessage).where(OutboxMessage.game_id == game_id).order_by(OutboxMessage.id)
        )
        return [r for r in found.scalars() if r.payload["type"] == kind]


async def test_each_living_human_gets_one_prompt_per_phase_after_the_phase_post(
    db: Database,
) -> None:
    game_id = await started(db, 6)
    prompts = await rows(db, game_id, "prompt")
    (post,) = await rows(db, game_id, "phase_started")
    assert sorted(p.recipient_id for p in prompts) == [user(i).id for i in range(1, 7)]
    assert all(p.follows == post.idempotency_key and p.id > post.id for p in prompts)
    assert {(p.payload["round"], p.payload["phase"]) for p in prompts} == {(1, "day")}
    assert all(p.payload["sheet"]["seat"] == p.payload["seat"] for p in prompts)
    await Dispatcher(db, MemorySender()).drain()
    await advance_phase(db, game_id)
    dusk = [p for p in await rows(db, game_id, "prompt") if p.payload["phase"] == "dusk"]
    assert len(dusk) == 6 and len({p.recipient_id for p in dusk}) == 6


async def test_no_prompt_for_an_ai_seat(db: Database) -> None:
    game_id = await lobby(db, 4, ai_seats=2)
    await start_game(db, game_id)
    prompts = await rows(db, game_id, "prompt")
    assert sorted(p.recipient_id for p in prompts) == [user(i).id for i in range(1, 5)]
    assert all(p.recipient_kind == "user" for p in prompts)


async def test_the_users_own_choice_wins_over_the_games_setting(db: Database) -> None:
    assert await prompts_of(db, user(1).id) is None
    assert await set_prompts(db, user(1).id, "Player1", "en-US", False) is True
    assert await set_prompts(db, user(1).id, "Player1", "en-US", False) is False  # already so
    assert (
        await set_prompts(db, user(7).id, "Player7", None, True) is True
    )  # a user never seen before
    assert await prompts_of(db, user(1).id) is False and await prompts_of(db, user(7).id) is True
    on = await started(db, 6)
    assert user(1).id not in {p.recipient_id for p in await rows(db, on, "prompt")}
    off = await lobby(db, 6, channel=2001, first=7, prompts=False)  # Player7 has chosen: on
    await start_game(db, off)
    assert [p.recipient_id for p in await rows(db, off, "prompt")] == [user(7).id]


async def test_a_departed_seat_gets_no_prompt(db: Database) -> None:
    game_id = await started(db, 6)
    async with db.transaction() as s:
        game = await repo.get_game(s, game_id)
        state = state_of(game)
        state.player(3).alive = False
        apply_state(game, state)
    await advance_phase(db, game_id)
    dusk = [
        p.recipient_id for p in await rows(db, game_id, "prompt") if p.payload["phase"] == "dusk"
    ]
    assert user(3).id not in dusk and len(dusk) == 5


async def test_a_wounded_player_is_prompted_only_for_what_counts(db: Database) -> None:
    game_id = await started(db, 6)
    async with db.transaction() as s:
        game = await repo.get_game(s, game_id)
        state = state_of(game)
        state.player(2).hp = 0
        apply_state(game, state)
    await Dispatcher(db, MemorySender()).drain()
    await advance_phase(db, game_id)
    dusk = {
        p.payload["seat"]: p
        for p in await rows(db, game_id, "prompt")
        if p.payload["phase"] == "dusk"
    }
    assert dusk[2].payload["wounded"]["tonight"] is True and "wounded" not in dusk[1].payload
    sender = MemorySender()
    await Dispatcher(db, sender).drain()
    info = await get_game(db, game_id)
    by_user = {m.recipient_id: m for m in sender.delivered if m.payload["type"] == "prompt"}
    wounded, healthy = (
        render_outgoing(by_user[user(2).id], info),
        render_outgoing(by_user[user(1).id], info),
    )
    ids = lambda r: [getattr(c, "custom_id", "") for c in r.view.children]  # noqa: E731
    assert not any(i.startswith(("wh:atk:", "wh:skill:")) for i in ids(wounded))
    assert any(i.startswith("wh:idp:") for i in ids(wounded)) and any(
        i.endswith(":pass") for i in ids(wounded)
    )
    assert any(i.startswith("wh:atk:") for i in ids(healthy))
    text = text_of(wounded)
    assert "you are wounded" in text and "identifications" in text and "% you recover" in text
    assert "wounded" not in text_of(healthy)


async def test_the_prompts_wait_for_the_phase_post_even_when_it_fails(db: Database) -> None:
    game_id = await started(db, 6)
    (post,) = await rows(db, game_id, "phase_started")
    first = await claim_due_messages(db, limit=100)
    assert post.idempotency_key in {m.key for m in first}
    assert not [m for m in first if m.payload["type"] == "prompt"]  # not in the post's batch
    for m in first:
        if m.key != post.idempotency_key:
            await mark_delivered(db, m.key)
    await mark_failed(db, post.idempotency_key, "the channel refused it")  # backing off
    assert await claim_due_messages(db, limit=100) == []  # the prompts wait behind it
    await retry_held_now(db, "channel", [post.recipient_id])  # the channel takes posts again
    sender = MemorySender()
    await Dispatcher(db, sender).drain()
    kinds = sender.types()
    assert kinds[0] == "phase_started" and kinds[1:] == ["prompt"] * 6


class SlowChannel(MemorySender):
    """A sender whose channel posts take a few turns of the event loop (a real post is a
    request): while one is under way, the dispatcher's other lanes run."""

    async def send(self, message: OutgoingMessage) -> int:
        if message.recipient_kind == "channel":
            for _ in range(20):
                await asyncio.sleep(0)
        return await super().send(message)


async def test_a_concurrent_dispatcher_still_sends_the_post_first(db: Database) -> None:
    await started(db, 8)
    sender = SlowChannel()
    await Dispatcher(db, sender, concurrency=8).drain()
    kinds = sender.types()
    assert kinds.count("prompt") == 8
    assert kinds.index("phase_started") < kinds.index("prompt")


async def test_a_player_who_has_sent_gets_no_reminder(db: Database, clock) -> None:
    game_id = await started(db, 6, day_seconds=600, reminder_lead_seconds=120, early_advance=False)
    await Dispatcher(db, MemorySender()).drain()
    await handle(db, SendGrail(50), user(1).id)
    clock.advance(600 - 120)
    assert (await run_due(db)).reminded == [game_id]
    reminded = {
        m.recipient_id
        for m in await claim_due_messages(db, limit=100)
        if m.recipient_kind == "user"
    }
    assert reminded == {user(i).id for i in range(2, 7)}


async def test_a_newcomers_first_game_has_a_tip_with_the_sheet_and_each_first_phase(
    db: Database,
) -> None:
    first = await started(db, 6, seed="first-game")
    await play_to_end(db, first)
    again = await lobby(db, 3, channel=2001, first=1)  # three who have played one game...
    for i in (7, 8, 9):  # ...and three newcomers
        await join_game(db, again, user(i), await sees(db, again, user(i)))
    await start_game(db, again)
    sheets = {r.recipient_id: r.payload.get("tip", False) for r in await rows(db, again, "sheet")}
    assert sheets == {user(i).id: i >= 7 for i in (1, 2, 3, 7, 8, 9)}
    await Dispatcher(db, MemorySender()).drain()
    for _ in range(3):  # Day 1, Dusk 1, Morning 1, then Day 2
        await advance_phase(db, again)
    tipped = {
        (r.payload["round"], r.payload["phase"], r.recipient_id)
        for r in await rows(db, again, "prompt")
        if r.payload.get("tip")
    }
    living = {
        r.recipient_id
        for r in await rows(db, again, "prompt")
        if r.payload["round"] == 1 and r.payload["phase"] == "morning"
    }
    assert {(r, p) for r, p, _ in tipped} == {
        (1, "day"),
        (1, "dusk"),
        (1, "morning"),
    }  # not in round 2
    assert {u for _, p, u in tipped if p == "morning"} == living & {user(i).id for i in (7, 8, 9)}
    assert {u for _, _, u in tipped} <= {user(i).id for i in (7, 8, 9)}
