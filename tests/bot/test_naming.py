"""One way of naming a player, everywhere: "#12 阿杰" (bot.render.words.seat_name). No
catalogue line names a seat holder as "seat 12 (阿杰)", "阿杰 (seat 12)", "阿杰, seat 12" or
"12号（阿杰）": a line that names a player takes it whole, as ``{player}`` or a name
already in the one form."""

from __future__ import annotations

import re

import pytest

from bot.features.absence import look as absence
from bot.i18n import LOCALES
from bot.i18n.catalog import catalogue
from bot.render import words

# A seat and a name side by side in any other form than "#{seat} {name}".
OLD_FORMS = (
    re.compile(r"\{seat\}[^{}]{0,6}[(（]\{[a-z_]*name\}"),  # seat {seat} ({name}) · {seat}号（{name}）
    re.compile(r"\{[a-z_]*name\}\s*[(（][^{}]{0,8}\{seat\}"),  # {name} (seat {seat}) · {name}（{seat}号）
    re.compile(r"\{[a-z_]*name\}[,，][^()（）]{0,24}?\{seat\}"),  # {name}, seat {seat} of ... · {name}，第{game}局{seat}号
)


def test_the_old_forms_are_found() -> None:
    for old in ("seat {seat} ({name})", "{seat}号（{name}）", "{name} (seat {seat})", "{name}（{seat}号座位）", "{name}, seat {seat} of game", "{name}，第{game}局{seat}号"):
        assert any(p.search(old) for p in OLD_FORMS), old


@pytest.mark.parametrize("locale", LOCALES)
def test_no_catalogue_line_names_a_player_another_way(locale: str) -> None:
    bad = {key: text for key, text in catalogue(locale).items() if any(p.search(text) for p in OLD_FORMS)}
    assert bad == {}


@pytest.mark.parametrize("locale", LOCALES)
def test_notices_to_the_moderator_name_the_seat_holder_in_the_one_form(locale: str) -> None:
    player = words.seat_name(12, "阿杰")
    texts = [
        absence.moderator_text(3, 12, "阿杰", 2, 3, "remove", locale),
        absence.exhausted_text(3, 12, "阿杰", True, locale),
        absence.exhausted_text(3, 12, "阿杰", False, locale),
    ]
    for text in texts:
        assert player in text, text
        assert "(seat" not in text and "号（" not in text and "號（" not in text, text
