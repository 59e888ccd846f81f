"""The head starts of an uneven table (house rule uneven_tables) are told with the final
scores, in the channel's scoreboard, in both languages, and nowhere before the end."""

from __future__ import annotations

from bot.ai.runner import play_game
from bot.i18n import terms
from bot.render.posts import scoreboard_embed
from engine import Event, new_game

NAMES = [f"P{i}" for i in range(1, 8)]


def _game() -> list[list[Event]]:
    steps: list[list[Event]] = []
    play_game("shown-7", 7, start=new_game(NAMES, "shown-7"), steps=steps)
    return steps


def test_the_scoreboard_names_the_head_starts_in_both_languages() -> None:
    steps = _game()
    ended = next(e for step in steps for e in step if e.kind == "GameEnded")
    starts = ended.data["head_starts"]
    # 7 players: the two factions a seat short start with 5 points, Neutral with 4 (E19)
    assert len(starts) == 2 and all(n == (4 if f == "neutral" else 5) for f, n in starts.items())
    assert "neutral" in starts  # this seed's table has Neutral short: both figures are shown
    for loc, words in (("en-US", "head starts, a seat short"), ("zh-CN", "开局先得分")):
        field = next(f for f in scoreboard_embed(ended.data, loc, None, None).fields if f.value and words in f.value)
        assert field.value is not None
        assert all(f"{terms.faction(f, loc)} +{n}" in field.value for f, n in starts.items()), field.value


def test_no_public_event_before_the_end_speaks_of_a_head_start() -> None:
    for step in _game():
        for e in step:
            if e.audience.value == "public" and e.kind != "GameEnded":
                assert "head_start" not in str(e.data)
