"""Room under Discord's limit of 4,000 characters a top-level command (its names,
descriptions and choices, all its subcommands' and options' together, the longest
localization of each): the largest command of the tree stays at most 85% of it, 3,400,
in every language, so that the next option has somewhere to go. ``/mod`` is the one near
it: a new game setting is an option of ``/mod settings`` only, unless its declaration
puts it on ``/mod create`` too (``bot.features.moderation.cog_settings``)."""

from __future__ import annotations

import copy

import pytest

from bot.i18n import LOCALES
from tests.bot.test_mod_commands import check_limits
from tests.commands_shown import payload_size, payloads

LIMIT = 4000
ROOM = LIMIT * 85 // 100  # 3,400
# Each language as its clients show it, and the longest localization of each string (what
# Discord counts of the registered payload: tests/bot/test_mod_commands.py).
MEASURES = (*LOCALES, None)


def top_level() -> dict[str, dict]:
    return {c.name: payload for c, payload in payloads() if c.parent is None}


def over_room(commands: dict[str, dict], loc: str | None) -> list[tuple[str, int]]:
    """The commands larger than ``ROOM`` in ``loc``, with their size."""
    return [(name, size) for name, payload in commands.items() if (size := payload_size(payload, loc)) > ROOM]


@pytest.mark.parametrize("loc", MEASURES, ids=[*LOCALES, "longest"])
def test_the_largest_command_leaves_room_under_discords_limit(loc: str | None) -> None:
    commands = top_level()
    name, size = max(((n, payload_size(p, loc)) for n, p in commands.items()), key=lambda x: x[1])
    assert over_room(commands, loc) == [], (
        f"/{name} counts {size} characters ({loc or 'longest localization'}), over {ROOM} (85% of Discord's {LIMIT}): "
        "put a new setting on /mod settings only (not create=True), or move options to a command of their own"
    )
    assert size > 1000, (name, size)  # the measure counts the options of subcommands


def test_the_measure_is_the_registered_payloads() -> None:
    """The longest-localization measure is the one the registered commands are held to."""
    for name, payload in top_level().items():
        assert payload_size(payload) == check_limits(payload, name, []), name


@pytest.mark.parametrize("loc", MEASURES, ids=[*LOCALES, "longest"])
def test_a_command_grown_past_the_room_is_caught(loc: str | None) -> None:
    """The check fails once a command grows past 3,400: here /mod given options of 32
    characters of name and 100 of description, in every language, on its settings."""
    commands = copy.deepcopy(top_level())
    mod = commands["mod"]
    settings = next(o for o in mod["options"] if o["name"] == "settings")
    start = payload_size(mod, loc)
    added = 0
    while payload_size(mod, loc) <= ROOM:
        words = {"name": f"x{added:031d}", "description": "d" * 100}
        settings["options"].append(
            {**words, "type": 3, "name_localizations": dict.fromkeys(LOCALES, words["name"]), "description_localizations": dict.fromkeys(LOCALES, words["description"])}
        )
        added += 1
        assert payload_size(mod, loc) == start + 132 * added
    assert over_room(commands, loc) == [("mod", start + 132 * added)]
