"""Player arguments: seat, name, mention, ambiguity, the dead; and their autocomplete."""

import pytest

from bot.core.errors import NamedSeat, ResolveError
from bot.core.resolve import parse_player
from bot.core.types import SeatInfo
from bot.discord.errors import error_text
from bot.discord.players import MAX_CHOICES, player_choices

ALICE, BOB = 111111111111111111, 222222222222222222
TABLE = [
    SeatInfo(1, ALICE, "Alice"),
    SeatInfo(2, BOB, "Bob"),
    SeatInfo(3, 333333333333333333, "Albert"),
    SeatInfo(4, 444444444444444444, "狼人小明"),
    SeatInfo(5, 555555555555555555, "Carol", alive=False),
    SeatInfo(6, 666666666666666666, "Bobby"),
]


@pytest.mark.parametrize(
    ("text", "seat"),
    [
        ("3", 3), ("#3", 3), (" 3 ", 3), ("3号", 3), ("seat 3", 3), ("#2 Bob", 2),
        ("Alice", 1), ("alice", 1), ("@Alice", 1), ("ALICE", 1), ("Albe", 3), ("小明", 4), ("狼人小明", 4),
        (f"<@{BOB}>", 2), (f"<@!{BOB}>", 2), (str(ALICE), 1), ("Bob", 2),
    ],
)  # fmt: skip
def test_a_player_is_found_by_seat_name_or_mention(text, seat):
    assert parse_player(text, TABLE).seat == seat


def reason(text, players=TABLE, **kw):
    with pytest.raises(ResolveError) as info:
        parse_player(text, players, **kw)
    return info.value


def test_ambiguous_names_list_the_candidates_by_seat():
    err = reason("Al")
    assert err.key == "reply.error.player_ambiguous"
    assert NamedSeat(1, "Alice") in err.params["candidates"] and NamedSeat(3, "Albert") in err.params["candidates"]
    # The reply is localized, in both languages.
    assert "#1 Alice" in error_text(err, "zh-CN") and "座位号" in error_text(err, "zh-CN")


def test_a_unique_prefix_wins_over_a_longer_name_only_when_exact():
    # "Bob" is exactly seat 2, although "Bobby" also starts with it.
    assert parse_player("bob", TABLE).seat == 2
    assert parse_player("bobb", TABLE).seat == 6


def test_the_dead_are_refused_unless_allowed():
    assert reason("Carol").key == "reply.error.player_gone"
    assert reason("5").key == "reply.error.player_gone"
    assert parse_player("Carol", TABLE, allow_dead=True).seat == 5


@pytest.mark.parametrize("text", ["", "   ", "nobody", "99", "<@123456789012345678>", "#"])
def test_unknown_or_empty_is_a_clear_error(text):
    assert reason(text).key in ("reply.error.player_unknown", "reply.error.player_missing")


def test_before_the_start_naming_a_player_says_the_game_has_not_started():
    lobby = [SeatInfo(None, ALICE, "Alice"), SeatInfo(None, BOB, "Bob")]
    assert reason("Alice", lobby).key == "reply.error.not_started"
    assert reason("2", lobby).key == "reply.error.not_started"


def test_a_moderator_names_a_joined_player_in_the_lobby_by_name_or_autocomplete():
    lobby = [SeatInfo(None, ALICE, "Alice"), SeatInfo(None, BOB, "Bob")]
    assert parse_player("bob", lobby, lobby=True).user_id == BOB
    choices = player_choices("al", lobby, lobby=True)
    assert [(c.name, c.value) for c in choices] == [("Alice", str(ALICE))]
    assert parse_player(choices[0].value, lobby, lobby=True).user_id == ALICE
    assert player_choices("", lobby) == []  # a player's own autocomplete offers nobody yet


def test_autocomplete_offers_living_players_but_not_the_caller():
    choices = player_choices("", TABLE, exclude_user=ALICE)
    assert [c.value for c in choices] == ["2", "3", "4", "6"]
    assert choices[0].name == "#2 Bob"


def test_autocomplete_filters_by_seat_or_name():
    assert [c.value for c in player_choices("bo", TABLE)] == ["2", "6"]
    assert [c.value for c in player_choices("#4", TABLE)] == ["4"]
    assert [c.value for c in player_choices("明", TABLE)] == ["4"]
    assert [c.value for c in player_choices("carol", TABLE)] == []


def test_autocomplete_stops_at_25():
    many = [SeatInfo(i, 10**17 + i, f"P{i}") for i in range(1, 41)]
    assert len(player_choices("", many)) == MAX_CHOICES
    # every value it offers parses back to the same player
    for c in player_choices("", many):
        assert str(parse_player(c.value, many).seat) == c.value


def test_names_that_differ_only_in_case_are_told_apart_by_the_exact_spelling():
    table = [SeatInfo(1, ALICE, "bob"), SeatInfo(2, BOB, "Bob")]
    assert parse_player("Bob", table).seat == 2 and parse_player("bob", table).seat == 1
    assert reason("BOB", table).key == "reply.error.player_ambiguous"


def test_a_name_with_invisible_characters_is_found_as_it_reads():
    table = [SeatInfo(1, ALICE, "al\u200bice"), SeatInfo(2, BOB, "Bob")]
    assert parse_player("alice", table).seat == 1
    assert [c.value for c in player_choices("alic", table)] == ["1"]

