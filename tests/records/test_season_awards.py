"""A season's awards from its seat records: who tops each, ties named together, the
minimum games or guesses, and the seats that never count (an AI's, a replaced holder's,
a forgotten player's, a hidden profile's)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from bot.db.models import SeatRecord
from bot.features.seasons.awards import MIN_FACTION_GAMES, MIN_GUESSES, Award, awards

NOW = datetime(2026, 12, 5, tzinfo=UTC)


def seat(user: int | None, faction: str = "lawful", result: str = "loss", **kw: Any) -> SeatRecord:
    values: dict[str, Any] = {
        "game_id": 1, "guild_id": 1, "user_id": user, "name": f"p{user}", "ai": False, "seat": 1, "class_id": "warrior",
        "faction": faction, "result": result, "fate": "survived", "kills": 0, "teamkills": 0, "steals": 0, "grails": 0,
        "rounds": 3, "faction_score": 0, "ended_at": NOW, "phases_asked": 9, "phases_sent": 9, "phases_abandoned": 0,
        "guesses": 0, "guesses_right": 0,
    }  # fmt: skip
    return SeatRecord(**(values | kw))


def by_key(found: list[Award]) -> dict[str, Award]:
    return {a.key: a for a in found}


def test_each_award_goes_to_the_top_and_ties_share_it() -> None:
    rows = [
        *[seat(1, "lawful", "win", faction_score=12) for _ in range(MIN_FACTION_GAMES)],
        *[seat(2, "lawful", "win" if i else "loss", faction_score=12) for i in range(MIN_FACTION_GAMES + 1)],
        *[seat(3, "chaotic", "shared", faction_score=12, guesses=MIN_GUESSES, guesses_right=4) for _ in range(MIN_FACTION_GAMES)],
        seat(4, "neutral", "win", faction_score=30, guesses=MIN_GUESSES - 1, guesses_right=MIN_GUESSES - 1),
        seat(5, "neutral", "loss", phases_sent=8),  # a miss: not steady
    ]
    found = by_key(awards(rows))
    assert found["points"] == Award("points", (2,), 48, 4)  # 4 games x 12
    assert found["record_lawful"].users == (1,) and found["record_lawful"].value == 1.0
    assert found["record_chaotic"] == Award("record_chaotic", (3,), 1.0, 3)  # a shared win counts
    assert "record_neutral" not in found  # nobody has 3 games as Neutral
    assert found["identifier"] == Award("identifier", (3,), 0.8, 15)  # player 4 sent too few guesses
    assert found["steady"] == Award("steady", (2,), 4, 4)
    same = [seat(7, faction_score=5), seat(8, faction_score=5)]
    assert by_key(awards(same))["points"].users == (7, 8)  # tied: both named


def test_seats_that_do_not_count_and_hidden_players_are_left_out() -> None:
    rows = [
        seat(None, faction_score=99),  # forgotten
        seat(9, faction_score=99, ai=True),
        seat(10, faction_score=99, fate="replaced"),
        seat(11, faction_score=99),  # hidden below
        seat(12, faction_score=1, fate="removed"),  # counts for points, not as a game finished
        seat(13, faction_score=1, phases_asked=None, phases_sent=None),  # misses not known: not steady
    ]
    found = by_key(awards(rows, hidden=frozenset({11})))
    assert found["points"].users == (12, 13)
    assert "steady" not in found
    assert awards([]) == []
    # as a season's summary keeps it (bot.features.seasons.seasons)
    assert found["points"].to_json() == {"key": "points", "users": [12, 13], "value": found["points"].value, "out_of": found["points"].out_of}
