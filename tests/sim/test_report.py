"""The report's statistics: Wilson intervals on known values, percentiles, shared wins."""

from __future__ import annotations

import pytest

from bot.ai.odds import wilson
from bot.ai.runner import GameResult
from bot.sim.report import on_target, out_of_band, percentile, share_of, summarise

ROLES15 = tuple(
    (f, c)
    for f, row in (
        ("lawful", ("warrior", "monk", "cleric", "wizard", "paladin")),
        ("neutral", ("barbarian", "wizard", "warrior", "rogue", "druid")),
        ("chaotic", ("barbarian", "sorcerer", "ranger", "rogue", "bard")),
    )
    for c in row
)


@pytest.mark.parametrize(
    ("k", "n", "low", "high"),
    [
        # Reference values: the roots in p of the interval's defining quadratic
        # (k/n - p)^2 = z^2 p (1 - p) / n with z = 1.959964, solved separately.
        (50, 100, 0.403832, 0.596168),
        (0, 10, 0.0, 0.277533),
        (10, 10, 0.722467, 1.0),
        (1, 20, 0.008881, 0.236131),
        (6000, 20000, 0.293688, 0.306389),
    ],
)
def test_wilson_known_values(k: int, n: int, low: float, high: float) -> None:
    lo, hi = wilson(k, n)
    assert lo == pytest.approx(low, abs=2e-6)
    assert hi == pytest.approx(high, abs=2e-6)


def test_wilson_edges() -> None:
    assert wilson(0, 0) == (0.0, 1.0)
    with pytest.raises(ValueError):
        wilson(3, 2)
    lo, hi = wilson(30, 100)
    assert lo < 0.30 < hi
    # Narrower with more games, same proportion.
    lo2, hi2 = wilson(300, 1000)
    assert hi2 - lo2 < hi - lo


def test_percentile_nearest_rank() -> None:
    values = list(range(1, 11))
    assert percentile(values, 0.9) == 9
    assert percentile(values, 0.5) == 5
    assert percentile(values, 1.0) == 10
    assert percentile([7], 0.9) == 7
    with pytest.raises(ValueError):
        percentile([], 0.5)


def _game(winners: tuple[str, ...], rounds: int, reason: str = "score") -> GameResult:
    n = len(ROLES15)
    return GameResult(
        seed="t",
        rounds=rounds,
        winners=winners,
        end_reason=reason,
        scores=(("chaotic", 0), ("lawful", 0), ("neutral", 0)),
        roles=ROLES15,
        survived=tuple(i % 2 == 0 for i in range(n)),
        kills=(1,) + (0,) * (n - 1),
        teamkills=(0,) * n,
        grails=(0, 2) + (0,) * (n - 2),
        steals=(0,) * n,
        dropped=0,
    )


def test_summarise_counts_shared_wins_for_each_sharer() -> None:
    games = [
        _game(("lawful",), 5),
        _game(("lawful", "neutral"), 7, "majority"),
        _game(("chaotic",), 9),
        _game(("neutral",), 11),
    ]
    s = summarise(games, players=15, seed="x", seconds=2.0)
    assert s["games"] == 4
    assert s["faction_wins"] == {"lawful": 2, "neutral": 2, "chaotic": 1}
    assert s["faction_win_rate"] == {"lawful": 0.5, "neutral": 0.5, "chaotic": 0.25}
    assert s["shared_wins"] == 1
    assert s["rounds"]["median"] == 8
    assert s["rounds"]["mean"] == 8
    assert s["rounds"]["p90"] == 11
    assert s["rounds"]["histogram"] == {"5": 1, "7": 1, "9": 1, "11": 1}
    assert s["games_per_second"] == 2.0
    assert s["end_reasons"] == {"majority": 1, "score": 3}
    lo, hi = s["faction_win_interval"]["chaotic"]
    assert (lo, hi) == pytest.approx(wilson(1, 4), abs=1e-6)
    warrior = next(r for r in s["roles"] if r["class_id"] == "warrior" and r["faction"] == "lawful")
    assert warrior["kills"] == 1.0 and warrior["survival"] == 1.0
    monk = next(r for r in s["roles"] if r["class_id"] == "monk")
    assert monk["grails"] == 2.0 and monk["survival"] == 0.0
    assert s["kills_per_game"] == 1.0
    assert s["class_survival"]["monk"] == 0.0
    # Per class, the lawful and the neutral warrior together (seats 0 and 7 of each game).
    classes = {row["class_id"]: row for row in s["classes"]}
    assert len(classes) == 11
    assert classes["warrior"]["seats"] == 8
    assert classes["warrior"]["survival"] == 0.5 and classes["warrior"]["kills"] == 0.5
    assert classes["monk"]["seats"] == 4 and classes["monk"]["grails"] == 2.0
    assert s["class_survival"]["warrior"] == 0.5


def test_summarise_needs_games_and_target_check() -> None:
    with pytest.raises(ValueError):
        summarise([], players=15, seed="x", seconds=1.0)
    s = summarise([_game(("lawful",), 6)], players=15, seed="x", seconds=1.0)
    assert not on_target(s)
    s["faction_win_rate"] = {"lawful": 0.33, "neutral": 0.34, "chaotic": 0.35}
    assert on_target(s)
    s["rounds"]["median"] = 13
    assert not on_target(s)


def test_points_and_the_class_band() -> None:
    """A seat's points are 3 a kill, 2 a steal, 1 a grail; the band flags a class whose
    survival or points (against the mean seat's) fall outside it, and only those."""
    s = summarise([_game(("lawful",), 6)], players=15, seed="x", seconds=1.0)
    classes = {row["class_id"]: row for row in s["classes"]}
    # Seat 0 (lawful warrior) killed once, seat 1 (monk) banked two grails: 3 + 2 over
    # fifteen seats.
    assert classes["warrior"]["points"] == 1.5  # 3 points over its two seats
    assert classes["monk"]["points"] == 2.0
    assert s["points_per_seat"] == pytest.approx(5 / 15, abs=1e-6)
    flagged = out_of_band(s)
    assert "monk survival 0.0%" in flagged
    assert "cleric survival 100.0%" in flagged
    assert "warrior points 4.50" in flagged and "cleric points 0.00" in flagged
    for row in s["classes"]:
        row["survival"], row["points"] = 0.5, s["points_per_seat"]
    assert out_of_band(s) == []


def test_the_share_of_a_table_a_faction_holds() -> None:
    assert [share_of(s, 7) for s in (3, 2)] == ["larger", "smaller"]
    assert [share_of(s, 8) for s in (3, 2)] == ["larger", "smaller"]
    assert share_of(3, 9) == "equal" and share_of(5, 15) == "equal"
    assert [share_of(s, 10) for s in (4, 3)] == ["larger", "smaller"]


def _dealt(roles: tuple[tuple[str, str], ...], winners: tuple[str, ...]) -> GameResult:
    n = len(roles)
    zeros = (0,) * n
    return GameResult(
        seed="t", rounds=5, winners=winners, end_reason="score", scores=(), roles=roles,
        survived=(True,) * n, kills=zeros, teamkills=zeros, grails=zeros, steals=zeros, dropped=0,
    )  # fmt: skip


def test_the_seat_count_effect_counts_each_factions_games_by_its_share() -> None:
    seven = (("lawful", "warrior"),) * 3 + (("neutral", "wizard"),) * 2 + (("chaotic", "sorcerer"),) * 2
    games = [_dealt(seven, ("lawful",)), _dealt(seven, ("neutral", "chaotic")), _dealt(seven, ("chaotic",))]
    shares = summarise(games, players=7, seed="x", seconds=1.0)["seat_share"]
    assert set(shares) == {"larger", "smaller"}  # nobody holds exactly a third of seven
    assert shares["larger"]["all"] | {"interval": None} == {"games": 3, "wins": 1, "rate": round(1 / 3, 6), "interval": None}
    assert shares["larger"]["factions"] == {"lawful": shares["larger"]["all"]}
    smaller = shares["smaller"]
    assert (smaller["all"]["games"], smaller["all"]["wins"]) == (6, 3)  # the shared win counts for both
    assert smaller["factions"]["chaotic"]["wins"] == 2 and smaller["factions"]["neutral"]["wins"] == 1
    assert smaller["all"]["interval"] == pytest.approx(wilson(3, 6), abs=1e-6)
