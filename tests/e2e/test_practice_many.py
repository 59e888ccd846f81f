"""Twenty people practise at once, each in their own DM: every game plays its first round
(Day, Dusk, Morning, each closed as soon as its person has sent) and each is its own (its
own DM, its own AI seats); then each person stops theirs. No interaction fails and
nothing is recorded. (A whole game to its end is tests/e2e/test_practice.py's.)"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

import pytest
from sqlalchemy import func, select

from bot.db.models import Game, GamePlayer, GameRecord, SeatRecord
from bot.sandbox import play_reader as reader
from bot.sandbox.people import Stats
from bot.sandbox.play_table import GameClock, Tavern
from bot.sandbox.practice import Practiser
from tests.e2e.conftest import run

PEOPLE = 20


@dataclass
class Many:
    stopped: list[bool]
    why: list[str]  # what a refused /practice stop said
    game_ids: list[int | None]
    games: list[tuple[int, str, int | None, int]]  # id, status, guild, channel
    humans: dict[int, int]  # game -> its human seats
    records: int
    stats: Stats


async def scenario() -> Many:
    stats = Stats()
    async with Tavern(clock=GameClock(1.0), seed="practice-many") as tavern:
        assert tavern.guild is not None
        people = []
        for i in range(PEOPLE):
            user = tavern.emu.create_user(f"p{i:02}", locale="zh-CN" if i % 2 else "en-US")
            tavern.emu.add_member(tavern.guild, user)
            people.append(Practiser(tavern, user, seed="many", stats=stats))
        replies = await asyncio.gather(*(p.start({"players": 6}) for i, p in enumerate(people)))
        assert not any(r.error for r in replies), [r.text for r in replies if r.error]
        await asyncio.gather(*(p.play(stop_after=("morning", 1), timeout=120) for p in people))
        # Day 2 opens once each Morning has closed: every game went through its first round.
        await asyncio.gather(*(p.wait_post(lambda m: reader.phase_post(m) == ("day", 2) or reader.is_game_over(m), "day 2", 120) for p in people))
        stopped = await asyncio.gather(*(p.player.command("practice stop", in_dm=True) for p in people))
        over = [not r.error for r in stopped]
        why = [r.text for r in stopped if r.error]
        await tavern.drained()
        async with tavern.db.read() as s:
            games = [(g.id, g.status, g.guild_id, g.channel_id) for g in (await s.scalars(select(Game))).all()]
            humans = dict(
                (await s.execute(select(GamePlayer.game_id, func.count()).where(GamePlayer.user_id.is_not(None)).group_by(GamePlayer.game_id))).all()
            )
            records = int((await s.execute(select(func.count()).select_from(GameRecord))).scalar_one())
            records += int((await s.execute(select(func.count()).select_from(SeatRecord))).scalar_one())
        return Many(list(over), why, [p.game_id for p in people], games, humans, records, stats)


@pytest.fixture(scope="module")
def many() -> Many:
    return run(scenario())


def test_twenty_practice_games_at_once_each_play_a_round_and_stop(many: Many) -> None:
    assert all(many.stopped), many.why
    assert len(set(many.game_ids)) == PEOPLE and len(many.games) == PEOPLE, (many.game_ids, many.games)
    assert all(status == "cancelled" and guild is None for _, status, guild, _ in many.games), many.games
    assert len({channel for *_, channel in many.games}) == PEOPLE  # each in its own DM
    assert set(many.humans.values()) == {1}
    assert many.stats.failed == 0 and not many.stats.refusals, many.stats.refusals
    assert many.records == 0
