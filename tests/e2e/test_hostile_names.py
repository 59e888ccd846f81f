"""Players choose their names. A name that looks like a vote count, carries a masked
link or a mention, or opens a spoiler must show as the text it is in every public post,
and must not pass for something the bot said."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from bot.sandbox import play_reader as reader
from bot.sandbox.play_game import GameOptions, TableGame
from bot.sandbox.play_table import GameClock, TableSpec, Tavern
from tests.e2e.conftest import run

NAMES = ["bob ×6, #4 erin", "[carol](https://evil.example)", "<@123456789012345678>", "||frank", "grace||", "**loud**"]


@dataclass
class Seen:
    table_post: str  # raw markdown, as Discord receives it
    votes_post: str
    roster: str


async def scenario() -> Seen:
    async with Tavern(clock=GameClock(1.0), seed="hostile-names") as tavern:
        seating = tavern.seat_table(TableSpec(players=7))
        assert tavern.guild is not None
        for i, name in enumerate(NAMES, start=1):  # seats 2..7; alice keeps seat 1
            user = tavern.emu.create_user(name)
            tavern.emu.add_member(tavern.guild, user)
            seating.players[i] = user
        game = TableGame(tavern, seating, GameOptions(day="1h", dusk="1h", morning="1h"), seed="hostile-names")
        await game.open()
        assert await game.next_phase(1, "day")
        alice = game.players[0]
        assert not (await game.moderator.advance()).error
        assert await game.next_phase(1, "dusk")
        assert not (await game.moderator.advance()).error
        assert await game.next_phase(1, "morning")
        assert not (await alice.command("vote", {"player": "2"})).error  # one vote, for seat 2
        assert not (await game.moderator.advance()).error
        await tavern.drained()
        posts = tavern.public(seating.channel)
        raw = ["\n".join([m.content or "", *(str(e.get("description") or "") for e in m.embeds)] + [str(f.get("value")) for e in m.embeds for f in e.get("fields", [])]) for m in posts]
        table_post = next(r for r, m in zip(raw, posts, strict=True) if "enter the Wolf Howl Tavern" in reader.message_text(m))
        votes = next(r for r in raw if "Votes:" in r)
        return Seen(table_post, votes, "\n".join(raw))


@pytest.fixture(scope="module")
def seen() -> Seen:
    return run(scenario())


def test_a_name_cannot_pass_for_a_vote_count(seen: Seen) -> None:
    # Seat 2 got one vote; its name reads like "×6, #4 erin": the counts are bold, a name cannot be.
    assert "#2 bob ×6, #4 erin **×1**" in seen.votes_post, seen.votes_post


def test_a_name_makes_no_link_mention_spoiler_or_bold(seen: Seen) -> None:
    lines = seen.table_post.splitlines()
    assert "3. \\[carol](https://evil.example)" in lines  # escaped: no masked link
    assert "4. <@\u200b123456789012345678>" in lines  # broken up: no mention pill
    assert "5. \\|\\|frank" in lines and "6. grace\\|\\|" in lines  # no spoiler between them
    assert "7. \\*\\*loud\\*\\*" in lines
