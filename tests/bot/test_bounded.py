"""The bot's in-memory hints about games and players stay within their limit: the oldest
entries go first, and one set or added again counts as new."""

from bot.discord.bounded import BoundedDict, BoundedSet


def test_a_bounded_dict_forgets_the_oldest_keys_past_its_limit() -> None:
    d: BoundedDict[int, str] = BoundedDict(3)
    for i in range(5):
        d[i] = str(i)
    assert list(d) == [2, 3, 4]
    d[2] = "again"  # set again: now the newest
    d[5] = "5"
    assert dict(d) == {4: "4", 2: "again", 5: "5"}


def test_a_bounded_set_keeps_the_most_recently_added_members() -> None:
    s: BoundedSet[tuple[int, str]] = BoundedSet(2)
    s.add((1, "a"))
    s.add((2, "b"))
    s.add((1, "a"))
    s.add((3, "c"))
    assert (1, "a") in s and (3, "c") in s and (2, "b") not in s
    assert len(s) == 2
    s.discard((1, "a"))
    s.discard((9, "z"))
    assert (1, "a") not in s and len(s) == 1


def test_ten_thousand_games_keep_the_dispatchers_hints_at_their_limit() -> None:
    s: BoundedSet[int] = BoundedSet()
    for game_id in range(50_000):
        s.add(game_id)
    assert len(s) == s._members.limit == 10_000
    assert 49_999 in s and 0 not in s
