"""``wolfhowl demo --lang`` sets every scripted player's language, zh-TW included: before,
it set the public posts' only, and two seats in three still got English DMs."""

from __future__ import annotations

from bot.sandbox.demo import LANGS, relative_time
from bot.sandbox.play_table import TableSpec


def test_every_seat_speaks_the_demos_language() -> None:
    assert "zh-TW" in LANGS
    for lang in LANGS:
        people = TableSpec(players=8, language=lang).people()
        assert {locale for _, locale, _ in people} == {lang}
    assert {locale for _, locale, _ in TableSpec(players=6).people()} == {"en-US", "zh-CN"}


def test_a_relative_time_in_traditional_chinese() -> None:
    assert relative_time(7200, "zh-TW") == "2小時後"
    assert relative_time(7200, "zh-CN") == "2小时后"
