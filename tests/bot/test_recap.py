"""/recap and the newcomer's catch-up, over the local Discord: every line a player reads
in them is a line the channel showed or one of their seat's own DMs; the messages keep
within Discord's limits (the emulator refuses any that do not); bad input gets a clear,
private reply in the reader's language."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select

from bot.db.models import OutboxMessage
from bot.features.lobby.games import get_game, live_games
from bot.features.recap.look import MINE
from tests.bot.conftest import Table, reply_text, started_game


def _lines(texts: list[str]) -> set[str]:
    return {line.strip() for text in texts for line in text.splitlines() if line.strip()}


def _answers(answer: Any) -> list[Any]:
    """An interaction's answer, each message once: after a "thinking…" (an answer slower
    than the first response's wait) the first followup is the original response."""
    return list({m.id: m for m in [answer.message, *answer.followups] if m is not None}.values())


def _embed_lines(messages: list[Any]) -> list[str]:
    """The lines of the embeds' descriptions (a recap's events), titles left out."""
    return [line for m in messages for e in m.embeds for line in (e.get("description") or "").splitlines() if line.strip()]


async def _play(table: Table, phases: int) -> None:
    """Some phases, with everyone sending at Day (the rest left to the deadline)."""
    for n in range(phases):
        info = await get_game(table.db, (await live_games(table.db))[0].id)
        if info.phase == "day":
            for i, p in enumerate(table.players[:6]):
                seat = next(s for s in info.players if s.user_id == p.id)
                if seat.alive:
                    await table.run(p, "grail", {"number": 10 + (13 * i + 29 * n) % 90}, dm=True)
        await table.run(table.mod, "phase advance")
        await table.delivered()


async def test_recap_shows_the_table_and_ones_own_news_and_nothing_else(table: Table):
    game_id = await started_game(table)
    await _play(table, 4)  # round 1 and round 2's Day
    public = _lines(table.texts(table.emu.channel_messages(table.channel, include_ephemeral=False)))
    public_counts = set()
    for p in table.players[:6]:
        answer = await table.run(p, "recap", {"since_round": 1}, dm=True)
        messages = _answers(answer)
        text = reply_text(answer)
        assert f"#{game_id}" in text or f"第{game_id}局" in text, text
        own = _lines(table.texts([m for m in table.emu.dms(p) if m.interaction_id is None]))
        lines = _embed_lines(messages)
        assert lines, text
        for line in lines:
            if line.startswith(MINE):
                assert line.removeprefix(MINE) in own, (p.username, line)
            elif p.locale == "en-US":  # the game's language: word for word the channel's
                assert line in public, (p.username, line)
        # A reader of another language reads the same public lines, in theirs.
        public_counts.add(sum(not line.startswith(MINE) for line in lines))
    assert len(public_counts) == 1, public_counts
    # In the channel, privately.
    answer = await table.run(table.players[1], "recap")
    assert answer.ephemeral and "recap from round" in reply_text(answer)


async def test_recap_refuses_bad_input_in_the_readers_language(table: Table):
    await started_game(table)
    alice, bob, grace = table.players[0], table.players[1], table.players[6]
    before = await get_game(table.db, (await live_games(table.db))[0].id)
    refused = await table.run(bob, "recap", {"since_round": 5}, dm=True)
    assert refused.ephemeral and "Round 5 is not one this game has had: choose a round from 1 to 1." in reply_text(refused)
    assert "这局游戏没有第5轮" in reply_text(await table.run(alice, "recap", {"since_round": 5}, dm=True))
    assert "not in any game" in reply_text(await table.run(grace, "recap", dm=True))
    # Nothing changed, nothing was sent.
    after = await get_game(table.db, before.id)
    assert after.version == before.version


async def test_the_newcomer_gets_the_seats_history_by_dm(table: Table):
    game_id = await started_game(table)
    await _play(table, 7)  # to round 3's Day: grails won by several
    info = await get_game(table.db, game_id)
    # A living seat that has had private news (a grail won, say), read in the game's
    # language, which the newcomer's DMs are written in (the bot has not seen her yet).
    async with table.db.read() as s:
        told = set((await s.execute(select(OutboxMessage.recipient_id).where(OutboxMessage.recipient_kind == "user", OutboxMessage.payload["type"].as_string() == "events"))).scalars())
    carol = next(p for p in table.players[:6] if p.id in told and p.locale == "en-US" and next(s for s in info.players if s.user_id == p.id).alive)
    heidi = table.emu.create_user("heidi")
    table.emu.add_member(table.guild, heidi)
    await table.run(table.mod, "mod replace", {"player": carol.username, "newcomer": heidi})
    await table.delivered()
    dms = [m for m in table.emu.dms(heidi) if m.interaction_id is None]
    head = "everything it has been told so far"
    texts = table.texts(dms)
    assert any(head in x for x in texts), texts
    public = _lines(table.texts(table.emu.channel_messages(table.channel, include_ephemeral=False)))
    carols = _lines(table.texts([m for m in table.emu.dms(carol) if m.interaction_id is None]))
    catch_up = [m for m in dms if head in (m.content or "")]
    lines = _embed_lines(catch_up)
    assert lines
    for line in lines:
        if line.startswith(MINE):
            assert line.removeprefix(MINE) in carols, line
        else:
            assert line in public, line
    assert any(line.startswith(MINE) for line in lines), "the seat had private news"
    # The newcomer can ask for it again.
    again = await table.run(heidi, "recap", {"since_round": 1}, dm=True)
    assert set(_embed_lines(_answers(again))) == set(lines)


def test_long_recaps_keep_discords_limits_without_cutting_a_line():
    """A step whose lines outgrow an embed goes on in the next; messages hold at most 10
    embeds and 6,000 characters; a page of /recap ends before a round that does not fit
    whole and names the round to go on from; a catch-up DM keeps what fits and counts
    the rest."""
    import discord

    from bot.features.recap.cog import MESSAGES_PER_RECAP, page
    from bot.features.recap.look import _descriptions, fit_one, messages

    lines = [f"line {i} " + "x" * 90 for i in range(120)]
    parts = _descriptions(lines)
    assert len(parts) > 1 and all(len(p) <= 4096 for p in parts)
    assert [x for p in parts for x in p.split("\n")] == lines  # no line cut, none lost

    tagged = [(1 + i // 3, discord.Embed(title=f"Round {1 + i // 3}", description="y" * 1500)) for i in range(30)]
    chunks = messages([e for _, e in tagged], 300)
    assert all(len(c) <= 10 and sum(len(e) for e in c) + (300 if i == 0 else 0) <= 6000 for i, c in enumerate(chunks))
    shown, next_round = page(tagged, 300)
    assert len(shown) <= MESSAGES_PER_RECAP and next_round is not None
    shown_embeds = [e for c in shown for e in c]
    assert all(int(str(e.title).split()[1]) < next_round for e in shown_embeds)  # whole rounds only
    assert int(str(tagged[len(shown_embeds)][1].title).split()[1]) == next_round  # the next page starts there
    kept, left = fit_one([e for _, e in tagged], 500)
    assert kept and left == len(tagged) - len(kept) and sum(len(e) for e in kept) + 500 <= 6000
