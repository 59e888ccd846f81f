"""Dealing roles for 6 to 15 players (R1)."""

from collections import Counter

import pytest

from engine.classes import FACTION_ROWS
from engine.dice import Dice
from engine.errors import OutOfRangeError
from engine.setup import deal
from engine.values import FACTIONS


@pytest.mark.parametrize("n", range(6, 16))
def test_factions_as_equal_as_possible_classes_from_their_row(n):
    for seed in range(20):
        roles = deal(n, Dice(seed))
        sizes = Counter(f for f, _ in roles)
        assert len(roles) == n
        assert max(sizes.values()) - min(sizes[f] for f in FACTIONS) <= 1
        for f in FACTIONS:
            classes = [c for g, c in roles if g is f]
            assert len(classes) == len(set(classes))
            assert set(classes) <= set(FACTION_ROWS[f])


def test_fifteen_is_exactly_the_source_table():
    roles = deal(15, Dice(1))
    for f in FACTIONS:
        assert sorted(c for g, c in roles if g is f) == sorted(FACTION_ROWS[f])


def test_same_seed_same_deal_different_seed_differs():
    assert deal(15, Dice("a")) == deal(15, Dice("a"))
    assert any(deal(15, Dice("a")) != deal(15, Dice(s)) for s in "bcdef")


@pytest.mark.parametrize("n", [0, 5, 16])
def test_other_sizes_refused(n):
    with pytest.raises(OutOfRangeError):
        deal(n, Dice(1))
