"""The house rule ``uneven_tables`` (engine.uneven): a faction dealt fewer seats than the
largest starts with the points a seat is worth, per seat short (from rules version 7,
Neutral a point less at 7 and 8 players); nothing changes at a table that divides by
three, under ``off``, or under a rules version before the rule."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

import pytest

from engine import Settings, UnevenTablesRule, new_game, rules, start_events
from engine.scoring import KILL_POINTS, score_kill
from engine.uneven import Compensation, in_play, seat_worth, trying

NAMES = [f"P{i}" for i in range(1, 16)]
HEAD_START = {7: 5, 8: 5, 10: 4, 11: 4, 13: 3, 14: 3}


@pytest.mark.parametrize("players", range(6, 16))
def test_a_faction_a_seat_short_starts_with_what_a_seat_is_worth(players: int) -> None:
    state = new_game(NAMES[:players], f"uneven-{players}")
    seats = Counter(p.faction.value for p in state.players)
    largest = max(seats.values())
    neutral_less = 1 if players in (7, 8) else 0
    expected = {f: (HEAD_START.get(players, 0) - (neutral_less if f == "neutral" else 0)) * (largest - n) for f, n in seats.items()}
    assert state.scores == expected
    assert sorted((e.data["faction"], e.data["points"], e.data["reason"]) for e in start_events(state)) == sorted(
        (f, p, "head_start") for f, p in expected.items() if p
    )
    assert all(e.audience.value == "audit" for e in start_events(state))  # secret like every score


@pytest.mark.parametrize("players", [7, 8])
def test_neutral_s_head_start_is_a_point_less_at_7_and_8_from_version_7(players: int) -> None:
    """Whatever the seating: a short Neutral starts with 4, a short Lawful or Chaotic with
    5; a game dealt under version 6 keeps 5 for every short faction."""
    seen: dict[str, set[int]] = {}
    for i in range(30):
        state = new_game(NAMES[:players], f"neutral-{players}-{i}")
        for faction, points in state.scores.items():
            if points:
                seen.setdefault(faction, set()).add(points)
        old = new_game(NAMES[:players], f"neutral-{players}-{i}", Settings(rules_version=rules.NEUTRAL_HEAD_START - 1))
        assert {p for p in old.scores.values() if p} == {5}
    assert seen == {"lawful": {5}, "neutral": {4}, "chaotic": {5}}


def test_the_head_start_follows_the_winning_score() -> None:
    assert seat_worth(15, 3) == 5 and seat_worth(15, 4) == 4 and seat_worth(15, 5) == 3
    assert seat_worth(10, 3) == 3 and seat_worth(12, 3) == 4 and seat_worth(1, 5) == 0
    state = new_game(NAMES[:7], "uneven-win", Settings(win_score=30))
    seats = Counter(p.faction.value for p in state.players)
    assert state.scores == {f: 0 if n == 3 else 9 if f == "neutral" else 10 for f, n in seats.items()}  # Neutral's a point less at 7


def test_off_and_older_rules_versions_deal_no_head_start() -> None:
    off = new_game(NAMES[:7], "uneven-off", Settings(uneven_tables=UnevenTablesRule.OFF))
    assert set(off.scores.values()) == {0} and start_events(off) == []
    v4 = new_game(NAMES[:7], "uneven-off", Settings(rules_version=4))
    assert set(v4.scores.values()) == {0}
    on = new_game(NAMES[:7], "uneven-off")
    assert [p.class_id for p in on.players] == [p.class_id for p in off.players]  # the deal itself is the same


def test_settings_stored_before_the_rule_read_as_off() -> None:
    assert Settings.from_dict({"win_score": 15, "rules_version": 4}).uneven_tables is UnevenTablesRule.OFF
    assert Settings.from_dict(Settings().to_dict()).uneven_tables is UnevenTablesRule.COMPENSATE
    assert "uneven_tables" not in replace(Settings(), uneven_tables=UnevenTablesRule.OFF).to_dict()


def test_a_candidate_tried_by_the_search_scores_the_short_faction_more() -> None:
    candidate = Compensation(head_start=2, kill=1, survivor=1, grail=1)
    assert Compensation.parse(candidate.text()) == candidate
    with trying(candidate):
        state = new_game(NAMES[:8], "uneven-try")
        assert in_play(state) == candidate
        short = next(p for p in state.players if state.scores[p.faction.value] == 2)
        victim = next(p for p in state.players if p.faction is not short.faction)
        before = state.scores[short.faction.value]
        score_kill(state, [], short, victim)
        assert state.scores[short.faction.value] - before == KILL_POINTS + 1
        other = next(p for p in state.players if state.scores[p.faction.value] == 0 and p.faction is not victim.faction)
        before = state.scores[other.faction.value]
        score_kill(state, [], other, victim)
        assert state.scores[other.faction.value] - before == KILL_POINTS  # a full faction gets nothing more
    even = new_game(NAMES[:9], "uneven-try")
    with trying(candidate):
        assert in_play(even) == Compensation()


def test_the_end_names_the_head_starts_in_the_scores() -> None:
    from bot.ai.runner import play_game

    steps: list[list] = []
    state = new_game(NAMES[:8], "uneven-end")
    play_game("uneven-end", 8, start=state, steps=steps)
    ended = next(e for step in steps for e in step if e.kind == "GameEnded")
    assert ended.audience.value == "public"
    assert ended.data["head_starts"] == {f: p for f, p in start_events_points(8, "uneven-end").items()}
    even: list[list] = []
    play_game("uneven-end", 9, start=new_game(NAMES[:9], "uneven-end"), steps=even)
    assert "head_starts" not in next(e for step in even for e in step if e.kind == "GameEnded").data


def start_events_points(players: int, seed: str) -> dict[str, int]:
    return {e.data["faction"]: e.data["points"] for e in start_events(new_game(NAMES[:players], seed))}
