"""Durations as moderators type them (`2h`, `1d 30m`) and as the bot writes them."""

import pytest

from bot.discord.durations import parse_duration
from bot.discord.errors import ReplyError
from bot.render.durations import format_duration


@pytest.mark.parametrize(
    ("text", "seconds"),
    [("24h", 86400), ("90m", 5400), ("1h30m", 5400), ("1h 30m", 5400), ("2d", 172800), ("45", 2700),
     ("1.5h", 5400), ("2小时", 7200), ("30分钟", 1800), ("1天", 86400), ("1天2小时", 93600), ("90 min", 5400)],
)  # fmt: skip
def test_durations_as_people_type_them(text, seconds):
    assert parse_duration(text) == seconds


@pytest.mark.parametrize("text", ["", "soon", "10s", "8d", "h", "1x", "-5m", "3h tomorrow"])
def test_bad_durations_are_refused_with_the_range(text):
    with pytest.raises(ReplyError) as info:
        parse_duration(text)
    assert info.value.key == "reply.error.duration"


def test_format_in_both_languages():
    assert format_duration(93600 + 60, "en-US") == "1d 2h 1m"
    assert format_duration(93600, "zh-CN") == "1天2小时"
    assert format_duration(0, "en-US") == "0s"
