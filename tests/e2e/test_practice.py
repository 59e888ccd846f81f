"""Practice games on the local Discord: one person against AI seats, in their DM.

Pat (English) starts one in the DM and plays it to its end through a restart of the bot;
Mei (Chinese) starts one from a server channel and plays it to its end in her DM. Each
phase kind is explained once, the person gets the ending and the replay, nothing is
recorded. A second practice, a table of 5 or 16 and a practice for one whose DMs are
closed are refused in the person's language; ``/practice stop`` cancels one."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any

import pytest
from sqlalchemy import func, select

from bot.db.models import Game, GameRecord, SeatRecord
from bot.sandbox import play_reader as reader
from bot.sandbox.people import Reply
from bot.sandbox.play_table import GameClock, Tavern
from bot.sandbox.practice import Practiser
from discord_emulator import Message
from tests.e2e.conftest import error_text, is_localized, run


@dataclass
class Game_:
    over: bool
    phases: list[tuple[str, int]]
    dms: list[Message]
    replay: Reply | None
    refusals: list[tuple[str, str, str]]
    channel_posts: int = 0  # the bot's non-ephemeral posts in the server channel


@dataclass
class Practice:
    games: dict[str, Game_] = field(default_factory=dict)
    replies: dict[str, Reply] = field(default_factory=dict)
    records: int = 0
    seat_records: int = 0
    statuses: dict[int, tuple[str | None, int | None]] = field(default_factory=dict)
    stopped_dm: list[str] = field(default_factory=list)  # what the stopped game's person read
    starts: int = 0
    server_errors: list[BaseException] = field(default_factory=list)


async def _replay(p: Practiser) -> Reply | None:
    ending = next((m for m in reversed(p.tavern.dms(p.user)) if any(c.startswith("wh:replay:") for c in m.custom_ids())), None)
    if ending is None:
        return None
    return await p.player.click(ending, next(c for c in ending.custom_ids() if c.startswith("wh:replay:")))


async def scenario() -> Practice:
    out = Practice()
    async with Tavern(clock=GameClock(1.0), seed="practice") as tavern:
        assert tavern.guild is not None
        general = next(c for c in tavern.guild.channels.values() if c.name == "general")
        people = {}
        for name, locale, closed in (("pat", "en-US", False), ("mei", "zh-CN", False), ("shut", "en-US", True), ("sam", "en-US", False)):
            user = tavern.emu.create_user(name, locale=locale, dms_closed=closed)
            tavern.emu.add_member(tavern.guild, user)
            people[name] = Practiser(tavern, user, seed="practice")
        pat, mei, shut, sam = people["pat"], people["mei"], people["shut"], people["sam"]

        out.replies["five"] = await pat.start({"players": 5})
        out.replies["sixteen_zh"] = await mei.start({"players": 16})
        out.replies["closed"] = await shut.start({"players": 6}, channel=general)
        out.replies["pat"] = await pat.start({"players": 6})
        out.replies["again"] = await pat.start({"players": 7})
        out.replies["mei"] = await mei.start({"players": 7}, channel=general)
        out.replies["sam"] = await sam.start()
        out.replies["sam_stop"] = await sam.player.command("practice stop", in_dm=True)
        out.replies["sam_stop_again"] = await sam.player.command("practice stop", in_dm=True)

        async def pat_plays() -> bool:
            if not await pat.play(stop_after=("dusk", 1)):
                await tavern.drained()
                await tavern.restart_bot()
            return await pat.play()

        over = await asyncio.gather(pat_plays(), mei.play())
        await tavern.drained()
        for (name, p), done in zip((("pat", pat), ("mei", mei)), over, strict=True):
            replay = await _replay(p)
            posts = [m for m in tavern.public(general) if m.author.bot]
            out.games[name] = Game_(done, list(p.phases), list(tavern.dms(p.user)), replay, list(p.player.stats.refusals), len(posts))
        out.replies["pat_after"] = await pat.start({"players": 6})
        async with tavern.db.read() as s:
            out.records = int((await s.execute(select(func.count()).select_from(GameRecord))).scalar_one())
            out.seat_records = int((await s.execute(select(func.count()).select_from(SeatRecord))).scalar_one())
            out.statuses = {g.id: (g.status, g.guild_id) for g in (await s.scalars(select(Game))).all()}
        out.stopped_dm = [reader.message_text(m) for m in tavern.dms(sam.user)]
        out.starts = tavern.starts
        out.server_errors = list(tavern.emu.ctx.recorder.errors) if hasattr(tavern.emu.ctx.recorder, "errors") else []
    return out


@pytest.fixture(scope="module")
def practice() -> Practice:
    return run(scenario())


def _game_id(reply: Reply) -> int:
    got = [g for line in reply.text.splitlines() if (g := reader.match("practice.started", line))]
    return int(got[0]["game"])


def test_each_practice_is_played_to_its_end_in_the_dm(practice: Practice) -> None:
    assert practice.starts == 2  # pat's game went on through a restart
    for name in ("pat", "mei"):
        game = practice.games[name]
        assert game.over, (name, game.phases)
        assert game.phases[:3] == [("day", 1), ("dusk", 1), ("morning", 1)]
        played = [r for r in game.refusals if not r[1].startswith("/practice")]  # those asked for are tested below
        assert not played, played
        assert any(reader.is_game_over(m) for m in game.dms) and any(reader.is_ending(m) for m in game.dms)
    assert practice.games["mei"].channel_posts == 0  # started from a server: nothing posted there


def test_each_phase_kind_is_explained_once_in_the_players_language(practice: Practice) -> None:
    for name, locale in (("pat", "en-US"), ("mei", "zh-CN")):
        titles = [str(e.get("title") or "") for m in practice.games[name].dms for e in m.embeds]
        explained = [x for x in titles if reader.match("practice.explain_title", x, [locale])]
        assert len(explained) == 3, explained
        texts = [str(e.get("description") or "") for m in practice.games[name].dms for e in m.embeds]
        for phase in ("day", "dusk", "morning"):
            assert texts.count(reader.text_of(f"practice.explain_{phase}", locale)) == 1


def test_each_phase_opens_with_one_message_the_persons_prompt(practice: Practice) -> None:
    """The practice's channel is the person's DM: each phase the person plays opens there
    with their prompt (what to send, the controls), not with a phase post saying it
    again; the post comes only for a phase they have no prompt for (dead)."""
    for name in ("pat", "mei"):
        game = practice.games[name]
        posts = [m for m in game.dms if any(reader.match(f"post.{p}", line) for p in ("day", "dusk", "morning") for line in reader.lines_of(m))]
        prompts = [m for m in game.dms if reader.phase_post(m) is not None and m not in posts]
        by_prompt, by_post = [reader.phase_post(m) for m in prompts], [reader.phase_post(m) for m in posts]
        assert by_prompt[:3] == [("day", 1), ("dusk", 1), ("morning", 1)], name  # the person alive: prompts
        assert sorted(by_prompt + by_post) == sorted(game.phases), (name, by_prompt, by_post)  # each phase once
        assert all("/settings prompts" not in reader.message_text(m) for m in prompts)  # a practice prompts its person always


def test_the_person_gets_the_replay(practice: Practice) -> None:
    for name in ("pat", "mei"):
        replay = practice.games[name].replay
        assert replay is not None and not replay.error, replay and replay.text
        assert any(m.attachments for m in replay.messages)


def test_nothing_is_recorded(practice: Practice) -> None:
    assert practice.records == 0 and practice.seat_records == 0
    assert all(guild is None for _, guild in practice.statuses.values())
    finished = sorted(status for status, _ in practice.statuses.values())
    assert finished == ["cancelled", "over", "over", "running"], practice.statuses


def test_one_practice_at_a_time_and_stop(practice: Practice) -> None:
    r = practice.replies
    assert not r["pat"].error and not r["mei"].error and not r["sam"].error
    assert all(m.ephemeral for m in r["mei"].messages)  # asked in a server channel: answered to her alone
    assert r["again"].error and is_localized(error_text(r["again"].messages), "svc.practice_running", "en-US")
    assert practice.statuses[_game_id(r["sam"])][0] == "cancelled"
    assert not r["sam_stop"].error and reader.match("practice.stopped", r["sam_stop"].text.strip())
    assert r["sam_stop_again"].error and is_localized(error_text(r["sam_stop_again"].messages), "svc.practice_none", "en-US")
    assert not r["pat_after"].error  # the game over, a new one may start
    stopped = reader.text_of("practice.stopped_post", "en-US").format(game=_game_id(r["sam"]))
    assert stopped in practice.stopped_dm and any(reader.match("post.seed", x) for x in practice.stopped_dm), practice.stopped_dm


@pytest.mark.parametrize(("reply", "key", "locale"), [
    ("five", "svc.practice_players", "en-US"),
    ("sixteen_zh", "svc.practice_players", "zh-CN"),
    ("closed", "practice.dms_closed", "en-US"),
])  # fmt: skip
def test_bad_input_is_refused_in_the_persons_language(practice: Practice, reply: str, key: str, locale: str) -> None:
    got: Any = practice.replies[reply]
    assert got.error and all(m.ephemeral for m in got.messages)
    assert is_localized(error_text(got.messages), key, locale), error_text(got.messages)
