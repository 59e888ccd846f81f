"""The fair deal (engine.fair_deal, rules version 6): below 15 players the random deal
draws among the line-ups the class worths rate even; a game dealt under an earlier
version keeps the plain lot it was dealt by."""

from collections import Counter

import pytest

from engine import Settings, fair_deal, new_game
from engine.classes import FACTION_ROWS
from engine.dice import Dice
from engine.rules import FAIR_DEAL, playing
from engine.setup import deal
from engine.values import FACTIONS


def _rows(roles):
    return tuple(tuple(sorted(c for g, c in roles if g is f)) for f in FACTIONS)


def _kept(n, roles):
    seats = tuple(sum(g is f for g, _ in roles) for f in FACTIONS)
    return {tuple(tuple(sorted(r)) for r in rows) for rows in fair_deal.even_lineups(n, seats)}


@pytest.mark.parametrize("n", range(6, 15))
def test_every_deal_below_15_is_an_even_line_up(n):
    for seed in range(40):
        roles = deal(n, Dice(seed))
        assert _rows(roles) in _kept(n, roles)
        assert fair_deal.spread(_rows(roles), n) <= fair_deal.SPREAD or all(
            fair_deal.spread(_rows(roles), n) <= fair_deal.spread(other, n) + 1e-12 for other in _kept(n, roles)
        )


def test_the_even_line_ups_are_within_the_spread_and_a_part_of_all():
    for n in range(6, 15):
        for seats, every in ((2, 2, 2), 1000), ((3, 3, 3), 1000), ((4, 4, 4), 125):
            if sum(seats) != n:
                continue
            kept = fair_deal.even_lineups(n, seats)
            assert 0 < len(kept) < every
            assert all(fair_deal.spread(rows, n) <= fair_deal.SPREAD for rows in kept)


def test_the_worths_rate_a_lopsided_line_up_uneven():
    """At 6, Lawful's two support classes against Chaotic's Sorcerer and Barbarian are
    far from even, and the fair deal never deals them."""
    lopsided = (("monk", "cleric"), ("wizard", "warrior"), ("barbarian", "sorcerer"))
    odds = fair_deal.odds(lopsided, 6)
    assert odds[2] - odds[0] > fair_deal.SPREAD
    assert lopsided not in fair_deal.even_lineups(6, (2, 2, 2))


def test_the_draw_reaches_every_even_line_up_alike():
    kept = fair_deal.even_lineups(6, (2, 2, 2))
    seen = Counter(_rows(deal(6, Dice(f"s{i}"))) for i in range(20 * len(kept)))
    assert set(seen) == {tuple(tuple(sorted(r)) for r in rows) for rows in kept}
    assert max(seen.values()) < 60  # about 20 each


def test_fifteen_and_a_fixed_line_up_are_dealt_as_before():
    for seed in range(5):
        roles = deal(15, Dice(seed))
        with playing(FAIR_DEAL - 1):
            assert roles == deal(15, Dice(seed))
        for f in FACTIONS:
            assert sorted(c for g, c in roles if g is f) == sorted(FACTION_ROWS[f])


def test_a_game_dealt_under_an_earlier_version_keeps_its_plain_lot():
    """A version-5 game deals as it always did (its log replays); version 6 deals other
    line-ups for some seeds, every one of them even."""
    names = [f"P{i}" for i in range(1, 7)]
    old = [new_game(names, f"g{i}", Settings(rules_version=FAIR_DEAL - 1)) for i in range(60)]
    with fair_deal.by_lot():
        plain = [new_game(names, f"g{i}", Settings()) for i in range(60)]
    assert [[(p.faction, p.class_id) for p in g.players] for g in old] == [[(p.faction, p.class_id) for p in g.players] for g in plain]
    new = [new_game(names, f"g{i}", Settings()) for i in range(60)]
    moved = [i for i in range(60) if new[i].players != old[i].players]
    assert moved
    even = {tuple(tuple(sorted(r)) for r in rows) for rows in fair_deal.even_lineups(6, (2, 2, 2))}
    assert all(_rows([(p.faction, p.class_id) for p in g.players]) in even for g in new)
    assert sum(_rows([(p.faction, p.class_id) for p in g.players]) not in even for g in old) > 10


@pytest.mark.parametrize("n", [7, 8])
def test_from_version_7_the_worths_at_7_and_8_are_per_seating(n):
    """Which factions hold the extra seats has its own worths from version 7 (the same
    share beside another short faction plays otherwise); a version-6 game keeps the
    worths per share it was dealt by, and the other sizes keep theirs."""
    from engine.rules import SEATING_WORTHS

    seatings = {"/".join(str(k) for k in s) for s in ((3, 2, 2), (2, 3, 2), (2, 2, 3), (3, 3, 2), (3, 2, 3), (2, 3, 3)) if sum(s) == n}
    assert set(fair_deal.worths()[n].groups) == seatings
    with playing(SEATING_WORTHS - 1):
        assert set(fair_deal.worths()[n].groups) == {"larger", "smaller"}
        old = {s: fair_deal.even_lineups(n, tuple(map(int, s.split("/")))) for s in seatings}
    assert fair_deal.worths()[10] is not None and set(fair_deal.worths()[10].groups) == {"larger", "smaller"}
    for s in seatings:
        seats = tuple(map(int, s.split("/")))
        new = fair_deal.even_lineups(n, seats)
        assert new != old[s]
        assert all(fair_deal.spread(rows, n) <= fair_deal.SPREAD for rows in new)
        assert all(fair_deal.seating(rows) == s for rows in new)
