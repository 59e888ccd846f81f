"""The scripted players read the bot's posts as people do: here, who won."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from bot.render.posts import scoreboard_embed
from bot.sandbox import play_reader as reader


@pytest.mark.parametrize("locale", ["en-US", "zh-CN"])
@pytest.mark.parametrize("winners", [["lawful"], ["lawful", "chaotic"], ["lawful", "neutral", "chaotic"]])
def test_the_winners_are_read_off_the_scoreboard_shared_or_not(locale: str, winners: list[str]) -> None:
    ended = {"winners": winners, "reason": "score", "scores": {"lawful": 15, "neutral": 15, "chaotic": 15}, "roster": []}
    post = SimpleNamespace(embeds=[scoreboard_embed(ended, locale, None, None).to_dict()])
    assert reader.winners(post) == winners  # type: ignore[arg-type]
