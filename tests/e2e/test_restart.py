"""The bot stopped and started again mid-game on the same database (a deploy, a crash):
nothing the players sent is lost, nothing is sent twice, old buttons still work.

Three stops: (1) in the middle of a Day, after half the players sent their number;
(2) in the middle of a Dusk, between pieces of the players' orders; (3) a crash right
after a phase advance, while the outbox is being delivered — the new process takes over
the messages the dead one had leased once their lease (60 s of the bot's clock, skipped
ahead here) runs out. The first two are deploys (the bot finishes the pass in hand, then
closes); the third kills it mid-pass. Then the game is played to its end."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

import pytest

from bot.sandbox import play_reader as reader
from bot.sandbox.play_game import NEXT_PHASE, GameOptions, TableGame
from bot.sandbox.play_table import GameClock, TableSpec, Tavern
from discord_emulator import Message
from tests.e2e.conftest import run


@dataclass
class Restarted:
    public: list[Message]
    dms: dict[str, list[Message]]
    sends: list[dict[str, Any]]
    starts: int
    status_after_restart: str
    sent_before_restart: dict[str, str]
    shown_after_restart: dict[str, str]
    old_button: str
    over: bool
    failed: int
    refusals: list[tuple[str, str, str]]
    server_errors: list[BaseException]
    identified: set[str]
    retried: int
    inbox: dict[str, list[Message]]


async def leased_twice(tavern: Tavern) -> int:
    """Outbox messages claimed by more than one process (the test's god view)."""
    from sqlalchemy import func, select

    from bot.db.models import OutboxMessage

    async with tavern.db.read() as s:
        return int(
            (await s.execute(select(func.count()).where(OutboxMessage.attempts > 1))).scalar_one()
        )


async def scenario() -> Restarted:
    clock = GameClock(1.0)
    async with Tavern(clock=clock, seed="restart") as tavern:
        seating = tavern.seat_table(TableSpec(players=6, closed_dms=(4,)))
        game = TableGame(
            tavern, seating, GameOptions(day="1h", dusk="1h", morning="1h"), seed="restart"
        )
        await game.open()
        assert await game.next_phase(1, "day")
        players = game.players

        # (1) Half the table sends its grail number; the bot goes down and comes back.
        await game.play_phase(1, "day", players[:3])
        await tavern.restart_bot()
        await game.play_phase(1, "day", players[3:])
        status = await game.moderator.status()
        assert not (await game.moderator.advance()).error
        assert await game.next_phase(1, "dusk")

        # The "My orders" button on the Day 1 post was drawn by the first process.
        day_post = next(
            m for m in tavern.public(seating.channel) if reader.phase_post(m) == ("day", 1)
        )
        clicked = await players[0].click(
            day_post, next(c for c in day_post.custom_ids() if c.startswith("wh:open:"))
        )

        # (2) Dusk: half the table sends identifications and orders, restart, the rest send.
        await game.play_phase(1, "dusk", players[:3])
        sent_before = {p.name: (await p.command("orders")).text for p in players[:3] if p.alive}
        await tavern.restart_bot()
        shown_after = {p.name: (await p.command("orders")).text for p in players[:3] if p.alive}
        await game.play_phase(1, "dusk", players[3:])

        # (3) The night resolves; the bot crashes as soon as the first private news is out.
        news = {p.user.id for p in players}
        first = len(tavern.emu.messages)
        advanced = await game.moderator.advance()
        assert not advanced.error, advanced.text

        def a_news_dm() -> bool:
            return any(m.channel_id in dm_ids for m in tavern.emu.messages[first:])

        dm_ids = {tavern.emu.dm_channel(p.user).id for p in players if p.user.id in news}
        await tavern.emu.wait_for(a_news_dm, 10, "the first private news")
        await tavern.stop_bot(crash=True)
        clock.skip(61)  # the dead process's leases run out
        await tavern.start_bot()

        # Then to the end, as usual.
        round_no, phase, over = 1, "morning", False
        identified = {
            p.name
            for p in players
            if any(line.startswith(("/identify", "/指认", "select wh:idg")) for line in p.journal)
        }
        while round_no <= 30:
            if not await game.next_phase(round_no, phase):
                over = True
                break
            await game.play_phase(round_no, phase)
            phase = NEXT_PHASE[phase]
            round_no += phase == "day"
        await game.wait_post(
            lambda m: any(
                reader.match("post.seed", str(e.get("description") or "")) for e in m.embeds
            ),
            "the seed",
        )
        await tavern.drained()
        retried = await leased_twice(tavern)
        sends = [
            {
                "nonce": (r.json or {}).get("nonce") if isinstance(r.json, dict) else None,
                "status": r.status,
            }
            for r in tavern.emu.requests
            if r.route == "POST /channels/{channel_id}/messages"
        ]
        return Restarted(
            public=list(tavern.public(seating.channel)),
            dms={p.name: list(tavern.dms(p.user)) for p in players},
            sends=sends,
            starts=tavern.starts,
            status_after_restart=status.text,
            sent_before_restart=sent_before,
            shown_after_restart=shown_after,
            old_button=clicked.text if not clicked.error else "ERROR " + clicked.text,
            over=over,
            failed=game.stats.failed,
            refusals=game.stats.refusals,
            server_errors=list(tavern.emu.server_errors),
            identified=identified,
            retried=retried,
            inbox={p.name: list(p.inbox_messages) for p in players},
        )


@pytest.fixture(scope="module")
def restarted() -> Restarted:
    return run(scenario())


def test_the_game_survived_three_restarts_to_its_end(restarted: Restarted):
    assert restarted.starts == 4
    assert restarted.over
    assert restarted.failed == 0 and restarted.refusals == [] and restarted.server_errors == []


def test_numbers_sent_before_the_restart_still_count(restarted: Restarted):
    heads = [line.split(":")[0].strip() for line in restarted.status_after_restart.splitlines()]
    sent = next(
        reader.match("reply.status.sent", h) for h in heads if reader.match("reply.status.sent", h)
    )
    assert sent is not None and sent["done"] == sent["living"] == "6", (
        restarted.status_after_restart
    )


def test_orders_sent_before_the_restart_are_kept(restarted: Restarted):
    assert restarted.sent_before_restart
    assert restarted.sent_before_restart == restarted.shown_after_restart


def test_a_button_drawn_before_the_restart_still_works(restarted: Restarted):
    assert not restarted.old_button.startswith("ERROR"), restarted.old_button
    assert restarted.old_button


def test_nothing_was_posted_or_sent_twice(restarted: Restarted):
    nonces = Counter(s["nonce"] for s in restarted.sends if s["status"] == 200)
    twice = {n: c for n, c in nonces.items() if c > 1}
    assert not twice, twice
    # The channel as people read it: each phase opened once, each announcement once.
    texts = Counter(
        reader.message_text(m) for m in restarted.public if not (m.content or "").startswith("📬")
    )
    assert max(texts.values()) == 1, [t for t, c in texts.items() if c > 1]
    for name, dms in restarted.dms.items():
        sheets = [m for m in dms if reader.read_sheet(m)]
        assert len(sheets) <= 1, name


def night_one_answers(messages: list[Message]) -> int:
    """How many round-1 news messages carry an identification answer."""
    count = 0
    for m in messages:
        for e in m.embeds:
            title = reader.news_title(str(e.get("title") or ""))
            if (
                title
                and title["round"] == "1"
                and any(
                    f.kind == "IdentificationAnswered"
                    for f in reader.private_facts(Message(0, 0, None, m.author, embeds=[e]))
                )
            ):
                count += 1
    return count


def test_the_news_of_the_interrupted_night_reached_everyone_once(restarted: Restarted):
    # The stop came while the old process held undelivered messages; the new one took them over.
    assert restarted.retried >= 1
    assert len(restarted.identified) >= 4
    for name in restarted.identified:
        got = night_one_answers(restarted.dms[name]) if restarted.dms[name] else None
        if got is None:  # DMs closed: the news waits in the inbox, shown by /inbox
            got = night_one_answers(restarted.inbox[name])
        assert got == 1, name
    opened = [reader.phase_post(m) for m in restarted.public if reader.phase_post(m)]
    assert opened[:3] == [("day", 1), ("dusk", 1), ("morning", 1)]
