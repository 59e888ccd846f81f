"""Five scripted people and ten AI seats play a whole game on the local Discord, with a
restart of the bot in the middle: the AI seats are named as such in the lobby post, the
table and /game status; every AI turn is played once, stored with its phase and its
submissions are the ones resolved; no interaction fails; nothing secret reaches the
channel; the exported log verifies."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import pytest
from sqlalchemy import select

from bot.db.models import AiTurn, OutboxMessage, Submission
from bot.features.replay.export import export_game
from bot.features.replay.verify import verify_log
from bot.sandbox import play_reader as reader
from bot.sandbox.play_game import NEXT_PHASE, GameOptions, TableGame
from bot.sandbox.play_table import GameClock, TableSpec, Tavern
from tests.e2e.conftest import Played, run, snapshot
from tests.e2e.test_leaks import leaks

HUMANS, AI = 5, 10


@dataclass
class AiGame:
    played: Played
    over: bool
    lobby_text: str
    status_text: str
    fixed: Any  # the reply to changing ai_seats once dealt
    turns: list[tuple[int, str, int, str | None, bool]]  # round, phase, seat, outcome, played
    ai_submissions: set[tuple[int, str, int]]
    ai_rows: list[tuple[str, str]]  # (recipient kind, status) of the AI seats' mail
    verified: Any
    starts: int


async def scenario() -> AiGame:
    clock = GameClock(120.0)
    async with Tavern(clock=clock, seed="ai-seats") as tavern:
        seating = tavern.seat_table(TableSpec(players=HUMANS))
        options = GameOptions(
            day="10m", dusk="10m", morning="10m", advance="deadline", early_advance=True,
            ai_seats=AI, lean=True, phase_timeout=90.0,
        )  # fmt: skip
        game = TableGame(tavern, seating, options, seed="ai-seats")
        await game.open()
        lobby = next(
            m for m in tavern.public(seating.channel)
            if any(reader.match("reply.lobby.title", str(e.get("title") or "")) for e in m.embeds)
        )  # fmt: skip
        lobby_text = reader.message_text(lobby)
        round_no, phase, over = 1, "day", False
        status_text, fixed = "", None
        while round_no <= 30:
            if not await game.next_phase(round_no, phase):
                over = True
                break
            if (round_no, phase) == (1, "day"):
                status_text = (await game.moderator.status()).text
                fixed = await game.moderator.command("mod settings", {"ai_seats": 3})
            if (round_no, phase) == (2, "day"):
                await game.play_phase(round_no, phase, players=game.players)  # the people only
                await tavern.restart_bot()  # the AI's turns of this Day are in the database, not yet played
                await game.skip_to_ai_turns()
            else:
                await game.play_phase(round_no, phase)
            phase = NEXT_PHASE[phase]
            round_no += phase == "day"
        if over:
            await game.wait_post(reader.is_game_over, "the scoreboard")
            for p in game.players:
                await p.read()
        await tavern.drained()
        assert game.game_id is not None
        async with tavern.db.read() as s:
            turns = (await s.scalars(select(AiTurn).where(AiTurn.game_id == game.game_id))).all()
            subs = (await s.scalars(select(Submission).where(Submission.game_id == game.game_id, Submission.user_id == 0))).all()
            rows = (await s.execute(select(OutboxMessage.recipient_kind, OutboxMessage.status).where(OutboxMessage.recipient_kind == "seat"))).all()
        verified = verify_log(await export_game(tavern.db, game.game_id))
        return AiGame(
            snapshot(tavern, game), over, lobby_text, status_text, fixed,
            [(t.round, t.phase, t.seat, t.outcome, t.played_at is not None) for t in turns],
            {(r.round, r.phase, r.seat) for r in subs}, [tuple(r) for r in rows], verified, tavern.starts,
        )  # fmt: skip


@pytest.fixture(scope="module")
def ai_game() -> AiGame:
    return run(scenario())


def test_the_game_is_played_to_its_end_through_a_restart(ai_game: AiGame):
    assert ai_game.over and ai_game.starts == 2
    assert ai_game.played.stats.failed == 0, ai_game.played.stats.refusals
    assert not ai_game.played.server_errors
    assert ai_game.verified.ok, ai_game.verified


def test_the_ai_seats_are_named_as_such(ai_game: AiGame):
    for text in (ai_game.lobby_text, ai_game.status_text):
        assert len(re.findall(r"\d\.? 🤖 \S", text)) == AI, text
    table = next(m for m in ai_game.played.public if reader.phase_post(m) == ("day", 1))
    assert "🤖" in reader.message_text(table) or any("🤖" in reader.message_text(m) for m in ai_game.played.public[:6])


def test_the_ai_seats_are_fixed_once_dealt(ai_game: AiGame):
    reply = ai_game.fixed
    assert reply.error and reply.messages and all(m.ephemeral for m in reply.messages)
    assert "ai_seats is fixed once the game has started." in reply.text, reply.text


def test_every_ai_turn_is_played_once_and_stored_with_its_phase(ai_game: AiGame):
    turns = ai_game.turns
    assert len(turns) >= 3 * AI  # ten seats, a whole round at least
    assert all(played for *_, played in turns)
    assert len({(r, p, s) for r, p, s, *_ in turns}) == len(turns)
    assert not [t for t in turns if (t[3] or "").startswith("refused")]
    sent = {(r, p, s) for r, p, s, outcome, _ in turns if outcome == "sent"}
    assert sent and ai_game.ai_submissions == sent
    # The AI's private mail is kept for it, never sent to Discord.
    assert ai_game.ai_rows and {status for _, status in ai_game.ai_rows} == {"ai"}


def test_nothing_secret_reaches_the_channel(ai_game: AiGame):
    assert leaks(ai_game.played) == []


def test_the_demo_shows_ai_seats():
    from tests.e2e.test_demo import demo

    out = demo("--ai-seats", "4", "--seed", "demo-ai-1")
    assert "game over — winners:" in out and "(0 unanswered, 0 refused)" in out and "Emulator errors: 0." in out
    assert out.count("🤖") >= 4


def test_no_ai_name_reads_as_a_secret():
    """The tavern names stand in the public channel: none is a class, faction or trait
    word in either language (nor do two share a name)."""
    from bot.features.ai_seats.ai_seats import NAMES
    from bot.i18n import LOCALES, t
    from tests.e2e.test_leaks import secret_words

    for loc in LOCALES:
        names = [t(f"ai_seat.name_{i}", loc) for i in range(1, NAMES + 1)]
        assert len(set(names)) == NAMES and not any(n.startswith("ai_seat.") for n in names)
        assert [(n, what) for n in names for what, pat in secret_words() if pat.search(n)] == []
