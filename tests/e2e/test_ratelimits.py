"""A burst of commands under enforced rate limits: Discord's real per-route limits (5
messages per 5 s per channel, 50 requests per second in all), a channel bucket already
used up by "another client" when a phase closes, and fifteen players who all press at
once. Every interaction is still answered inside Discord's 3 seconds, every message
arrives exactly once, in order."""

from __future__ import annotations

import asyncio
from collections import Counter
from dataclasses import dataclass

import pytest

from bot.sandbox import play_reader as reader
from bot.sandbox.people import Stats
from bot.sandbox.play_game import GameOptions, TableGame
from bot.sandbox.play_table import GameClock, TableSpec, Tavern
from discord_emulator import Message
from tests.e2e.conftest import run

SEND = "POST /channels/{channel_id}/messages"


@dataclass
class Burst:
    stats: Stats
    burst_size: int
    limited: int  # 429s the emulator answered
    sends: Counter[str]
    public: list[Message]
    news_to: int
    server_errors: list[BaseException]


async def other_client(tavern: Tavern, channel_id: int) -> None:
    """Use up the channel's message bucket, again and again, until the bot's own send
    to it has been refused with a 429 (a bound of two minutes, not a timing claim)."""
    loop = asyncio.get_running_loop()
    give_up = loop.time() + 120
    def refused() -> bool:
        return any(r.params.get("channel_id") == str(channel_id) for r in tavern.emu.requests_for(SEND, status=429))

    while not refused() and loop.time() < give_up:
        tavern.emu.ratelimits.exhaust(SEND, channel_id=channel_id)
        await asyncio.sleep(0.2)


async def scenario() -> Burst:
    async with Tavern(clock=GameClock(1.0), seed="burst") as tavern:
        seating = tavern.seat_table(TableSpec(players=15, closed_dms=(4,)))
        game = TableGame(
            tavern, seating, GameOptions(day="1h", dusk="1h", morning="1h"), seed="burst"
        )
        await game.open()
        assert await game.next_phase(1, "day")
        # From here on, Discord's own limits (the lobby's fifteen edits would only be slow).
        tavern.emu.ratelimits.apply_realistic_preset()
        for p in game.players:
            await p.read()
        # Everyone at once: a grail number, a look at their sheet, the help, the rules.
        stats = Stats()
        jobs = []
        for i, p in enumerate(game.players):
            p.stats = stats
            jobs += [
                p.command("grail", {"number": 40 + i}),
                p.command("me"),
                p.command("help"),
                p.command("rules"),
            ]
        await asyncio.gather(*jobs)
        burst = len(jobs)
        # Another client keeps using up the game channel's message bucket until the
        # bot has run into it (however long a loaded machine takes to close the phase).
        hammer = asyncio.create_task(other_client(tavern, seating.channel.id))
        game.moderator.stats = stats
        assert not (await game.moderator.advance()).error
        assert await game.next_phase(1, "dusk")
        await hammer
        # The night, with everyone's orders, under the same limits.
        await game.play_phase(1, "dusk")
        assert await game.next_phase(1, "morning")
        await tavern.drained()
        nonces = Counter(
            str((r.json or {}).get("nonce"))
            for r in tavern.emu.requests_for(SEND, status=200)
            if isinstance(r.json, dict)
        )
        news_to = sum(
            1 for p in game.players
            if any(reader.news_title(str(e.get("title") or "")) for m in tavern.dms(p.user) for e in m.embeds)
        )  # fmt: skip
        return Burst(
            stats=stats,
            burst_size=burst,
            limited=len([r for r in tavern.emu.requests if r.status == 429]),
            sends=nonces,
            public=list(tavern.public(seating.channel)),
            news_to=news_to,
            server_errors=list(tavern.emu.server_errors),
        )


@pytest.fixture(scope="module")
def burst() -> Burst:
    return run(scenario())


def test_every_command_of_the_burst_was_answered_in_time(burst: Burst):
    assert burst.burst_size == 60
    assert burst.stats.failed == 0
    assert max(burst.stats.ack) < 3.0
    assert burst.stats.refusals == []


def test_the_limits_were_hit_and_waited_out(burst: Burst):
    assert burst.limited >= 1


def test_every_message_arrived_once_and_in_order(burst: Burst):
    assert max(burst.sends.values()) == 1
    opened = [reader.phase_post(m) for m in burst.public if reader.phase_post(m)]
    assert opened == [("day", 1), ("dusk", 1), ("morning", 1)]
    assert burst.news_to >= 10  # the night's answers reached (nearly) every player by DM
    assert burst.server_errors == []
