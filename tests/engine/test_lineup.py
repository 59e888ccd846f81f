"""Line-ups: the presets fit every table of 6 to 15 within the rules; a line-up of one's
own is read from text in either language, refused with a clear reason in both when the
rules do not allow it; the deal seats exactly its classes, from the seed."""

from __future__ import annotations

from collections import Counter

import pytest

from bot.i18n import refusal_text
from engine import Settings, new_game
from engine.classes import FACTION_ROWS
from engine.dice import Dice
from engine.lineup import (
    PRESETS,
    RANDOM,
    Lineup,
    LineupError,
    fixed_size,
    normalize,
    parse,
    preset,
    resolve,
)
from engine.setup import deal
from engine.values import FACTIONS


@pytest.mark.parametrize("n", range(6, 16))
@pytest.mark.parametrize("name", [p for p in PRESETS if p != RANDOM])
def test_every_preset_fits_every_size_within_the_rules(name, n):
    lineup = preset(name, n)
    assert lineup is not None and lineup.size == n
    assert lineup.check(n) is lineup
    for f in FACTIONS:
        row = lineup.of(f)
        assert row and set(row) <= set(FACTION_ROWS[f]) and len(set(row)) == len(row)
        assert 2 * len(row) <= n
    assert parse(lineup.text()) == lineup


def test_random_is_the_deal_by_lot_and_classic_at_fifteen_is_the_source_table():
    assert all(preset(RANDOM, n) is None for n in range(6, 16))
    assert preset("classic", 15) == Lineup(tuple(FACTION_ROWS[f] for f in FACTIONS))  # type: ignore[arg-type]


@pytest.mark.parametrize("n", range(6, 16))
def test_classic_is_the_source_table_trimmed_with_a_few_classes_changed_below_13(n):
    """Each row read from its start, the extra seats to Lawful, then Neutral; below 13 the
    same seats with at least half of those classes (the few changed that make it even)."""
    base, extra = divmod(n, 3)
    trim = [FACTION_ROWS[f][: base + (i < extra)] for i, f in enumerate(FACTIONS)]
    lineup = preset("classic", n)
    assert lineup is not None
    assert [len(row) for row in lineup.rows] == [len(row) for row in trim]
    kept = sum(len(set(row) & set(mine)) for row, mine in zip(trim, lineup.rows, strict=True))
    if n >= 13:
        assert list(lineup.rows) == trim
    else:
        assert n / 2 <= kept < n


@pytest.mark.parametrize("n", range(6, 12))
def test_varied_deals_no_class_twice_while_the_table_has_room(n):
    lineup = preset("varied", n)
    assert lineup is not None
    classes = [c for _, c in lineup.roles()]
    assert len(set(classes)) == n


def test_a_line_up_is_read_in_english_or_chinese_with_or_without_faction_names():
    assert parse("Warrior, Monk / barbarian,druid / bard ,ranger").text() == "warrior,monk/barbarian,druid/bard,ranger"
    assert parse("战士,武僧/野蛮人,德鲁伊/吟游诗人,游侠").text() == "warrior,monk/barbarian,druid/bard,ranger"
    assert parse("chaotic: bard, ranger; lawful: warrior, monk; neutral: barbarian, druid").text() == "warrior,monk/barbarian,druid/bard,ranger"
    assert normalize(" Classic ") == "classic" and normalize("warrior,monk/barbarian,druid/bard,ranger") == "warrior,monk/barbarian,druid/bard,ranger"
    assert fixed_size("classic") is None and fixed_size("warrior,monk/barbarian,druid/bard,ranger") == 6


BAD = {
    "warrior,monk/barbarian,druid": ("write the classes of the three factions", "请用“/”分隔三个阵营的职业"),
    "knight,monk/barbarian,druid/bard,ranger": ("no class called “knight”", "没有名为“knight”的职业"),
    "druid,monk/barbarian,wizard/bard,ranger": ("Druid is not in the Lawful row", "德鲁伊不在守序阵营的职业表中"),
    "warrior,monk/barbarian,barbarian/bard,ranger": ("Neutral names Barbarian twice", "中立阵营两次列出野蛮人"),
    "warrior,monk,cleric,wizard,paladin/barbarian/": ("Chaotic has none", "混乱阵营没有"),
    "warrior,monk/barbarian/bard": ("it seats 4 players", "它有4名玩家"),
    "warrior,monk,cleric,wizard/barbarian/bard,ranger": ("Lawful would outnumber", "守序阵营人数会多于"),
    "evil: bard, ranger; lawful: warrior, monk; neutral: barbarian, druid": ("no faction called “evil”", "没有名为“evil”的阵营"),
    "fancy": ("no preset called “fancy”", "没有名为“fancy”的预设"),
}


@pytest.mark.parametrize("text", BAD)
def test_a_line_up_the_rules_do_not_allow_is_refused_with_the_reason_in_both_languages(text):
    with pytest.raises(LineupError) as caught:
        normalize(text)
    en, zh = BAD[text]
    assert en in refusal_text(caught.value, "en-US") and refusal_text(caught.value, "en-US").startswith("That line-up cannot be used")
    assert zh in refusal_text(caught.value, "zh-CN")
    assert refusal_text(caught.value, "zh-TW") != refusal_text(caught.value, "zh-CN")


def test_a_line_up_for_another_size_is_refused():
    with pytest.raises(LineupError) as caught:
        resolve("warrior,monk/barbarian,druid/bard,ranger", 7)
    assert "it seats 6 players and the table has 7" in refusal_text(caught.value, "en-US")


def test_the_deal_seats_the_line_up_shuffled_by_the_seed():
    lineup = parse("paladin,cleric,monk/rogue,druid/ranger,sorcerer,bard")
    a = deal(8, Dice("s1"), lineup)
    assert Counter(a) == Counter(lineup.roles())
    assert a == deal(8, Dice("s1"), lineup)
    assert any(deal(8, Dice(s), lineup) != a for s in ("s2", "s3", "s4"))
    with pytest.raises(LineupError):
        deal(9, Dice("s1"), lineup)


def test_settings_carry_the_line_up_and_new_game_deals_it():
    lineup = parse("paladin,cleric/rogue,druid/ranger,bard")
    settings = Settings(lineup=lineup)
    assert settings.to_dict()["lineup"] == "paladin,cleric/rogue,druid/ranger,bard"
    assert Settings.from_dict(settings.to_dict()) == settings
    assert "lineup" not in Settings().to_dict()  # a game dealt by lot stores what it did before
    state = new_game([f"P{i}" for i in range(1, 7)], "seed", settings)
    assert Counter((p.faction, p.class_id) for p in state.players) == Counter(lineup.roles())
    assert state.settings.lineup == lineup
