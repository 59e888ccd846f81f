"""Phase prompts over the local Discord: each living player gets one private prompt per
phase, after the phase's post in the channel, and its controls work (the grail form, the
Dusk's panel, the vote menu); none for a player who turned them off, none for an AI seat;
a wounded player's prompt offers only what counts; a restart between the phase's step
and the delivery delivers each prompt once."""

from __future__ import annotations

from typing import Any

from bot.core.rules import state_of
from bot.core.views import player_view
from bot.db import repositories as repo
from bot.db.session import Database
from bot.discord.client import WolfBot
from bot.features.lobby.games import get_game
from discord_emulator import Message, User
from discord_emulator.state import iter_components
from tests.bot.conftest import Table, reply_text, start_bot, started_game
from tests.service.helpers import apply_state


def prompts(table: Table, user: User, marker: str) -> list[Message]:
    """The messages in ``user``'s DMs drawn with a control whose id starts with
    ``marker`` (one phase's prompt), as sent or as a control has redrawn them since."""
    return [
        m
        for m in table.emu.dms(user)
        if any(
            c.startswith(marker) for c in _ids([m.components, *(r.components for r in m.revisions)])
        )
    ]


def _ids(drawings: list[list[dict[str, Any]]]) -> list[str]:
    return [c["custom_id"] for rows in drawings for c in iter_components(rows) if "custom_id" in c]


async def sent_of(table: Table, user: User, game_id: int) -> dict[str, Any]:
    return (await player_view(table.db, user.id, game_id)).sent


async def wound(table: Table, game_id: int, user: User) -> None:
    """The seat ``user`` holds at HP 0 (as if hit), before the phase closes."""
    async with table.db.transaction() as s:
        game = await repo.get_game(s, game_id)
        seat = next(p.seat for p in await repo.game_players(s, game_id) if p.user_id == user.id)
        state = state_of(game)
        state.player(seat).hp = 0
        apply_state(game, state)


async def test_a_prompt_for_each_phase_whose_controls_work(table: Table):
    game_id = await started_game(table)
    alice, bob, carol, dave = table.players[:4]
    seated = table.players[:6]
    post = next(
        m
        for m in table.emu.channel_messages(table.channel, include_ephemeral=False)
        if "Day 1" in "".join(table.texts([m]))
    )
    # Day: one prompt each, after the channel's post, with the grail button; none for grace.
    day = {u.username: prompts(table, u, f"wh:grail:{game_id}:1") for u in table.players}
    assert [len(day[u.username]) for u in seated] == [1] * 6 and day["grace"] == []
    assert all(day[u.username][0].id > post.id for u in seated)
    assert "<t:" in table.texts(day["bob"])[0] and "Day 1" in table.texts(day["bob"])[0]
    assert "白天" in table.texts(day["alice"])[0]  # in the reader's language
    opener = await table.emu.click(bob, day["bob"][0], f"wh:grail:{game_id}:1")
    await table.emu.wait_for(lambda: opener.modal, timeout=5)
    field = opener.modal["components"][0]["components"][0]["custom_id"]
    sent = await (await table.emu.submit_modal(bob, opener, {field: "77"})).wait(10)
    assert sent.rejected == []
    assert (await sent_of(table, bob, game_id))["grail"]["number"] == 77
    # Dusk: the order panel; carol is wounded, so hers has no attack and no skill.
    await wound(table, game_id, carol)
    await table.run(table.mod, "phase advance")
    await table.delivered()
    (dusk_bob,) = prompts(table, bob, f"wh:idp:{game_id}:1")
    (dusk_carol,) = prompts(table, carol, f"wh:idp:{game_id}:1")
    assert (
        f"wh:atk:{game_id}:1" in dusk_bob.custom_ids()
        and f"wh:clr:{game_id}:1:pass" in dusk_bob.custom_ids()
    )
    assert not [c for c in dusk_carol.custom_ids() if c.startswith(("wh:atk:", "wh:skill:"))]
    carol_text = table.texts([dusk_carol])[0]
    assert (
        "you are wounded" in carol_text
        and "% you recover" in carol_text
        and "Nothing tonight" in carol_text
    )
    passed = await (await table.emu.click(carol, dusk_carol, f"wh:clr:{game_id}:1:pass")).wait(10)
    assert passed.rejected == [] and "orders" in await sent_of(table, carol, game_id)
    info = await get_game(table.db, game_id)
    target = next(p.seat for p in info.players if p.user_id == dave.id)
    attacked = await (
        await table.emu.select(bob, dusk_bob, f"wh:atk:{game_id}:1", [str(target)])
    ).wait(10)
    assert attacked.rejected == []
    assert "attack" in str((await sent_of(table, bob, game_id))["orders"])
    # Morning: the vote menu.
    await table.run(table.mod, "phase advance")
    await table.delivered()
    (morning,) = prompts(table, alice, f"wh:vote:{game_id}:1")
    living = [
        p
        for p in (await get_game(table.db, game_id)).players
        if p.alive and p.user_id != alice.id
    ]
    voted = await (
        await table.emu.select(alice, morning, f"wh:vote:{game_id}:1", [str(living[0].seat)])
    ).wait(10)
    assert voted.rejected == [] and (await sent_of(table, alice, game_id))["vote"]


async def test_none_for_one_who_turned_them_off_nor_for_an_ai_seat(table: Table):
    alice, bob = table.players[:2]
    off = await table.run(alice, "settings prompts", {"state": "off"})
    assert "不再收到阶段提示" in reply_text(off)  # alice reads Chinese
    assert "off" in reply_text(await table.run(bob, "settings prompts"))  # not chosen: told how
    game_id = await started_game(table, 4, ai_seats=2)
    got = [u.username for u in table.players if prompts(table, u, f"wh:grail:{game_id}:1")]
    assert got == ["bob", "carol", "dave"]
    assert len((await get_game(table.db, game_id)).players) == 6
    on = await table.run(alice, "settings prompts", {"state": "on"})
    assert "从下一个阶段起" in reply_text(on)
    await table.run(table.mod, "phase advance")
    await table.delivered()
    assert [u.username for u in table.players if prompts(table, u, f"wh:idp:{game_id}:1")] == [
        "alice",
        "bob",
        "carol",
        "dave",
    ]


async def test_a_restart_between_the_step_and_the_delivery_delivers_each_prompt_once(table: Table):
    game_id = await started_game(table)
    await table.stop_dispatcher()
    await table.run(table.mod, "phase advance")  # the Dusk's post and prompts written, not sent
    assert not prompts(table, table.players[1], f"wh:idp:{game_id}:1")
    await table.bot.close()
    fresh = WolfBot(table.bot.config, db=Database(table.bot.config.database_url, clock=table.clock))
    task = await start_bot(fresh, table.emu.token)
    table.bot = fresh
    try:
        await table.delivered()
        post = next(
            m
            for m in table.emu.channel_messages(table.channel, include_ephemeral=False)
            if "Dusk 1" in "".join(table.texts([m]))
        )
        for u in table.players[:6]:
            (prompt,) = prompts(table, u, f"wh:idp:{game_id}:1")
            assert prompt.id > post.id
    finally:
        task.cancel()
